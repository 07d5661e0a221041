//! The config file watched as the style is: a saved change reloads the bar once the
//! writes have settled, whether the editor writes the file in place or writes a new one
//! and renames it over the old. A broken save shows the `⚠ config` marker, as any reload.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use gtk4::gio;
use gtk4::glib;
use gtk4::prelude::*;

/// Writes this close together are one change.
const SETTLE: Duration = Duration::from_millis(300);

/// Keeps the file monitor alive.
pub struct ConfigWatch {
    _monitor: gio::FileMonitor,
}

/// Calls `reload` after each settled change of the file at `path`.
pub fn watch(path: &Path, reload: impl Fn() + 'static) -> Option<ConfigWatch> {
    let monitor = gio::File::for_path(path)
        .monitor_file(gio::FileMonitorFlags::WATCH_MOVES, gio::Cancellable::NONE)
        .map_err(|err| tracing::warn!("not watching {} for changes: {err}", path.display()))
        .ok()?;
    let reload = Rc::new(reload);
    let pending: Rc<RefCell<Option<glib::SourceId>>> = Rc::default();
    monitor.connect_changed(move |_, _, _, event| {
        use gio::FileMonitorEvent as E;
        let settled = matches!(
            event,
            E::ChangesDoneHint | E::Created | E::Deleted | E::Renamed | E::MovedIn | E::MovedOut
        );
        if !settled {
            return;
        }
        if let Some(earlier) = pending.borrow_mut().take() {
            earlier.remove();
        }
        let (reload, fired) = (reload.clone(), pending.clone());
        let id = glib::timeout_add_local_once(SETTLE, move || {
            fired.borrow_mut().take();
            tracing::info!("config.toml changed");
            reload();
        });
        pending.replace(Some(id));
    });
    Some(ConfigWatch { _monitor: monitor })
}
