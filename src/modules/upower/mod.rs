//! `upower`, as Waybar has it: a battery from UPower (the display device, which sums the
//! laptop's batteries, or the device with `native-path` or `model`), `{percentage}` by
//! default and `format-alt` after a left click, its class its state (`charging`,
//! `discharging`, `full`, `empty`, `unknown-status`). The tooltip lists every other
//! battery UPower knows: a mouse's, a headset's, a phone's. Hidden without upowerd, and
//! while the device shown is no battery unless `hide-if-empty = false`. As in Waybar,
//! UPower's icon for the device's state is drawn before the text (`show-icon`,
//! `icon-size`).

#[cfg(feature = "app")]
mod daemon;
mod devices;
#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

pub use self::devices::{Device, Power, Value, DISPLAY_DEVICE, MAX_DEVICES};
use super::format;
use super::import::Waybar;
use super::picture::deserialize_spacing;
use super::{
    Action, Button, EventSource, Input, Module, ModuleKind, Picture, Status, Table, Update, Widget,
};
use crate::events::EventState;
use crate::modules::alt_format::AltFormat;
use crate::text::{untrusted, untrusted_lines, Sink};

/// UPower's devices are this module's event source.
impl EventState for Power {
    const KEY: &'static str = "UPower";
    type Command = std::convert::Infallible;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = crate::events::bus_watch::BusWatch<daemon::Upowerd>;
}

pub const KEYS: [&str; 5] = ["percentage", "time", "temperature", "model", "native-path"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(rename = "native-path")]
    native_path: Option<String>,
    model: Option<String>,
    #[serde(deserialize_with = "checked_format")]
    format: String,
    #[serde(rename = "format-alt", deserialize_with = "checked_format")]
    format_alt: String,
    #[serde(rename = "hide-if-empty")]
    hide_if_empty: bool,
    tooltip: bool,
    /// One line per battery, after its model.
    #[serde(rename = "tooltip-format", deserialize_with = "checked_format")]
    tooltip_format: String,
    /// Pixels between a battery's name and its line, in place of `: ` (Waybar's gap).
    #[serde(rename = "tooltip-spacing")]
    tooltip_spacing: Option<u16>,
    #[serde(rename = "show-icon")]
    show_icon: bool,
    #[serde(rename = "icon-size", deserialize_with = "icon_size")]
    icon_size: i32,
}

/// Waybar's icon size, and the size its `icon-size = 0` (auto) draws.
const ICON_SIZE: i32 = 20;
const AUTO_ICON_SIZE: i32 = 16;
/// UPower's icon while a device names none a theme has, as Waybar draws it.
pub const NO_BATTERY_ICON: &str = "battery-missing-symbolic";

fn icon_size<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    match deserialize_spacing(d)? {
        0 => Ok(AUTO_ICON_SIZE),
        size => Ok(size),
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            native_path: None,
            model: None,
            format: "{percentage}".to_owned(),
            format_alt: "{percentage} {time}".to_owned(),
            hide_if_empty: true,
            tooltip: true,
            tooltip_format: "{percentage} {time}".to_owned(),
            tooltip_spacing: None,
            show_icon: true,
            icon_size: ICON_SIZE,
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

/// The `upower` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "upower",
    make,
    waybar: Some(Waybar {
        settings: &[
            "native-path",
            "model",
            "format",
            "format-alt",
            "hide-if-empty",
            "tooltip",
            "tooltip-format",
            "tooltip-spacing",
            "show-icon",
            "icon-size",
        ],
        fields: &KEYS,
        ..Waybar::named(&["upower"])
    }),
};

struct UpowerModule {
    settings: Settings,
    /// `format-alt` is shown, after an odd number of left clicks.
    alternative: AltFormat,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(UpowerModule {
        settings,
        alternative: AltFormat::default(),
    }))
}

/// `format` with the device's fields filled in.
fn fill(format: &str, device: &Device, out: &mut String) {
    format::fill(format, out, |key, out| {
        match key {
            "percentage" => {
                let _ = write!(out, "{}%", device.percentage.round());
            }
            "time" => push_duration(out, device.time_left()),
            "temperature" => {
                let _ = write!(out, "{}C", device.temperature.round());
            }
            "model" => out.push_str(&device.model),
            "native-path" => out.push_str(&device.native_path),
            _ => return false,
        }
        true
    });
}

/// Seconds as Waybar writes a battery's time: `2d 3h 5min`, `3h 5min`, `5min`, or
/// nothing under a minute.
fn push_duration(out: &mut String, seconds: i64) {
    let (days, hours, minutes) = (
        seconds / 86_400,
        seconds % 86_400 / 3600,
        seconds % 3600 / 60,
    );
    let _ = if days > 0 {
        write!(out, "{days}d {hours}h {minutes}min")
    } else if hours > 0 {
        write!(out, "{hours}h {minutes}min")
    } else if minutes > 0 {
        write!(out, "{minutes}min")
    } else {
        Ok(())
    };
}

impl UpowerModule {
    fn shown<'a>(&self, power: &'a Power) -> Option<&'a Device> {
        let settings = &self.settings;
        power.chosen(settings.native_path.as_deref(), settings.model.as_deref())
    }
}

impl Module for UpowerModule {
    fn name(&self) -> &str {
        "upower"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<Power>())] }
    }

    fn widget(&self) -> Widget<'_> {
        if !self.settings.show_icon {
            return Widget::Label;
        }
        // The device's own icon comes with each status.
        Widget::PictureAndLabel(Picture {
            source: NO_BATTERY_ICON,
            width: self.settings.icon_size,
            height: self.settings.icon_size,
            spacing: 0,
        })
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let power = input.events.get::<Power>()?;
        let device = self.shown(power);
        let battery = device.filter(|d| d.is_battery() && d.is_present);
        let device = match (battery, device) {
            (Some(battery), _) => battery,
            (None, Some(device)) if !self.settings.hide_if_empty => device,
            _ => return None,
        };
        let format = (self.alternative).pick(&self.settings.format, &self.settings.format_alt);
        fill(format, device, out);
        // "4h 5min" with no time left must not leave a trailing space.
        out.truncate(out.trim_end().len());
        let icon = self.settings.show_icon.then(|| device.icon_name.clone());
        Some(Status {
            percentage: Some(device.percentage),
            class: Some(device.status()),
            icon,
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(power) = input.events.get::<Power>() else {
            return;
        };
        if !self.settings.tooltip {
            return;
        }
        let mut line = String::new();
        for (index, device) in power.batteries().enumerate() {
            if index > 0 {
                sink.out().push('\n');
            }
            match device.model.is_empty() {
                true => untrusted(sink, device.kind_name()),
                false => untrusted(sink, &device.model),
            }
            match self.settings.tooltip_spacing {
                Some(pixels) => sink.gap(pixels.min(256)),
                None => sink.out().push_str(": "),
            }
            line.clear();
            fill(&self.settings.tooltip_format, device, &mut line);
            untrusted_lines(sink, line.trim_end());
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        self.alternative.click(button)
    }
}
