//! The sound server's socket, watched for a server that starts (see
//! `ringbar::events::socket_watch`).

use std::path::PathBuf;

/// Where the server listens, as libpulse looks for it; `None` for a `PULSE_SERVER`
/// (an address of any kind, which a file watch cannot follow).
pub fn path() -> Option<PathBuf> {
    if std::env::var_os("PULSE_SERVER").is_some_and(|s| !s.is_empty()) {
        return None;
    }
    let runtime = match std::env::var_os("PULSE_RUNTIME_PATH").filter(|p| !p.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(std::env::var_os("XDG_RUNTIME_DIR")?).join("pulse"),
    };
    Some(runtime.join("native"))
}

/// Calls `on_created` each time a server makes its socket. `None` where it cannot be
/// watched: a `PULSE_SERVER`, or no runtime folder (libpulse makes `pulse/` there as a
/// client starts; without it inotify has nothing to watch).
pub fn watch(on_created: impl Fn() + 'static) -> Option<gio::FileMonitor> {
    ringbar::events::socket_watch::watch_created(&path()?, on_created)
}
