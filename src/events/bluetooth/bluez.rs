//! BlueZ on the system bus, through gio's asynchronous D-Bus on the main loop: the
//! adapters, devices and batteries from `GetManagedObjects`, then kept up to date from
//! `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`. While `org.bluez` has
//! no owner the state is `None` (said once); when bluetoothd starts again it is read
//! afresh. Every call has a timeout; the main loop never waits.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gtk4::gio;
use gtk4::glib::prelude::*;
use gtk4::glib::{self, Variant, VariantTy};

use super::{BluetoothCommand, BluetoothState, Property, ADAPTER};
use crate::events::source::{OnChange, Watch};

const BLUEZ: &str = "org.bluez";
const OBJECT_MANAGER: &str = "org.freedesktop.DBus.ObjectManager";
const PROPERTIES: &str = "org.freedesktop.DBus.Properties";
/// A bluetoothd that does not answer this fast is not waited for.
const CALL_TIMEOUT_MS: i32 = 3_000;
/// More objects or properties than this in one answer are not read.
const MAX_ENTRIES: usize = 1024;

struct Inner {
    connection: Option<gio::DBusConnection>,
    /// `None` while BlueZ is not there.
    state: Option<BluetoothState>,
    signals: Vec<gio::SignalSubscription>,
    /// Stops watching `org.bluez`'s owner (gio's watcher id has no public name).
    unwatch: Option<Box<dyn FnOnce()>>,
    /// "BlueZ is not there" was said, and not since it came.
    absence_logged: bool,
    /// A change is queued for the next turn of the main loop (signals come in bursts).
    queued: Cell<bool>,
    on_change: OnChange<BluetoothState>,
}

/// Follows BlueZ; dropping it stops.
pub struct BluetoothWatch {
    inner: Rc<RefCell<Inner>>,
}

impl Watch<BluetoothState> for BluetoothWatch {
    fn start(on_change: OnChange<BluetoothState>) -> Option<BluetoothWatch> {
        let inner = Rc::new(RefCell::new(Inner {
            connection: None,
            state: None,
            signals: Vec::new(),
            unwatch: None,
            absence_logged: false,
            queued: Cell::new(false),
            on_change,
        }));
        crate::events::bus_watch::connect(
            crate::events::bus_watch::Bus::System,
            "bluetooth",
            &inner,
            connected,
            |inner| (inner.borrow().on_change)(None),
        );
        Some(BluetoothWatch { inner })
    }

    /// Carries out a click's command.
    fn command(&self, &command: &BluetoothCommand) {
        let inner = self.inner.borrow();
        let (Some(connection), Some(state)) = (&inner.connection, &inner.state) else {
            return;
        };
        let Some(adapter) = state.adapter() else {
            return;
        };
        match command {
            BluetoothCommand::TogglePower => {
                // The tuple boxes the value as the `v` that Set takes.
                let args = (ADAPTER, "Powered", (!adapter.powered).to_variant()).to_variant();
                let path = adapter.path.clone();
                connection.call(
                    Some(BLUEZ),
                    &adapter.path,
                    PROPERTIES,
                    "Set",
                    Some(&args),
                    None,
                    gio::DBusCallFlags::NONE,
                    CALL_TIMEOUT_MS,
                    None::<&gio::Cancellable>,
                    move |result| {
                        if let Err(err) = result {
                            tracing::warn!("bluetooth: cannot power {path}: {}", err.message());
                        }
                    },
                );
            }
        }
    }
}

impl Drop for BluetoothWatch {
    fn drop(&mut self) {
        let mut inner = self.inner.borrow_mut();
        inner.signals.clear();
        if let Some(unwatch) = inner.unwatch.take() {
            unwatch();
        }
    }
}

fn connected(inner_rc: &Rc<RefCell<Inner>>, connection: gio::DBusConnection) {
    let weak = Rc::downgrade(inner_rc);
    let (appeared, vanished) = (weak.clone(), weak.clone());
    let watcher = gio::bus_watch_name_on_connection(
        &connection,
        BLUEZ,
        gio::BusNameWatcherFlags::NONE,
        move |connection, _, _| {
            if let Some(inner) = appeared.upgrade() {
                read_all(&inner, &connection);
            }
        },
        move |_, _| {
            if let Some(inner) = vanished.upgrade() {
                gone(&inner);
            }
        },
    );
    let signals = subscribe(&connection, &weak);
    let mut inner = inner_rc.borrow_mut();
    inner.unwatch = Some(Box::new(move || gio::bus_unwatch_name(watcher)));
    inner.signals = signals;
    inner.connection = Some(connection);
}

/// BlueZ has no owner (not started, or it stopped): no state, logged once, and told
/// (also at the start, so that `--once` need not wait for it).
fn gone(inner_rc: &Rc<RefCell<Inner>>) {
    {
        let mut inner = inner_rc.borrow_mut();
        if !inner.absence_logged {
            // Info: a machine without Bluetooth is no fault.
            tracing::info!("bluetooth: BlueZ (org.bluez) is not on the system bus; hidden");
            inner.absence_logged = true;
        }
        inner.state = None;
    }
    (inner_rc.borrow().on_change)(None);
}

/// The whole state, from `GetManagedObjects`.
fn read_all(inner_rc: &Rc<RefCell<Inner>>, connection: &gio::DBusConnection) {
    let weak = Rc::downgrade(inner_rc);
    connection.call(
        Some(BLUEZ),
        "/",
        OBJECT_MANAGER,
        "GetManagedObjects",
        None,
        VariantTy::new("(a{oa{sa{sv}}})").ok(),
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
                    tracing::warn!(
                        "bluetooth: BlueZ did not list its objects: {}",
                        err.message()
                    );
                    return;
                }
            };
            let mut state = BluetoothState::default();
            let objects = reply.child_value(0);
            for object in children(&objects) {
                let path = object.child_value(0);
                let Some(path) = path.str() else {
                    continue;
                };
                for interface in children(&object.child_value(1)) {
                    apply(&mut state, path, &interface);
                }
            }
            {
                let mut inner = inner_rc.borrow_mut();
                if inner.absence_logged {
                    tracing::info!("bluetooth: BlueZ is back");
                }
                inner.absence_logged = false;
                inner.state = Some(state);
            }
            queue_change(&inner_rc);
        },
    );
}

/// The children of a container, at most [`MAX_ENTRIES`].
fn children(container: &Variant) -> impl Iterator<Item = Variant> + '_ {
    let count = match container.is_container() {
        true => container.n_children().min(MAX_ENTRIES),
        false => 0,
    };
    (0..count).map(|i| container.child_value(i))
}

/// One `{s a{sv}}` entry (an interface and its properties) onto the object at `path`.
fn apply(state: &mut BluetoothState, path: &str, entry: &Variant) {
    let Some(interface) = entry.child_value(0).str().map(str::to_owned) else {
        return;
    };
    let properties = properties(&entry.child_value(1));
    state.update(path, &interface, &properties);
}

/// `a{sv}` as (name, value) for the kinds the state reads; the rest is skipped.
fn properties(dict: &Variant) -> Vec<(String, Property)> {
    let is_dict = VariantTy::new("a{sv}").is_ok_and(|ty| dict.is_type(ty));
    if !is_dict {
        return Vec::new();
    }
    children(dict)
        .filter_map(|entry| {
            let name = entry.child_value(0).str()?.to_owned();
            let value = entry.child_value(1).as_variant()?;
            let property = match value.type_().as_str() {
                "b" => Property::Bool(value.get::<bool>()?),
                "y" => Property::Byte(value.get::<u8>()?),
                "s" => Property::Text(value.str()?.to_owned()),
                "o" => Property::Path(value.str()?.to_owned()),
                _ => return None,
            };
            Some((name, property))
        })
        .collect()
}

/// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged` of BlueZ's objects.
fn subscribe(
    connection: &gio::DBusConnection,
    weak: &Weak<RefCell<Inner>>,
) -> Vec<gio::SignalSubscription> {
    let on = |interface: &str, member: &str, weak: Weak<RefCell<Inner>>| {
        let member_name = member.to_owned();
        connection.subscribe_to_signal(
            Some(BLUEZ),
            Some(interface),
            Some(member),
            None,
            None,
            gio::DBusSignalFlags::NONE,
            move |signal| {
                let Some(inner) = weak.upgrade() else {
                    return;
                };
                let changed = {
                    let mut inner = inner.borrow_mut();
                    let Some(state) = inner.state.as_mut() else {
                        return;
                    };
                    on_signal(state, &member_name, signal.object_path, signal.parameters)
                };
                if changed {
                    queue_change(&inner);
                }
            },
        )
    };
    vec![
        on(OBJECT_MANAGER, "InterfacesAdded", weak.clone()),
        on(OBJECT_MANAGER, "InterfacesRemoved", weak.clone()),
        on(PROPERTIES, "PropertiesChanged", weak.clone()),
    ]
}

/// A signal onto the state; whether it changed it.
fn on_signal(state: &mut BluetoothState, member: &str, path: &str, args: &Variant) -> bool {
    let before = state.clone();
    match member {
        "InterfacesAdded" if args.type_().as_str() == "(oa{sa{sv}})" => {
            let object = args.child_value(0);
            if let Some(object) = object.str() {
                for entry in children(&args.child_value(1)) {
                    apply(state, object, &entry);
                }
            }
        }
        "InterfacesRemoved" if args.type_().as_str() == "(oas)" => {
            let object = args.child_value(0);
            let interfaces: Vec<String> = children(&args.child_value(1))
                .filter_map(|i| i.str().map(str::to_owned))
                .collect();
            if let Some(object) = object.str() {
                state.remove(object, &interfaces);
            }
        }
        "PropertiesChanged" if args.type_().as_str() == "(sa{sv}as)" => {
            if let Some(interface) = args.child_value(0).str() {
                // Only what BlueZ already announced: a stray signal makes no object.
                let known = state.adapters.iter().any(|a| a.path == path)
                    || state.devices.iter().any(|d| d.path == path);
                if known {
                    state.update(path, interface, &properties(&args.child_value(1)));
                }
            }
        }
        _ => {}
    }
    *state != before
}

/// One call of `on_change` per burst of signals, on the next turn of the main loop.
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
