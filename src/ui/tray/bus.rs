//! The session bus connection. GLib's own lookup ignores `DBUS_SESSION_BUS_ADDRESS` in
//! secure-execution mode (the bar has file capabilities), so the address is chosen here
//! (see `tray::session_bus_address`) and connected to explicitly, asynchronously.

use gtk4::gio;
use gtk4::glib;

use crate::events::tray::session_bus_address;

/// Connects to the session bus and calls `on_connected` with the connection; logs why
/// when there is none (the tray then stays hidden).
pub fn connect(on_connected: impl FnOnce(gio::DBusConnection) + 'static) {
    let from_env = std::env::var("DBUS_SESSION_BUS_ADDRESS").ok();
    let runtime_dir = std::env::var("XDG_RUNTIME_DIR").ok();
    let Some(address) = session_bus_address(from_env.as_deref(), runtime_dir.as_deref()) else {
        tracing::warn!(
            "tray hidden: no session bus (neither DBUS_SESSION_BUS_ADDRESS nor \
             XDG_RUNTIME_DIR is set)"
        );
        return;
    };
    if from_env.as_deref().is_some_and(|env| env != address) {
        tracing::info!("tray: DBUS_SESSION_BUS_ADDRESS names more than a socket; using {address}");
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
                tracing::info!("tray: on the session bus at {for_log}");
                on_connected(connection);
            }
            Err(err) => tracing::warn!(
                "tray hidden: cannot reach the session bus at {for_log}: {}",
                err.message()
            ),
        },
    );
}

/// A method call whose reply is only logged: clicks and menu events.
pub fn call_and_forget(
    connection: &gio::DBusConnection,
    bus_name: &str,
    path: &str,
    interface: &str,
    method: &str,
    args: glib::Variant,
) {
    let what = format!("{bus_name}{path} {method}");
    connection.call(
        Some(bus_name),
        path,
        interface,
        method,
        Some(&args),
        None,
        gio::DBusCallFlags::NONE,
        CLICK_TIMEOUT_MS,
        None::<&gio::Cancellable>,
        move |result| {
            if let Err(err) = result {
                tracing::debug!("tray: {what}: {}", err.message());
            }
        },
    );
}

/// Clicks and menu events: an item that does not answer this fast is not waited for.
pub const CLICK_TIMEOUT_MS: i32 = 2_000;
/// Property and layout fetches.
pub const FETCH_TIMEOUT_MS: i32 = 5_000;
