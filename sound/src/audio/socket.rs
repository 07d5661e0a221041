//! Where the sound server listens, the cookie it may ask for, and its socket watched for
//! a server that starts (see `ringbar::events::socket_watch`).

use std::path::PathBuf;

/// `PULSE_SERVER`, if set: the user's choice of server.
fn named_server() -> Option<String> {
    std::env::var("PULSE_SERVER").ok().filter(|s| !s.is_empty())
}

/// The socket of the server's usual place; `None` for a `PULSE_SERVER` (which a file
/// watch cannot follow) or without a runtime folder.
pub fn path() -> Option<PathBuf> {
    if named_server().is_some() {
        return None;
    }
    let runtime = match std::env::var_os("PULSE_RUNTIME_PATH").filter(|p| !p.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("XDG_RUNTIME_DIR")?).join("pulse"),
    };
    Some(runtime.join("native"))
}

/// The socket to connect to: `PULSE_SERVER`'s (`unix:PATH` or a path; the first Unix
/// socket of a list), else the usual place. Why not, for a server named otherwise (TCP).
pub fn server() -> Result<PathBuf, String> {
    let Some(named) = named_server() else {
        return path()
            .ok_or_else(|| "neither XDG_RUNTIME_DIR nor PULSE_RUNTIME_PATH is set".into());
    };
    named
        .split_whitespace()
        .map(|address| address.strip_prefix("unix:").unwrap_or(address))
        .find(|address| address.starts_with('/'))
        .map(PathBuf::from)
        .ok_or_else(|| {
            format!("PULSE_SERVER={named:?} names no Unix socket, which is all the bar speaks to")
        })
}

/// The length of the cookie the protocol carries.
const COOKIE_LENGTH: usize = 256;

/// The cookie that authenticates a client to a PulseAudio server (`PULSE_COOKIE`, or the
/// user's `~/.config/pulse/cookie`, which the server makes); zeros without one: PipeWire
/// asks for none, and PulseAudio reads one of this length before anything else.
pub fn cookie() -> Vec<u8> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let paths = std::env::var_os("PULSE_COOKIE")
        .map(PathBuf::from)
        .into_iter()
        .chain(home.map(|home| home.join(".config/pulse/cookie")));
    paths
        .filter_map(|path| std::fs::read(path).ok())
        .find(|cookie| cookie.len() == COOKIE_LENGTH)
        .unwrap_or_else(|| vec![0; COOKIE_LENGTH])
}

/// Calls `on_created` each time a server makes its socket. `None` where it cannot be
/// watched: a `PULSE_SERVER`, or no runtime folder (libpulse clients make `pulse/` there
/// as they start; without it inotify has nothing to watch).
pub fn watch(on_created: impl Fn() + 'static) -> Option<gio::FileMonitor> {
    ringbar::events::socket_watch::watch_created(&path()?, on_created)
}
