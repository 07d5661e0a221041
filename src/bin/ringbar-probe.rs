//! `ringbar-probe`: the optional probe service (see `ringbar::records::service`). Started by
//! systemd from data/systemd/ringbar-probe.socket (socket activation), or by hand:
//! `ringbar-probe [--socket PATH]`.

use std::path::PathBuf;
use std::process::ExitCode;

use ringbar::records::probe::Probe;
use ringbar::records::service::{self, listener, server};

const USAGE: &str = "\
usage: ringbar-probe [--socket PATH]

Loads ringbar's BPF probe (needs CAP_BPF and CAP_PERFMON) and lends it to ringbar bars
over a Unix socket, so that they need no capability. Under systemd the socket comes from
socket activation; otherwise it listens at PATH (default /run/ringbar-probe.sock, mode
0666: every user may connect, and learns only what /proc shows them).";

fn main() -> ExitCode {
    ringbar::cli::init_logging("info");
    let mut socket_path = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--socket") => match args.next() {
                Some(path) => socket_path = Some(PathBuf::from(path)),
                None => return usage_error("--socket needs a path"),
            },
            Some("-h" | "--help") => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => return usage_error(&format!("unexpected argument {arg:?}")),
        }
    }
    let result = run(socket_path);
    ringbar::cli::flush_log();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("ringbar-probe: {err}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error(why: &str) -> ExitCode {
    eprintln!("ringbar-probe: {why}\n{USAGE}");
    ExitCode::from(2)
}

fn run(socket_path: Option<PathBuf>) -> Result<(), String> {
    let listener = match listener::from_systemd()? {
        Some(listener) => listener,
        None => {
            let path = socket_path.unwrap_or_else(|| PathBuf::from(service::DEFAULT_SOCKET));
            listener::bind_path(&path)?
        }
    };
    let probe = Probe::load_for_service().map_err(|err| err.to_string())?;
    // The loaded probe needs no capability to serve: drop them before any client talks.
    ringbar::records::privileges::drop_all()?;
    // A thread made now holds no capability.
    ringbar::cli::log_in_background();
    tracing::info!("probe loaded; serving");
    server::serve(listener, probe).map_err(|err| format!("serving: {err}"))
}
