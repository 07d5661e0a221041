//! Starting a watch of a service on D-Bus: the bus is reached on the main loop, and the
//! watch is held weakly meanwhile, so that one dropped before the bus answers is neither
//! kept alive nor called.

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

/// The entries of a D-Bus property dict (`a{sv}`, as `GetAll` and `PropertiesChanged`
/// give it): each name with its unboxed value, the first `max` only; nothing for a value
/// of another type.
pub fn properties(
    dict: &gtk4::glib::Variant,
    max: usize,
) -> impl Iterator<Item = (String, gtk4::glib::Variant)> + '_ {
    let is_dict = gtk4::glib::VariantTy::new("a{sv}").is_ok_and(|ty| dict.is_type(ty));
    let count = if is_dict {
        dict.n_children().min(max)
    } else {
        0
    };
    (0..count).filter_map(move |i| {
        let entry = dict.child_value(i);
        let name = entry.child_value(0).str()?.to_owned();
        Some((name, entry.child_value(1).as_variant()?))
    })
}
