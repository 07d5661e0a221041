//! The command line: the bar, `--once [--json]`, `--waybar`, `--bench`, `msg`, `check` and
//! `import-waybar`.

mod bench;
mod check;
mod import_waybar;
mod iterate;
mod latest_line;
mod msg;
mod once;
mod once_scripts;
mod waybar;
mod waybar_loader;

use std::io::{self, Write};
use std::process::ExitCode;

pub use crate::app::log::{flush_log, init_logging, log_in_background};
use crate::config::{MAX_INTERVAL_MS, MIN_INTERVAL_MS};
use crate::events::control::Message;

const USAGE: &str = "\
usage: ringbar                  run the bar (Wayland; layer-shell compositors)
       ringbar --once [--json] [--interval-ms N] [--kernel-threads]
       ringbar --waybar [--interval-ms N]
       ringbar --bench N [--kernel-threads]
       ringbar msg cycle-interval | toggle-kernel-threads | toggle-group-by | reload
       ringbar check [FILE]
       ringbar import-waybar [FILE] [-o PATH [--force]]

  --once            take two samples N ms apart (default 500) and print every configured
                    module's text, then what its tooltip shows
  --json            with --once: one JSON object instead (schema in docs/command-line.md)
  --interval-ms N   the interval for --once (1 to 3600000), or --waybar's first (50 to
                    60000; clicks still change it)
  --kernel-threads  include kernel threads in the process lists (--once, --bench)
  --waybar          stream one JSON line per sample for a Waybar custom module
  --bench N         take N samples back to back and print their timing
  msg WORD          tell the running bar and --waybar instances to act; exits 1 when
                    none runs
  check [FILE]      read a config (default: the one the bar reads) and name every
                    problem in it; exits 1 when there is one
  import-waybar [FILE]  print the ringbar config for a Waybar config (default:
                    ~/.config/waybar/config); what does not carry over goes to stderr
  -o PATH           with import-waybar: write the config to PATH instead, or into the
                    directory PATH (config.toml, and style.css from Waybar's), each file
                    whole or not at all; an existing file is kept unless --force
  -h, --help        show this help
  -V, --version     show the version

Files: $XDG_CONFIG_HOME/ringbar/config.toml (else /etc/xdg/ringbar/config.toml) and
style.css, $XDG_STATE_HOME/ringbar/state.toml. Reference: man ringbar, man 5 ringbar.
Environment: RINGBAR_LOG sets the log level (error, warn, info, debug, trace).";

#[derive(Debug, PartialEq, Eq)]
enum Command {
    Bar,
    Once {
        interval_ms: u64,
        kernel_threads: bool,
        json: bool,
    },
    Waybar {
        interval_ms: Option<u32>,
    },
    Bench {
        samples: usize,
        kernel_threads: bool,
    },
    Msg(Message),
    Check(Option<std::path::PathBuf>),
    ImportWaybar(import_waybar::Args),
    Help,
    Version,
}

/// The one optional FILE after a command word (`check [FILE]`), and nothing more.
fn optional_file(parser: &mut lexopt::Parser) -> Result<Option<std::path::PathBuf>, lexopt::Error> {
    use lexopt::prelude::*;
    let file = match parser.next()? {
        None => None,
        Some(Value(file)) => Some(std::path::PathBuf::from(file)),
        Some(other) => return Err(other.unexpected()),
    };
    if let Some(extra) = parser.next()? {
        return Err(extra.unexpected());
    }
    Ok(file)
}

fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, lexopt::Error> {
    use lexopt::prelude::*;

    let mut parser = lexopt::Parser::from_args(args);
    let (mut once, mut json, mut waybar, mut bench) = (false, false, false, None);
    let (mut interval_ms, mut kernel_threads) = (None, false);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("once") => once = true,
            Long("json") => json = true,
            Long("waybar") => waybar = true,
            Long("bench") => bench = Some(parser.value()?.parse::<usize>()?),
            Long("interval-ms") => interval_ms = Some(parser.value()?.parse::<u64>()?),
            Long("kernel-threads") => kernel_threads = true,
            Short('h') | Long("help") => return Ok(Command::Help),
            Short('V') | Long("version") => return Ok(Command::Version),
            Value(word) if word == "check" && !(once || waybar || bench.is_some()) => {
                return optional_file(&mut parser).map(Command::Check);
            }
            Value(word) if word == "import-waybar" && !(once || waybar || bench.is_some()) => {
                return import_waybar::Args::parse(&mut parser).map(Command::ImportWaybar);
            }
            Value(word) if word == "msg" && !(once || waybar || bench.is_some()) => {
                let what = parser.value()?.string()?;
                if let Some(extra) = parser.next()? {
                    return Err(extra.unexpected());
                }
                return Message::parse(&what).map(Command::Msg).ok_or_else(|| {
                    format!(
                        "msg takes one of: {}",
                        Message::ALL.map(Message::word).join(", ")
                    )
                    .into()
                });
            }
            _ => return Err(arg.unexpected()),
        }
    }
    let modes = usize::from(once) + usize::from(waybar) + usize::from(bench.is_some());
    if modes > 1 {
        return Err("--once, --waybar and --bench exclude each other".into());
    }
    if json && !once {
        return Err("--json goes with --once".into());
    }
    if interval_ms.is_some() && !(once || waybar) {
        return Err("--interval-ms goes with --once or --waybar".into());
    }
    if kernel_threads && !(once || bench.is_some()) {
        return Err("--kernel-threads goes with --once or --bench".into());
    }
    if let Some(samples) = bench {
        if samples == 0 {
            return Err("--bench needs at least 1 sample".into());
        }
        return Ok(Command::Bench {
            samples,
            kernel_threads,
        });
    }
    if once {
        let interval_ms = interval_ms.unwrap_or(500);
        if !(1..=3_600_000).contains(&interval_ms) {
            return Err("--interval-ms must be between 1 and 3600000".into());
        }
        return Ok(Command::Once {
            interval_ms,
            kernel_threads,
            json,
        });
    }
    if waybar {
        let range = u64::from(MIN_INTERVAL_MS)..=u64::from(MAX_INTERVAL_MS);
        if interval_ms.is_some_and(|ms| !range.contains(&ms)) {
            let message =
                format!("--interval-ms with --waybar must be between {MIN_INTERVAL_MS} and {MAX_INTERVAL_MS}");
            return Err(message.into());
        }
        let interval_ms = interval_ms.map(|ms| ms as u32);
        return Ok(Command::Waybar { interval_ms });
    }
    Ok(Command::Bar)
}

pub fn main() -> ExitCode {
    let command = match parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(err) => {
            eprintln!("ringbar: {err}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if command == Command::Bar {
        crate::app::heap::start_without_slice_allocator();
    }
    // The bar logs what it does; a command's stderr carries only what goes wrong.
    init_logging(if command == Command::Bar {
        "info"
    } else {
        "warn"
    });
    crate::events::script::signals::catch_realtime_signals();
    let result = match command {
        Command::Bar => {
            let code = crate::ui::run();
            flush_log();
            return code;
        }
        Command::Waybar { interval_ms } => return waybar::run(interval_ms),
        Command::Msg(message) => return msg::send(message),
        Command::Check(file) => return check::run(file),
        Command::ImportWaybar(args) => return import_waybar::run(args),
        Command::Help => print(&format!("{USAGE}\n")),
        Command::Version => print(&format!("ringbar {}\n", env!("CARGO_PKG_VERSION"))),
        Command::Once {
            interval_ms,
            kernel_threads,
            json,
        } => once::run(interval_ms, kernel_threads, json),
        Command::Bench {
            samples,
            kernel_threads,
        } => bench::run(samples, kernel_threads),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`ringbar --once | head -3`): nothing left to say.
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("ringbar: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error("{0}")]
    Message(String),
    #[error("writing the output failed: {0}")]
    Output(#[from] io::Error),
}

/// Writes to stdout and flushes; a closed pipe comes back as an error, not a panic.
fn print(text: &str) -> Result<(), Failure> {
    if text.is_empty() {
        return Ok(());
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// The one stderr line a command prints when the probe did not load.
fn report_probe_error(error: Option<&str>) {
    if let Some(err) = error {
        eprintln!("ringbar: BPF probe off, reading /proc instead: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::control::Request;

    fn args(line: &str) -> Result<Command, String> {
        parse(line.split_whitespace().map(Into::into)).map_err(|e| e.to_string())
    }

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!(
            args("--once"),
            Ok(Command::Once {
                interval_ms: 500,
                kernel_threads: false,
                json: false,
            })
        );
        assert_eq!(
            args("--once --json --interval-ms 250 --kernel-threads"),
            Ok(Command::Once {
                interval_ms: 250,
                kernel_threads: true,
                json: true,
            })
        );
        assert_eq!(
            args("--bench 100"),
            Ok(Command::Bench {
                samples: 100,
                kernel_threads: false
            })
        );
        assert_eq!(args("--waybar"), Ok(Command::Waybar { interval_ms: None }));
        assert_eq!(
            args("--waybar --interval-ms 500"),
            Ok(Command::Waybar {
                interval_ms: Some(500)
            })
        );
        assert_eq!(
            args("msg cycle-interval"),
            Ok(Command::Msg(Message::Monitor(Request::CycleInterval)))
        );
        assert_eq!(
            args("msg toggle-kernel-threads"),
            Ok(Command::Msg(Message::Monitor(Request::ToggleKernelThreads)))
        );
        assert_eq!(
            args("msg toggle-group-by"),
            Ok(Command::Msg(Message::Monitor(Request::ToggleGroupBy)))
        );
        assert_eq!(args("msg reload"), Ok(Command::Msg(Message::Reload)));
        assert_eq!(args("check"), Ok(Command::Check(None)));
        assert_eq!(
            args("import-waybar /etc/xdg/waybar/config"),
            Ok(Command::ImportWaybar(import_waybar::Args {
                file: Some("/etc/xdg/waybar/config".into()),
                output: None,
                force: false,
            }))
        );
        assert_eq!(
            args("import-waybar -o /tmp/rb/ --force"),
            Ok(Command::ImportWaybar(import_waybar::Args {
                file: None,
                output: Some("/tmp/rb/".into()),
                force: true,
            }))
        );
        assert_eq!(
            args("check /etc/ringbar.toml"),
            Ok(Command::Check(Some("/etc/ringbar.toml".into())))
        );
        assert_eq!(args("--help"), Ok(Command::Help));
        assert_eq!(args(""), Ok(Command::Bar));
    }

    #[test]
    fn rejects_nonsense() {
        for line in [
            "--once --interval-ms 0",
            "--once --interval-ms abc",
            "--bench 0",
            "--bench",
            "--once --bench 3",
            "--once --waybar",
            "--json",
            "--waybar --json",
            "--waybar --interval-ms 5",
            "--waybar --interval-ms 60001",
            "--interval-ms 500",
            "--kernel-threads",
            "--frobnicate",
            "msg",
            "msg frobnicate",
            "msg reload now",
            "check a b",
            "--once check",
            "import-waybar a b",
            "import-waybar --force",
            "import-waybar -o",
            "import-waybar -o a -o b",
        ] {
            assert!(args(line).is_err(), "{line}");
        }
        assert_eq!(
            args("msg frobnicate"),
            Err(
                "msg takes one of: cycle-interval, toggle-kernel-threads, toggle-group-by, reload"
                    .to_owned()
            )
        );
    }
}
