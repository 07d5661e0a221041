//! The sound server's socket, watched with inotify for a server that starts, so that
//! the audio watch needs no timer while there is none.

use std::path::PathBuf;

use gtk4::gio;
use gtk4::gio::prelude::{FileExt, FileMonitorExt};

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
    let path = path()?;
    path.parent().filter(|folder| folder.is_dir())?;
    let monitor = gio::File::for_path(&path)
        .monitor_file(gio::FileMonitorFlags::NONE, None::<&gio::Cancellable>)
        .ok()?;
    monitor.connect_changed(move |_, _, _, event| {
        if event == gio::FileMonitorEvent::Created {
            on_created();
        }
    });
    Some(monitor)
}
