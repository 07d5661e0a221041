//! Test helper: a GTK window titled "Urgent" that asks the compositor for the focus
//! (`gtk_window_present`, an xdg-activation request on Wayland) on each SIGUSR1. A
//! compositor that does not hand the focus over marks the window urgent instead.
//!
//! Run with WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor.

use gtk4::prelude::*;
use gtk4::{gio, glib};

fn main() -> glib::ExitCode {
    let app = gtk4::Application::new(None::<&str>, gio::ApplicationFlags::NON_UNIQUE);
    app.connect_activate(|app| {
        let window = gtk4::ApplicationWindow::new(app);
        window.set_title(Some("Urgent"));
        window.present();
        glib_unix::unix_signal_add_local(libc::SIGUSR1, move || {
            window.present();
            glib::ControlFlow::Continue
        });
    });
    app.run_with_args::<&str>(&[])
}
