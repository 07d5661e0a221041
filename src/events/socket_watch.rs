//! A server's Unix socket, watched with inotify for the server to start, so that a
//! source needs no timer while its server is not there.

use std::path::Path;

use gtk4::gio;
use gtk4::gio::prelude::{FileExt, FileMonitorExt};

/// Calls `on_created` each time a file appears at `path`. `None` where it cannot be
/// watched: its folder does not exist (inotify has nothing to watch there).
pub fn watch_created(path: &Path, on_created: impl Fn() + 'static) -> Option<gio::FileMonitor> {
    path.parent().filter(|folder| folder.is_dir())?;
    let monitor = gio::File::for_path(path)
        .monitor_file(gio::FileMonitorFlags::NONE, None::<&gio::Cancellable>)
        .ok()?;
    monitor.connect_changed(move |_, _, _, event| {
        if event == gio::FileMonitorEvent::Created {
            on_created();
        }
    });
    Some(monitor)
}
