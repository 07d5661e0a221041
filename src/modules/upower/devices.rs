//! What UPower says, this module's event source: its devices (`org.freedesktop.UPower.Device`
//! objects: the laptop's batteries, a mouse's, a headset's, and the display device that
//! sums the laptop's), each with the properties the module shows.

use std::sync::Arc;

/// The object that sums the batteries that power the machine.
pub const DISPLAY_DEVICE: &str = "/org/freedesktop/UPower/devices/DisplayDevice";

/// Devices kept at most: a service that lists more is not followed past them.
pub const MAX_DEVICES: usize = 64;

/// Characters kept of a model or a native path.
const TEXT_CHARS: usize = 128;

/// UPower's devices, the display device first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Power {
    pub devices: Vec<Device>,
}

/// One of UPower's devices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Device {
    /// Its object path.
    pub path: String,
    /// Its properties were read (`GetAll`); until then the rest is empty.
    pub read: bool,
    /// The kernel's name of it (`BAT0`, `hidpp_battery_0`).
    pub native_path: String,
    pub model: String,
    /// UPower's `Type`: 2 a battery, 5 a mouse…
    pub kind: u32,
    /// UPower's `State`: 1 charging, 2 discharging…
    pub state: u32,
    /// 0–100.
    pub percentage: f64,
    /// Seconds; 0 when unknown.
    pub time_to_empty: i64,
    pub time_to_full: i64,
    /// °C; 0 when unknown.
    pub temperature: f64,
    pub is_present: bool,
    /// UPower's icon for its state (`battery-good-symbolic`); empty unless a theme's
    /// icon name.
    pub icon_name: Arc<str>,
}

/// A property's value, as D-Bus gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<'a> {
    Text(&'a str),
    Unsigned(u32),
    Signed(i64),
    Float(f64),
    Bool(bool),
}

impl Device {
    /// One property onto the device; one of another type or unknown is left aside.
    pub fn apply(&mut self, name: &str, value: Value<'_>) {
        match (name, value) {
            ("NativePath", Value::Text(text)) => self.native_path = shown(text),
            ("Model", Value::Text(text)) => self.model = shown(text),
            ("Type", Value::Unsigned(kind)) => self.kind = kind,
            ("State", Value::Unsigned(state)) => self.state = state,
            ("Percentage", Value::Float(p)) if p.is_finite() => {
                self.percentage = p.clamp(0.0, 100.0)
            }
            ("TimeToEmpty", Value::Signed(s)) => self.time_to_empty = s.max(0),
            ("TimeToFull", Value::Signed(s)) => self.time_to_full = s.max(0),
            ("Temperature", Value::Float(t)) if t.is_finite() => self.temperature = t,
            ("IsPresent", Value::Bool(present)) => self.is_present = present,
            ("IconName", Value::Text(name)) if &*self.icon_name != name => {
                self.icon_name = Arc::from(if is_icon_name(name) { name } else { "" });
            }
            _ => {}
        }
    }

    /// A battery of some kind: not a power line, not a device UPower cannot name.
    pub fn is_battery(&self) -> bool {
        !matches!(self.kind, KIND_UNKNOWN | KIND_LINE_POWER)
    }

    /// The class of its state, as Waybar names it.
    pub fn status(&self) -> &'static str {
        match self.state {
            1 | 5 => "charging",
            2 | 6 => "discharging",
            4 => "full",
            3 => "empty",
            _ => "unknown-status",
        }
    }

    /// Seconds until empty while discharging, until full while charging; else 0.
    pub fn time_left(&self) -> i64 {
        match self.state {
            1 | 5 => self.time_to_full,
            2 | 6 => self.time_to_empty,
            _ => 0,
        }
    }

    /// What it is, for a tooltip line without a model.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            2 => "Battery",
            3 => "UPS",
            4 => "Monitor",
            5 => "Mouse",
            6 => "Keyboard",
            7 => "PDA",
            8 => "Phone",
            9 => "Media player",
            10 => "Tablet",
            11 => "Computer",
            12 => "Game controller",
            13 => "Pen",
            14 => "Touchpad",
            15 => "Modem",
            16 => "Network device",
            17 => "Headset",
            18 => "Speakers",
            19 => "Headphones",
            20 => "Video device",
            21 => "Audio device",
            22 => "Remote control",
            23 => "Printer",
            24 => "Scanner",
            25 => "Camera",
            26 => "Wearable",
            27 => "Toy",
            28 => "Bluetooth device",
            _ => "Device",
        }
    }
}

const KIND_UNKNOWN: u32 = 0;
const KIND_LINE_POWER: u32 = 1;

impl Power {
    /// The devices `EnumerateDevices` names (`paths`), with the display device, none read.
    pub fn listed<'a>(paths: impl Iterator<Item = &'a str>) -> Power {
        let mut power = Power::default();
        power.add(DISPLAY_DEVICE);
        for path in paths {
            power.add(path);
        }
        power
    }

    /// A device UPower added; whether it is new.
    pub fn add(&mut self, path: &str) -> bool {
        if self.devices.len() >= MAX_DEVICES || self.devices.iter().any(|d| d.path == path) {
            return false;
        }
        self.devices.push(Device {
            path: path.to_owned(),
            ..Device::default()
        });
        true
    }

    /// A device UPower removed (or one that could not be read); whether it was there.
    pub fn remove(&mut self, path: &str) -> bool {
        let before = self.devices.len();
        self.devices.retain(|d| d.path != path);
        self.devices.len() != before
    }

    pub fn device_mut(&mut self, path: &str) -> Option<&mut Device> {
        self.devices.iter_mut().find(|d| d.path == path)
    }

    /// The devices whose properties are still to be read.
    pub fn unread(&self) -> Vec<String> {
        let unread = self.devices.iter().filter(|d| !d.read);
        unread.map(|d| d.path.clone()).collect()
    }

    /// The device shown: the one with `native_path`, else with `model`, else the display
    /// device; only once read.
    pub fn chosen(&self, native_path: Option<&str>, model: Option<&str>) -> Option<&Device> {
        let read = || self.devices.iter().filter(|d| d.read);
        match (native_path, model) {
            (Some(native), _) => read().find(|d| d.native_path == native),
            (None, Some(model)) => read().find(|d| d.model == model),
            (None, None) => read().find(|d| d.path == DISPLAY_DEVICE),
        }
    }

    /// The batteries of the tooltip: every device read but the display device and power
    /// lines.
    pub fn batteries(&self) -> impl Iterator<Item = &Device> {
        let listed = self.devices.iter().filter(|d| d.path != DISPLAY_DEVICE);
        listed.filter(|d| d.read && d.is_battery())
    }
}

/// A name an icon theme can have: letters, digits, `-`, `_` and `.`, not too long.
fn is_icon_name(name: &str) -> bool {
    name.len() <= 128
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Untrusted text as it is kept: control characters as spaces, deceptive ones dropped, cut.
fn shown(text: &str) -> String {
    crate::text::shown(text, ' ').take(TEXT_CHARS).collect()
}
