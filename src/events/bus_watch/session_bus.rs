//! The session bus, for what the modules follow there (the tray's items, media
//! players). GLib's own lookup ignores `DBUS_SESSION_BUS_ADDRESS` in secure-execution
//! mode (the bar has file capabilities), so the address is chosen here (see
//! `tray::session_bus_address`) and connected to explicitly, without waiting.

use gtk4::gio;

use crate::events::tray::session_bus_address;

/// Connects on the main loop: `connected` gets the connection; without a session bus,
/// one warning for `what` (the module's name), then `failed`.
pub fn connect(
    what: &'static str,
    connected: impl FnOnce(gio::DBusConnection) + 'static,
    failed: impl FnOnce() + 'static,
) {
    let from_env = std::env::var("DBUS_SESSION_BUS_ADDRESS").ok();
    let runtime_dir = std::env::var("XDG_RUNTIME_DIR").ok();
    let Some(address) = session_bus_address(from_env.as_deref(), runtime_dir.as_deref()) else {
        tracing::warn!(
            "{what} hidden: no session bus (neither DBUS_SESSION_BUS_ADDRESS nor \
             XDG_RUNTIME_DIR is set)"
        );
        failed();
        return;
    };
    if from_env.as_deref().is_some_and(|env| env != address) {
        tracing::info!(
            "{what}: DBUS_SESSION_BUS_ADDRESS names more than a socket; using {address}"
        );
    }
    let flags = gio::DBusConnectionFlags::AUTHENTICATION_CLIENT
        | gio::DBusConnectionFlags::MESSAGE_BUS_CONNECTION;
    let for_log = address.clone();
    gio::DBusConnection::for_address(
        &address,
        flags,
        None,
        None::<&gio::Cancellable>,
        move |result| match result {
            Ok(connection) => {
                tracing::info!("{what}: on the session bus at {for_log}");
                connected(connection);
            }
            Err(err) => {
                tracing::warn!(
                    "{what} hidden: cannot reach the session bus at {for_log}: {}",
                    err.message()
                );
                failed();
            }
        },
    );
}
