//! upowerd on the system bus: its devices, listed with `EnumerateDevices` when it
//! appears and followed through `DeviceAdded`, `DeviceRemoved` and each device's
//! `PropertiesChanged`; a device's properties are read with `GetAll` once it is listed.

use gtk4::glib::Variant;

use super::devices::{Power, Value, MAX_DEVICES};
use crate::events::bus_watch::{properties, Bus, BusService, Call, Signal, PROPERTIES};

const NAME: &str = "org.freedesktop.UPower";
const PATH: &str = "/org/freedesktop/UPower";
const DEVICE: &str = "org.freedesktop.UPower.Device";

/// Properties read of one device at most (UPower has about 30).
const MAX_PROPERTIES: usize = 64;

/// upowerd, as a `BusWatch` follows it.
pub struct Upowerd;

impl BusService for Upowerd {
    type State = Power;
    const BUS: Bus = Bus::System;
    const LOG: &'static str = "upower";
    const SERVICE: &'static str = "UPower";
    const ABSENT: &'static str = "UPower (org.freedesktop.UPower)";
    const NAMES: &'static [&'static str] = &[NAME];
    const OBJECT_INTERFACE: &'static str = DEVICE;

    fn read_call(_: usize) -> Call {
        Call {
            path: PATH,
            interface: NAME,
            method: "EnumerateDevices",
            args: None,
            reply: "(ao)",
        }
    }

    fn parse(_: usize, reply: &Variant) -> Power {
        let listed = reply.child_value(0);
        let paths: Vec<String> = (listed.iter().take(MAX_DEVICES))
            .filter_map(|path| path.str().map(str::to_owned))
            .collect();
        Power::listed(paths.iter().map(String::as_str))
    }

    fn signals(_: usize) -> &'static [Signal] {
        &[
            Signal {
                interface: NAME,
                member: "DeviceAdded",
                path: Some(PATH),
            },
            Signal {
                interface: NAME,
                member: "DeviceRemoved",
                path: Some(PATH),
            },
            Signal {
                interface: PROPERTIES,
                member: "PropertiesChanged",
                path: None,
            },
        ]
    }

    fn on_signal(state: &mut Power, member: &str, path: &str, args: &Variant) -> bool {
        let device_path = || match args.type_().as_str() {
            "(o)" => args.child_value(0).str().map(str::to_owned),
            _ => None,
        };
        match member {
            "DeviceAdded" => device_path().is_some_and(|device| state.add(&device)),
            "DeviceRemoved" => device_path().is_some_and(|device| state.remove(&device)),
            "PropertiesChanged" if args.type_().as_str() == "(sa{sv}as)" => {
                if args.child_value(0).str() != Some(DEVICE) {
                    return false;
                }
                // A device not read yet gets all its properties from its read.
                let Some(device) = state.device_mut(path).filter(|d| d.read) else {
                    return false;
                };
                let before = device.clone();
                apply(device, &args.child_value(1));
                *device != before
            }
            _ => false,
        }
    }

    fn unread(state: &Power) -> Vec<String> {
        state.unread()
    }

    fn read_object(state: &mut Power, path: &str, properties: Option<&Variant>) -> bool {
        match properties {
            Some(properties) => {
                let Some(device) = state.device_mut(path) else {
                    return false;
                };
                apply(device, properties);
                device.read = true;
                true
            }
            None => state.remove(path),
        }
    }
}

/// A property dict (`a{sv}`) onto a device.
fn apply(device: &mut super::devices::Device, dict: &Variant) {
    for (name, value) in properties(dict, MAX_PROPERTIES) {
        let value = match value.type_().as_str() {
            "s" => value.str().map(Value::Text),
            "u" => value.get::<u32>().map(Value::Unsigned),
            "x" => value.get::<i64>().map(Value::Signed),
            "d" => value.get::<f64>().map(Value::Float),
            "b" => value.get::<bool>().map(Value::Bool),
            _ => None,
        };
        if let Some(value) = value {
            device.apply(&name, value);
        }
    }
}
