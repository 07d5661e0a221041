//! `bluetooth`: the adapter's power and the connected devices, `BT off`, `BT on`, `BT
//! Buds` (the first connected device); classes `off`, `on`, `connected`. Hidden without
//! an adapter, and while BlueZ is not running. A left click powers the adapter on or off,
//! unless `on-click` is set. Its tooltip lists the connected devices with their battery.
//! The state comes from BlueZ's events (`crate::events::bluetooth`).

#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::bluetooth::{Adapter, BluetoothCommand, BluetoothState, Device};
use crate::render::header;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};

/// The keys the formats take, as Waybar names them.
pub const KEYS: [&str; 6] = [
    "status",
    "num_connections",
    "controller_alias",
    "device_alias",
    "device_battery_percentage",
    "icon",
];

/// The settings, as Waybar names them (`ringbar import-waybar` carries them over).
pub const SETTINGS: &[&str] = &[
    "format",
    "format-on",
    "format-off",
    "format-connected",
    "format-connected-battery",
    "format-icons",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked")]
    format: String,
    #[serde(rename = "format-on", deserialize_with = "checked_optional")]
    format_on: Option<String>,
    #[serde(rename = "format-off", deserialize_with = "checked_optional")]
    format_off: Option<String>,
    #[serde(rename = "format-connected", deserialize_with = "checked")]
    format_connected: String,
    #[serde(
        rename = "format-connected-battery",
        deserialize_with = "checked_optional"
    )]
    format_connected_battery: Option<String>,
    /// By the device's battery when one reports it, else by state (`off`, `on`,
    /// `connected`).
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "BT {status}".to_owned(),
            format_on: None,
            format_off: None,
            format_connected: "BT {device_alias}".to_owned(),
            format_connected_battery: None,
            format_icons: None,
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d).map(Some)
}

struct Bluetooth {
    settings: Settings,
}

/// The `bluetooth` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "bluetooth",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        fields: &KEYS,
        ..Waybar::named(&["bluetooth"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Bluetooth { settings }))
}

/// What the label shows now: the adapter, its state and its first connected device.
struct Shown<'a> {
    adapter: &'a Adapter,
    status: &'static str,
    first: Option<&'a Device>,
    connections: usize,
}

impl<'a> Shown<'a> {
    fn of(state: &'a BluetoothState) -> Option<Shown<'a>> {
        let adapter = state.adapter()?;
        let first = state.connected(adapter).next();
        let status = match (adapter.powered, first) {
            (false, _) => "off",
            (true, None) => "on",
            (true, Some(_)) => "connected",
        };
        Some(Shown {
            adapter,
            status,
            first,
            connections: state.connected(adapter).count(),
        })
    }
}

impl Bluetooth {
    fn format(&self, shown: &Shown<'_>) -> &str {
        let s = &self.settings;
        match shown.status {
            "off" => s.format_off.as_deref().unwrap_or(&s.format),
            "on" => s.format_on.as_deref().unwrap_or(&s.format),
            _ => match shown.first.and_then(|d| d.battery) {
                Some(_) => s
                    .format_connected_battery
                    .as_deref()
                    .unwrap_or(&s.format_connected),
                None => &s.format_connected,
            },
        }
    }
}

impl Module for Bluetooth {
    fn name(&self) -> &str {
        "bluetooth"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<BluetoothState>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let state = input.events.get::<BluetoothState>()?;
        let shown = Shown::of(state)?;
        let battery = shown.first.and_then(|d| d.battery);
        let icons = self.settings.format_icons.as_ref();
        let icon = icons.map_or("", |i| i.icon(battery.map(f64::from), Some(shown.status)));
        format::fill(self.format(&shown), out, |key, out| {
            match key {
                "status" => out.push_str(shown.status),
                "num_connections" => {
                    let _ = write!(out, "{}", shown.connections);
                }
                "controller_alias" => out.push_str(&shown.adapter.alias),
                "device_alias" => out.push_str(shown.first.map_or("", |d| &d.alias)),
                "device_battery_percentage" => {
                    if let Some(percent) = battery {
                        let _ = write!(out, "{percent}");
                    }
                }
                "icon" => out.push_str(icon),
                _ => return false,
            }
            true
        });
        Some(Status {
            class: Some(shown.status),
            percentage: battery.map(f64::from),
            ..Status::default()
        })
    }

    /// `Bluetooth  laptop · on`, then each connected device with its battery.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(state) = input.events.get::<BluetoothState>() else {
            return;
        };
        let Some(shown) = Shown::of(state) else {
            return;
        };
        header(sink, "Bluetooth");
        untrusted(sink, &shown.adapter.alias);
        let _ = writeln!(sink.out(), " · {}", shown.status);
        for device in state.connected(shown.adapter) {
            sink.out().push_str("  ");
            untrusted(sink, &device.alias);
            if let Some(percent) = device.battery {
                let _ = write!(sink.out(), " · battery {percent}%");
            }
            sink.out().push('\n');
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        match button {
            Button::Left => Some(Action::Command(SourceCommand::to::<BluetoothState>(
                BluetoothCommand::TogglePower,
            ))),
            _ => None,
        }
    }
}
