//! power-profiles-daemon on the system bus, through gio's asynchronous D-Bus on the main
//! loop. Its current name, `org.freedesktop.UPower.PowerProfiles`, is preferred; the
//! older `net.hadess.PowerProfiles` (the only one before 0.20) is followed where it is
//! the one there. The properties come from `GetAll` when the daemon appears, then from
//! `PropertiesChanged`. While neither name has an owner the state is `None` (said once).
//! Every call has a timeout; the main loop never waits.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gtk4::gio;
use gtk4::glib::prelude::*;
use gtk4::glib::{self, Variant, VariantTy};

use super::{clean, PowerProfileCommand, PowerProfiles, Profile};
use crate::events::source::{OnChange, Watch};

/// (bus name, object path, interface), the preferred first.
const SERVICES: [(&str, &str, &str); 2] = [
    (
        "org.freedesktop.UPower.PowerProfiles",
        "/org/freedesktop/UPower/PowerProfiles",
        "org.freedesktop.UPower.PowerProfiles",
    ),
    (
        "net.hadess.PowerProfiles",
        "/net/hadess/PowerProfiles",
        "net.hadess.PowerProfiles",
    ),
];
const PROPERTIES: &str = "org.freedesktop.DBus.Properties";
const CALL_TIMEOUT_MS: i32 = 3_000;
/// More profiles than this are not read.
const MAX_PROFILES: usize = 16;

struct Inner {
    connection: Option<gio::DBusConnection>,
    /// Which of [`SERVICES`] has an owner now.
    present: [bool; 2],
    /// Which of them the bus has answered for: absence is told once both are known.
    known: [bool; 2],
    state: Option<PowerProfiles>,
    signals: Vec<gio::SignalSubscription>,
    unwatch: Vec<Box<dyn FnOnce()>>,
    absence_logged: bool,
    queued: Cell<bool>,
    on_change: OnChange<PowerProfiles>,
}

impl Inner {
    /// The service the state comes from: the preferred one that is there.
    fn service(&self) -> Option<(&'static str, &'static str, &'static str)> {
        (0..SERVICES.len())
            .find(|&i| self.present[i])
            .map(|i| SERVICES[i])
    }
}

/// Follows power-profiles-daemon; dropping it stops.
pub struct PowerProfilesWatch {
    inner: Rc<RefCell<Inner>>,
}

impl Watch<PowerProfiles> for PowerProfilesWatch {
    fn start(on_change: OnChange<PowerProfiles>) -> Option<PowerProfilesWatch> {
        let inner = Rc::new(RefCell::new(Inner {
            connection: None,
            present: [false; 2],
            known: [false; 2],
            state: None,
            signals: Vec::new(),
            unwatch: Vec::new(),
            absence_logged: false,
            queued: Cell::new(false),
            on_change,
        }));
        crate::events::bus_watch::connect(
            crate::events::bus_watch::Bus::System,
            "power profiles",
            &inner,
            connected,
            |inner| (inner.borrow().on_change)(None),
        );
        Some(PowerProfilesWatch { inner })
    }

    /// Carries out a click's command.
    fn command(&self, &command: &PowerProfileCommand) {
        let inner = self.inner.borrow();
        let (Some(connection), Some(state), Some((name, path, interface))) =
            (&inner.connection, &inner.state, inner.service())
        else {
            return;
        };
        let PowerProfileCommand::Cycle = command;
        let Some(next) = state.next() else {
            return;
        };
        // The tuple boxes the value as the `v` that Set takes.
        let args = (interface, "ActiveProfile", next.to_variant()).to_variant();
        let wanted = next.to_owned();
        connection.call(
            Some(name),
            path,
            PROPERTIES,
            "Set",
            Some(&args),
            None,
            gio::DBusCallFlags::NONE,
            CALL_TIMEOUT_MS,
            None::<&gio::Cancellable>,
            move |result| {
                if let Err(err) = result {
                    tracing::warn!(
                        "power profiles: cannot switch to {wanted}: {}",
                        err.message()
                    );
                }
            },
        );
    }
}

impl Drop for PowerProfilesWatch {
    fn drop(&mut self) {
        let mut inner = self.inner.borrow_mut();
        inner.signals.clear();
        for unwatch in inner.unwatch.drain(..) {
            unwatch();
        }
    }
}

fn connected(inner_rc: &Rc<RefCell<Inner>>, connection: gio::DBusConnection) {
    let weak = Rc::downgrade(inner_rc);
    let mut unwatch: Vec<Box<dyn FnOnce()>> = Vec::new();
    let mut signals = Vec::new();
    for (index, (name, path, _)) in SERVICES.iter().enumerate() {
        let (appeared, vanished) = (weak.clone(), weak.clone());
        let watcher = gio::bus_watch_name_on_connection(
            &connection,
            name,
            gio::BusNameWatcherFlags::NONE,
            move |_, _, _| owner_changed(&appeared, index, true),
            move |_, _| owner_changed(&vanished, index, false),
        );
        unwatch.push(Box::new(move || gio::bus_unwatch_name(watcher)));
        let on_signal = weak.clone();
        signals.push(connection.subscribe_to_signal(
            Some(name),
            Some(PROPERTIES),
            Some("PropertiesChanged"),
            Some(path),
            None,
            gio::DBusSignalFlags::NONE,
            move |signal| properties_changed(&on_signal, index, signal.parameters),
        ));
    }
    let mut inner = inner_rc.borrow_mut();
    inner.connection = Some(connection);
    inner.unwatch = unwatch;
    inner.signals = signals;
}

/// A name got or lost its owner: read the service now in use, or say it is gone.
fn owner_changed(weak: &Weak<RefCell<Inner>>, index: usize, present: bool) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let (service, all_known) = {
        let mut inner = inner_rc.borrow_mut();
        inner.present[index] = present;
        inner.known[index] = true;
        (inner.service(), inner.known.iter().all(|&k| k))
    };
    match service {
        Some(service) => read_all(&inner_rc, service),
        // The other name may still appear: wait for the bus's word on it.
        None if !all_known => {}
        None => {
            {
                let mut inner = inner_rc.borrow_mut();
                if !inner.absence_logged {
                    tracing::info!(
                        "power profiles: power-profiles-daemon is not on the system bus; hidden"
                    );
                    inner.absence_logged = true;
                }
                inner.state = None;
            }
            queue_change(&inner_rc);
        }
    }
}

fn read_all(inner_rc: &Rc<RefCell<Inner>>, (name, path, interface): (&str, &str, &str)) {
    let Some(connection) = inner_rc.borrow().connection.clone() else {
        return;
    };
    let weak = Rc::downgrade(inner_rc);
    connection.call(
        Some(name),
        path,
        PROPERTIES,
        "GetAll",
        Some(&(interface,).to_variant()),
        VariantTy::new("(a{sv})").ok(),
        gio::DBusCallFlags::NONE,
        CALL_TIMEOUT_MS,
        None::<&gio::Cancellable>,
        move |result| {
            let Some(inner_rc) = weak.upgrade() else {
                return;
            };
            let reply = match result {
                Ok(reply) => reply,
                Err(err) => {
                    tracing::warn!("power profiles: no answer to GetAll: {}", err.message());
                    return;
                }
            };
            let mut state = PowerProfiles::default();
            apply(&mut state, &reply.child_value(0));
            {
                let mut inner = inner_rc.borrow_mut();
                if inner.absence_logged {
                    tracing::info!("power profiles: power-profiles-daemon is back");
                }
                inner.absence_logged = false;
                inner.state = Some(state);
            }
            queue_change(&inner_rc);
        },
    );
}

/// `PropertiesChanged` of the service in use onto the state.
fn properties_changed(weak: &Weak<RefCell<Inner>>, index: usize, args: &Variant) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    if args.type_().as_str() != "(sa{sv}as)" {
        return;
    }
    let changed = {
        let mut inner = inner_rc.borrow_mut();
        let in_use = inner.service().map(|s| s.0) == Some(SERVICES[index].0);
        let Some(state) = inner.state.as_mut().filter(|_| in_use) else {
            return;
        };
        let before = state.clone();
        apply(state, &args.child_value(1));
        *state != before
    };
    if changed {
        queue_change(&inner_rc);
    }
}

/// The properties the module shows, from an `a{sv}`; others are skipped.
fn apply(state: &mut PowerProfiles, dict: &Variant) {
    for (name, value) in crate::events::bus_watch::properties(dict, 64) {
        match (name.as_str(), value.str()) {
            ("ActiveProfile", Some(active)) => state.active = clean(active),
            ("PerformanceDegraded", Some(reason)) => state.degraded = clean(reason),
            ("Profiles", _) => state.profiles = profiles(&value),
            _ => {}
        }
    }
}

/// `Profiles`: `aa{sv}`, each with `Profile` and `Driver` (strings).
fn profiles(list: &Variant) -> Vec<Profile> {
    if !VariantTy::new("aa{sv}").is_ok_and(|ty| list.is_type(ty)) {
        return Vec::new();
    }
    (0..list.n_children().min(MAX_PROFILES))
        .filter_map(|i| {
            let dict = glib::VariantDict::new(Some(&list.child_value(i)));
            let text = |key: &str| dict.lookup::<String>(key).ok().flatten().map(|s| clean(&s));
            Some(Profile {
                name: text("Profile")?,
                driver: text("Driver").unwrap_or_default(),
            })
        })
        .collect()
}

/// One call of `on_change` per burst, on the next turn of the main loop.
fn queue_change(inner_rc: &Rc<RefCell<Inner>>) {
    let inner = inner_rc.borrow();
    if inner.queued.replace(true) {
        return;
    }
    let weak = Rc::downgrade(inner_rc);
    glib::idle_add_local_once(move || {
        if let Some(inner) = weak.upgrade() {
            let inner = inner.borrow();
            inner.queued.set(false);
            (inner.on_change)(inner.state.as_ref());
        }
    });
}
