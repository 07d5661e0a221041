//! The system bus, for the services the modules follow there (BlueZ,
//! power-profiles-daemon): one way to reach it, without waiting.

use gtk4::gio;

/// `DBUS_SYSTEM_BUS_ADDRESS` where set (GLib ignores it in a program with file
/// capabilities, so it is read here), else the standard socket.
pub fn address() -> String {
    std::env::var("DBUS_SYSTEM_BUS_ADDRESS")
        .ok()
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| "unix:path=/run/dbus/system_bus_socket".to_owned())
}

/// Connects on the main loop: `connected` gets the connection; a failure is one
/// warning for `what` (the module's name), then `failed`.
pub fn connect(
    what: &'static str,
    connected: impl FnOnce(gio::DBusConnection) + 'static,
    failed: impl FnOnce() + 'static,
) {
    let address = address();
    let flags = gio::DBusConnectionFlags::AUTHENTICATION_CLIENT
        | gio::DBusConnectionFlags::MESSAGE_BUS_CONNECTION;
    gio::DBusConnection::for_address(
        &address.clone(),
        flags,
        None,
        None::<&gio::Cancellable>,
        move |result| match result {
            Ok(connection) => connected(connection),
            Err(err) => {
                tracing::warn!(
                    "{what}: cannot reach the system bus at {address}: {}; hidden",
                    err.message()
                );
                failed();
            }
        },
    );
}
