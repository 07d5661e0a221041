//! Bluetooth as BlueZ tells it on the system bus: its `org.freedesktop.DBus.ObjectManager`
//! lists adapters (`org.bluez.Adapter1`), devices (`org.bluez.Device1`) and their
//! batteries (`org.bluez.Battery1`), and signals their changes ([`bluez`] follows them on
//! the main loop). The state is core: it takes plain property values, not D-Bus ones.

#[cfg(feature = "app")]
pub mod bluez;
#[cfg(test)]
mod tests;

pub const ADAPTER: &str = "org.bluez.Adapter1";
pub const DEVICE: &str = "org.bluez.Device1";
pub const BATTERY: &str = "org.bluez.Battery1";

/// Names and aliases longer than this (bytes) are cut: a device names itself.
const MAX_NAME: usize = 64;

/// A property value of the kinds these interfaces use.
#[derive(Clone, Debug, PartialEq)]
pub enum Property {
    Bool(bool),
    Byte(u8),
    Text(String),
    /// An object path (a device's `Adapter`).
    Path(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Adapter {
    /// `/org/bluez/hci0`.
    pub path: String,
    pub alias: String,
    /// `00:1A:7D:DA:71:13`.
    pub address: String,
    pub powered: bool,
    /// Blocked by rfkill (BlueZ's `PowerState` is `off-blocked`, since 5.66).
    pub blocked: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Device {
    /// `/org/bluez/hci0/dev_00_11_22_33_44_55`.
    pub path: String,
    /// The adapter it belongs to.
    pub adapter: String,
    pub alias: String,
    pub address: String,
    pub connected: bool,
    /// Battery1's `Percentage`, where the device reports one.
    pub battery: Option<u8>,
}

/// The adapters and devices, in the order BlueZ announced them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BluetoothState {
    pub adapters: Vec<Adapter>,
    pub devices: Vec<Device>,
}

/// What a click asks of BlueZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BluetoothCommand {
    /// Powers the shown adapter on, or off.
    TogglePower,
}

/// Control characters out and the length bounded: a name as a device sent it.
fn clean(text: &str) -> String {
    let mut out: String = text
        .chars()
        .filter(|&c| !c.is_control() && !crate::text::is_deceptive(c))
        .collect();
    if out.len() > MAX_NAME {
        let mut end = MAX_NAME;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}

impl BluetoothState {
    /// The adapter the module shows: the first powered one, else the first.
    pub fn adapter(&self) -> Option<&Adapter> {
        self.adapters
            .iter()
            .find(|a| a.powered)
            .or(self.adapters.first())
    }

    /// The connected devices of `adapter`.
    pub fn connected<'a>(&'a self, adapter: &'a Adapter) -> impl Iterator<Item = &'a Device> {
        self.devices
            .iter()
            .filter(move |d| d.connected && d.adapter == adapter.path)
    }

    /// An object appeared with `interface`, or its properties changed: applies
    /// `properties` (name, value) to it, making it if it is new.
    pub fn update(&mut self, path: &str, interface: &str, properties: &[(String, Property)]) {
        match interface {
            ADAPTER => {
                let adapter = match self.adapters.iter().position(|a| a.path == path) {
                    Some(at) => &mut self.adapters[at],
                    None => {
                        self.adapters.push(Adapter {
                            path: path.to_owned(),
                            ..Adapter::default()
                        });
                        self.adapters.last_mut().expect("just pushed")
                    }
                };
                for (name, value) in properties {
                    match (name.as_str(), value) {
                        ("Powered", Property::Bool(on)) => adapter.powered = *on,
                        ("Alias", Property::Text(alias)) => adapter.alias = clean(alias),
                        ("Address", Property::Text(address)) => adapter.address = clean(address),
                        ("PowerState", Property::Text(state)) => {
                            adapter.blocked = state == "off-blocked";
                        }
                        _ => {}
                    }
                }
            }
            DEVICE | BATTERY => {
                let device = self.device_mut(path);
                for (name, value) in properties {
                    match (name.as_str(), value) {
                        ("Connected", Property::Bool(on)) => device.connected = *on,
                        ("Alias", Property::Text(alias)) => device.alias = clean(alias),
                        ("Address", Property::Text(address)) => device.address = clean(address),
                        ("Adapter", Property::Path(adapter)) => device.adapter = adapter.clone(),
                        ("Percentage", Property::Byte(percent)) => {
                            device.battery = Some((*percent).min(100));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    fn device_mut(&mut self, path: &str) -> &mut Device {
        match self.devices.iter().position(|d| d.path == path) {
            Some(at) => &mut self.devices[at],
            None => {
                // A device's adapter is its path's parent, whatever comes first.
                let adapter = path.rsplit_once('/').map_or("", |(parent, _)| parent);
                self.devices.push(Device {
                    path: path.to_owned(),
                    adapter: adapter.to_owned(),
                    ..Device::default()
                });
                self.devices.last_mut().expect("just pushed")
            }
        }
    }

    /// `interfaces` of the object at `path` went away (InterfacesRemoved).
    pub fn remove(&mut self, path: &str, interfaces: &[String]) {
        for interface in interfaces {
            match interface.as_str() {
                ADAPTER => {
                    self.adapters.retain(|a| a.path != path);
                    let prefix = format!("{path}/");
                    self.devices.retain(|d| !d.path.starts_with(&prefix));
                }
                DEVICE => self.devices.retain(|d| d.path != path),
                BATTERY => {
                    if let Some(device) = self.devices.iter_mut().find(|d| d.path == path) {
                        device.battery = None;
                    }
                }
                _ => {}
            }
        }
    }
}

impl super::EventState for BluetoothState {
    const KEY: &'static str = "Bluetooth";
    type Command = BluetoothCommand;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = bluez::BluetoothWatch;
}
