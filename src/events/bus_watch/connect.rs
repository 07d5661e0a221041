//! Reaching a bus for a watch of a service on it: the bus is reached on the main loop,
//! and the watch is held weakly meanwhile, so that one dropped before the bus answers is
//! neither kept alive nor called.

use std::rc::Rc;

use gtk4::gio;

pub enum Bus {
    /// BlueZ, power-profiles-daemon, logind.
    System,
    /// Media players, the tray's items.
    Session,
}

/// Reaches `bus` for `watch` (`what` names it in the log): then `connected`, or, without
/// the bus, `failed`; neither once the watch is gone.
pub fn connect<T: 'static>(
    bus: Bus,
    what: &'static str,
    watch: &Rc<T>,
    connected: fn(&Rc<T>, gio::DBusConnection),
    failed: fn(&Rc<T>),
) {
    let (on_connected, on_failed) = (Rc::downgrade(watch), Rc::downgrade(watch));
    let connected = move |connection| {
        if let Some(watch) = on_connected.upgrade() {
            connected(&watch, connection);
        }
    };
    let failed = move || {
        if let Some(watch) = on_failed.upgrade() {
            failed(&watch);
        }
    };
    match bus {
        Bus::System => super::system_bus::connect(what, connected, failed),
        Bus::Session => super::session_bus::connect(what, connected, failed),
    }
}
