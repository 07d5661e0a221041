//! The command line: `--once` prints a snapshot, `--bench` times the collector.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::collector::Collector;
use crate::model::format;

const USAGE: &str = "\
usage: ringbar                  run the bar (Wayland; layer-shell compositors)
       ringbar --once [--interval-ms N] [--kernel-threads]
       ringbar --bench N [--kernel-threads]

  --once            take two samples N ms apart (default 500) and print a snapshot
  --interval-ms N   the interval for --once
  --bench N         take N samples back to back and print their timing
  --kernel-threads  include kernel threads in the process lists
  -h, --help        show this help
  -V, --version     show the version

Files: $XDG_CONFIG_HOME/ringbar/config.toml and style.css, $XDG_STATE_HOME/ringbar/state.toml.
Environment: RINGBAR_LOG sets the log level (error, warn, info, debug, trace).";

#[derive(Debug, PartialEq, Eq)]
enum Command {
    Bar,
    Once {
        interval_ms: u64,
        kernel_threads: bool,
    },
    Bench {
        samples: usize,
        kernel_threads: bool,
    },
    Help,
    Version,
}

fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, lexopt::Error> {
    use lexopt::prelude::*;

    let mut parser = lexopt::Parser::from_args(args);
    let (mut once, mut bench, mut interval_ms, mut kernel_threads) = (false, None, 500, false);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("once") => once = true,
            Long("bench") => bench = Some(parser.value()?.parse::<usize>()?),
            Long("interval-ms") => interval_ms = parser.value()?.parse()?,
            Long("kernel-threads") => kernel_threads = true,
            Short('h') | Long("help") => return Ok(Command::Help),
            Short('V') | Long("version") => return Ok(Command::Version),
            _ => return Err(arg.unexpected()),
        }
    }
    match (once, bench) {
        (true, None) if (1..=3_600_000).contains(&interval_ms) => Ok(Command::Once {
            interval_ms,
            kernel_threads,
        }),
        (true, None) => Err("--interval-ms must be between 1 and 3600000".into()),
        (false, Some(samples)) if samples > 0 => Ok(Command::Bench {
            samples,
            kernel_threads,
        }),
        (false, Some(_)) => Err("--bench needs at least 1 sample".into()),
        (true, Some(_)) => Err("--once and --bench exclude each other".into()),
        (false, None) if interval_ms == 500 && !kernel_threads => Ok(Command::Bar),
        (false, None) => Err("--interval-ms and --kernel-threads go with --once or --bench".into()),
    }
}

pub fn main() -> ExitCode {
    init_logging();
    let command = match parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(err) => {
            eprintln!("ringbar: {err}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match command {
        Command::Bar => return crate::ui::run(),
        Command::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Command::Version => {
            println!("ringbar {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Command::Once {
            interval_ms,
            kernel_threads,
        } => once(interval_ms, kernel_threads),
        Command::Bench {
            samples,
            kernel_threads,
        } => bench(samples, kernel_threads),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ringbar: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The probe's collector, or the /proc one with the reason on stderr (one line).
fn collector(kernel_threads: bool) -> Collector {
    let (collector, probe_error) = Collector::new(kernel_threads);
    if let Some(err) = probe_error {
        eprintln!("ringbar: BPF probe off, reading /proc instead: {err}");
    }
    collector
}

fn once(interval_ms: u64, kernel_threads: bool) -> Result<(), String> {
    let mut collector = collector(kernel_threads);
    collector
        .sample()
        .map_err(|e| format!("sampling failed: {e}"))?;
    std::thread::sleep(Duration::from_millis(interval_ms));
    let snapshot = collector
        .sample()
        .map_err(|e| format!("sampling failed: {e}"))?;
    let mut out = String::new();
    format::write_report(&mut out, snapshot);
    format::write_footer(&mut out, snapshot, interval_ms);
    println!("{out}");
    Ok(())
}

fn bench(samples: usize, kernel_threads: bool) -> Result<(), String> {
    let mut collector = collector(kernel_threads);
    collector
        .sample()
        .map_err(|e| format!("sampling failed: {e}"))?; // warm-up: buffers grow here
    let mut micros = Vec::with_capacity(samples);
    for _ in 0..samples {
        let started = Instant::now();
        collector
            .sample()
            .map_err(|e| format!("sampling failed: {e}"))?;
        micros.push(started.elapsed().as_secs_f64() * 1e6);
    }
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    let s = collector.snapshot();
    println!(
        "source={} samples={samples} tasks={} procs={} median_us={:.0} p99_us={:.0} max_us={:.0}",
        if collector.uses_probe() {
            "bpf"
        } else {
            "proc"
        },
        s.tasks,
        s.processes,
        at(0.5),
        at(0.99),
        at(1.0)
    );
    Ok(())
}

fn init_logging() {
    use tracing_subscriber::EnvFilter;

    let filter = EnvFilter::try_from_env("RINGBAR_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .init();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Result<Command, String> {
        parse(line.split_whitespace().map(Into::into)).map_err(|e| e.to_string())
    }

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!(
            args("--once"),
            Ok(Command::Once {
                interval_ms: 500,
                kernel_threads: false
            })
        );
        assert_eq!(
            args("--once --interval-ms 250 --kernel-threads"),
            Ok(Command::Once {
                interval_ms: 250,
                kernel_threads: true
            })
        );
        assert_eq!(
            args("--bench 100"),
            Ok(Command::Bench {
                samples: 100,
                kernel_threads: false
            })
        );
        assert_eq!(args("--help"), Ok(Command::Help));
        assert_eq!(args(""), Ok(Command::Bar));
    }

    #[test]
    fn rejects_nonsense() {
        assert!(args("--once --interval-ms 0").is_err());
        assert!(args("--once --interval-ms abc").is_err());
        assert!(args("--bench 0").is_err());
        assert!(args("--bench").is_err());
        assert!(args("--once --bench 3").is_err());
        assert!(args("--frobnicate").is_err());
    }
}
