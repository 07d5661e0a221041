//! Calls to the tray's items on the session bus (`events::session_bus` connects).

use gtk4::gio;
use gtk4::glib;

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
