//! BlueZ on the system bus, through gio's asynchronous D-Bus on the main loop: the
//! adapters, devices and batteries from `GetManagedObjects`, then kept up to date from
//! `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`. While `org.bluez` has
//! no owner the state is `None` (said once); when bluetoothd starts again it is read
//! afresh. Every call has a timeout; the main loop never waits.

use gtk4::glib::prelude::*;
use gtk4::glib::{Variant, VariantTy};

use super::{BluetoothCommand, BluetoothState, Property, ADAPTER};
use crate::events::bus_watch::{Bus, BusService, BusWatch, Call, InUse, Signal, PROPERTIES};

const OBJECT_MANAGER: &str = "org.freedesktop.DBus.ObjectManager";
/// More objects or properties than this in one answer are not read.
const MAX_ENTRIES: usize = 1024;

/// Follows BlueZ; dropping it stops.
pub type BluetoothWatch = BusWatch<Bluez>;

/// BlueZ, as a [`BusWatch`] follows it.
pub struct Bluez;

impl BusService for Bluez {
    type State = BluetoothState;
    const BUS: Bus = Bus::System;
    const LOG: &'static str = "bluetooth";
    const SERVICE: &'static str = "BlueZ";
    const ABSENT: &'static str = "BlueZ (org.bluez)";
    const NAMES: &'static [&'static str] = &["org.bluez"];

    fn read_call(_: usize) -> Call {
        Call {
            path: "/",
            interface: OBJECT_MANAGER,
            method: "GetManagedObjects",
            args: None,
            reply: "(a{oa{sa{sv}}})",
        }
    }

    fn parse(_: usize, reply: &Variant) -> BluetoothState {
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
        state
    }

    fn signals(_: usize) -> &'static [Signal] {
        const SIGNALS: &[Signal] = &[
            Signal {
                interface: OBJECT_MANAGER,
                member: "InterfacesAdded",
                path: None,
            },
            Signal {
                interface: OBJECT_MANAGER,
                member: "InterfacesRemoved",
                path: None,
            },
            Signal {
                interface: PROPERTIES,
                member: "PropertiesChanged",
                path: None,
            },
        ];
        SIGNALS
    }

    fn on_signal(state: &mut BluetoothState, member: &str, path: &str, args: &Variant) -> bool {
        on_signal(state, member, path, args)
    }

    fn command(bluez: &InUse<'_>, state: &BluetoothState, command: &BluetoothCommand) {
        let Some(adapter) = state.adapter() else {
            return;
        };
        match command {
            BluetoothCommand::TogglePower => bluez.set(
                (&adapter.path, ADAPTER),
                "Powered",
                (!adapter.powered).to_variant(),
                format!("bluetooth: cannot power {}", adapter.path),
            ),
        }
    }
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
