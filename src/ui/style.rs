//! The embedded default style plus the user's `style.css`, reloaded when it changes.

use std::path::{Path, PathBuf};

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gio};

/// Keeps the user style provider and the file monitor that reloads it alive.
pub struct Style {
    user: gtk::CssProvider,
    path: Option<PathBuf>,
    _monitor: Option<gio::FileMonitor>,
}

impl Style {
    /// Loads the user's file again (a second `ringbar` start asks for this).
    pub fn reload(&self) {
        if let Some(path) = &self.path {
            load_user(&self.user, path);
        }
    }
}

pub fn install(display: &gdk::Display, user_file: Option<PathBuf>) -> Style {
    let default = gtk::CssProvider::new();
    default.load_from_resource("/dev/ringbar/style.css");
    gtk::style_context_add_provider_for_display(
        display,
        &default,
        gtk::STYLE_PROVIDER_PRIORITY_APPLICATION,
    );

    let user = gtk::CssProvider::new();
    gtk::style_context_add_provider_for_display(display, &user, gtk::STYLE_PROVIDER_PRIORITY_USER);
    let Some(path) = user_file else {
        return Style {
            user,
            path: None,
            _monitor: None,
        };
    };
    {
        let path = path.clone();
        user.connect_parsing_error(move |_, section, error| {
            let start = section.start_location();
            tracing::warn!(
                "{}:{}:{}: {}",
                path.display(),
                start.lines() + 1,
                start.line_chars() + 1,
                error.message()
            );
        });
    }
    load_user(&user, &path);

    let monitor = gio::File::for_path(&path)
        .monitor_file(gio::FileMonitorFlags::WATCH_MOVES, gio::Cancellable::NONE)
        .map_err(|err| tracing::warn!("not watching {} for changes: {err}", path.display()))
        .ok();
    if let Some(monitor) = &monitor {
        let user = user.clone();
        let path = path.clone();
        monitor.connect_changed(move |_, _, _, event| {
            use gio::FileMonitorEvent as E;
            if matches!(
                event,
                E::ChangesDoneHint
                    | E::Created
                    | E::Deleted
                    | E::Renamed
                    | E::MovedIn
                    | E::MovedOut
            ) {
                load_user(&user, &path);
            }
        });
    }
    Style {
        user,
        path: Some(path),
        _monitor: monitor,
    }
}

/// Loads the user's style, a regular UTF-8 file of at most 1 MiB; anything else (deleted,
/// never created, a FIFO, a device, too large) leaves the default style alone.
fn load_user(provider: &gtk::CssProvider, path: &Path) {
    let read = crate::config::user_file::read(path, crate::config::user_file::MAX_CONFIG_BYTES);
    match read.and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other)) {
        Ok(css) => {
            provider.load_from_data(&css);
            tracing::info!("style loaded from {}", path.display());
        }
        Err(err) => {
            if err.kind() != std::io::ErrorKind::NotFound {
                tracing::warn!("not using {}: {err}", path.display());
            }
            provider.load_from_data("");
        }
    }
}
