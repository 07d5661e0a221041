//! `bluetooth`: the adapter's power and the connected devices, `BT off`, `BT on`, `BT
//! Buds` (the first connected device); classes `off`, `on`, `connected`, and `disabled`
//! while rfkill blocks the adapter. Hidden without
//! an adapter, and while BlueZ is not running. A left click powers the adapter on or off,
//! unless `on-click` is set. Its tooltip lists the connected devices with their battery,
//! or is the user's `tooltip-format` (by status, as Waybar's), whose `{device_enumerate}`
//! lists them in `tooltip-format-enumerate-connected`.
//! The state comes from BlueZ's events (`crate::events::bluetooth`).

mod settings;
#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::bluetooth::{Adapter, BluetoothCommand, BluetoothState, Device};
use crate::render::header;
use crate::text::MarkupBuffer;
use crate::text::{untrusted, Sink};
pub use settings::KEYS;
use settings::{Settings, SETTINGS, TOOLTIP_KEYS};

struct Bluetooth {
    settings: Settings,
    /// The user's tooltip as it is filled, kept so that drawing it allocates nothing.
    tooltip_text: MarkupBuffer,
}

/// The `bluetooth` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "bluetooth",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        // The widest: each format is checked against its own when the config is read.
        fields: &TOOLTIP_KEYS,
        ..Waybar::named(&["bluetooth"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Bluetooth {
        settings,
        tooltip_text: MarkupBuffer::default(),
    }))
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
            _ if adapter.blocked => "disabled",
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
    /// Appends the label's field `key` (or one of the tooltip's addresses); `false` for
    /// one it does not fill.
    fn field(&self, key: &str, out: &mut String, shown: &Shown<'_>) -> bool {
        let battery = shown.first.and_then(|d| d.battery);
        match key {
            "controller_address" => out.push_str(&shown.adapter.address),
            "device_address" => {
                if let Some(device) = shown.first {
                    write_address(out, device);
                }
            }
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
            "icon" => {
                let icons = self.settings.format_icons.as_ref();
                let status = Some(shown.status);
                out.push_str(icons.map_or("", |i| i.icon(battery.map(f64::from), status)));
            }
            _ => return false,
        }
        true
    }

    /// The user's tooltip for what is shown, if they set one.
    fn tooltip_format(&self, shown: &Shown<'_>) -> Option<&str> {
        let s = &self.settings;
        let own = match shown.status {
            "off" => &s.tooltip_format_off,
            "disabled" => &s.tooltip_format_disabled,
            "on" => &s.tooltip_format_on,
            _ if shown.first.is_some_and(|d| d.battery.is_some()) => {
                match &s.tooltip_format_connected_battery {
                    Some(_) => &s.tooltip_format_connected_battery,
                    None => &s.tooltip_format_connected,
                }
            }
            _ => &s.tooltip_format_connected,
        };
        own.as_deref().or(s.tooltip_format.as_deref())
    }

    /// `{device_enumerate}`: each connected device in its format, one per line.
    fn enumerate(&self, out: &mut String, state: &BluetoothState, adapter: &Adapter) {
        let s = &self.settings;
        for (n, device) in state.connected(adapter).enumerate() {
            if n > 0 {
                out.push('\n');
            }
            let plain = s.tooltip_format_enumerate_connected.as_deref();
            let with_battery = s.tooltip_format_enumerate_connected_battery.as_deref();
            let format = match device.battery {
                Some(_) => with_battery.or(plain),
                None => plain,
            };
            format::fill_escaped(format.unwrap_or("{device_alias}"), out, &[], |key, out| {
                match key {
                    "device_alias" => out.push_str(&device.alias),
                    "device_address" => write_address(out, device),
                    "device_battery_percentage" => {
                        if let Some(percent) = device.battery {
                            let _ = write!(out, "{percent}");
                        }
                    }
                    _ => return false,
                }
                true
            });
        }
    }

    fn format(&self, shown: &Shown<'_>) -> &str {
        let s = &self.settings;
        match shown.status {
            "off" => s.format_off.as_deref().unwrap_or(&s.format),
            "disabled" => s.format_disabled.as_deref().unwrap_or(&s.format),
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

/// The device's `Address`; before BlueZ has sent it, the one in its object path
/// (`/org/bluez/hci0/dev_00_11_22_33_44_55`).
fn write_address(out: &mut String, device: &Device) {
    if !device.address.is_empty() {
        out.push_str(&device.address);
        return;
    }
    let name = device.path.rsplit('/').next().unwrap_or("");
    let address = name.strip_prefix("dev_").unwrap_or(name);
    out.extend(address.chars().map(|c| if c == '_' { ':' } else { c }));
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
        format::fill(self.format(&shown), out, |key, out| {
            self.field(key, out, &shown)
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
        let Some(shown) = Shown::of(state).filter(|_| self.settings.tooltip) else {
            return;
        };
        if let Some(format) = self.tooltip_format(&shown) {
            // `{device_enumerate}`'s lines are markup already, their values escaped.
            let markup = ["device_enumerate"];
            self.tooltip_text.write(sink, |text| {
                format::fill_escaped(format, text, &markup, |key, out| match key {
                    "device_enumerate" => {
                        self.enumerate(out, state, shown.adapter);
                        true
                    }
                    key => self.field(key, out, &shown),
                });
            });
            return;
        }
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
