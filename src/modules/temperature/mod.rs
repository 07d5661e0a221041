//! `temperature`, as Waybar's temperature module: one sensor's temperature, `45°C` by
//! default. The sensor is the first that exists of: an hwmon file (`hwmon-path`, one path
//! or a list), the `input-filename` of the `hwmonN` directory in `hwmon-path-abs`, the
//! `input-filename` of the hwmon named `hwmon-name`, and the thermal zone `thermal-zone`
//! (0 by default). `.warning` and `.critical` from `warning-threshold` and
//! `critical-threshold` (°C), each with its own format. Hidden, with one log line, while
//! the sensor cannot be read.

#[cfg(feature = "app")]
mod reader;
mod reading;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::{self, Waybar};
use super::number_spec::write_number;
use super::{Action, Button, Input, Level, Module, ModuleKind, Status, Table};
use crate::sample::readings::{Reader, Roots};
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};
pub use reading::TemperatureReading;

/// The fields its formats take.
pub const KEYS: [&str; 4] = ["temperatureC", "temperatureF", "temperatureK", "icon"];

/// One path, or paths of which the first that exists is used.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Paths {
    One(String),
    Many(Vec<String>),
}

impl Paths {
    pub fn all(&self) -> &[String] {
        match self {
            Paths::One(path) => std::slice::from_ref(path),
            Paths::Many(paths) => paths,
        }
    }
}

/// Where the sensor is, as the config says (see the module's description).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sensor {
    pub thermal_zone: u32,
    pub hwmon_path: Option<Paths>,
    pub hwmon_path_abs: Option<Paths>,
    pub hwmon_name: Option<String>,
    pub input_filename: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Settings {
    thermal_zone: u32,
    hwmon_path: Option<Paths>,
    hwmon_path_abs: Option<Paths>,
    hwmon_name: Option<String>,
    input_filename: Option<String>,
    warning_threshold: Option<i64>,
    critical_threshold: Option<i64>,
    #[serde(deserialize_with = "checked_format")]
    format: String,
    #[serde(deserialize_with = "checked_optional")]
    format_warning: Option<String>,
    #[serde(deserialize_with = "checked_optional")]
    format_critical: Option<String>,
    format_icons: Option<FormatIcons>,
    tooltip: bool,
    #[serde(deserialize_with = "checked_format")]
    tooltip_format: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            thermal_zone: 0,
            hwmon_path: None,
            hwmon_path_abs: None,
            hwmon_name: None,
            input_filename: None,
            warning_threshold: None,
            critical_threshold: None,
            format: "{temperatureC}°C".to_owned(),
            format_warning: None,
            format_critical: None,
            format_icons: None,
            tooltip: true,
            tooltip_format: "{temperatureC}°C".to_owned(),
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    format::check_numbers(&text, &KEYS).map_err(serde::de::Error::custom)?;
    Ok(text)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked_format(d).map(Some)
}

/// The `temperature` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "temperature",
    make,
    waybar: Some(Waybar {
        settings: &[
            "thermal-zone",
            "hwmon-path",
            "hwmon-path-abs",
            "hwmon-name",
            "input-filename",
            "warning-threshold",
            "critical-threshold",
            "format",
            "format-warning",
            "format-critical",
            "format-icons",
            "tooltip",
            "tooltip-format",
        ],
        fields: &KEYS,
        convert: import::sampled,
        ..Waybar::named(&["temperature"])
    }),
};

struct Temperature {
    /// As listed (`temperature`, `temperature#gpu`): the key of its reading.
    key: String,
    sensor: Sensor,
    settings: Settings,
}

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let sensor = Sensor {
        thermal_zone: settings.thermal_zone,
        hwmon_path: settings.hwmon_path.clone(),
        hwmon_path_abs: settings.hwmon_path_abs.clone(),
        hwmon_name: settings.hwmon_name.clone(),
        input_filename: settings.input_filename.clone(),
    };
    Ok(Rc::new(Temperature {
        key: name.to_owned(),
        sensor,
        settings,
    }))
}

impl Temperature {
    fn celsius(&self, input: &Input<'_>) -> Option<f64> {
        let reading = input.sample.readings.get::<TemperatureReading>(&self.key)?;
        reading.celsius
    }

    fn level(&self, celsius: i64) -> Level {
        let past = |threshold: Option<i64>| threshold.is_some_and(|t| celsius >= t);
        match (
            past(self.settings.critical_threshold),
            past(self.settings.warning_threshold),
        ) {
            (true, _) => Level::Critical,
            (false, true) => Level::Warning,
            _ => Level::Normal,
        }
    }

    /// `format` with its fields filled in, as Waybar rounds them; `{icon}` is chosen
    /// over 0 to `critical-threshold` (100 without one).
    fn fill(&self, format: &str, celsius: f64, out: &mut String) {
        format::fill_numbers(format, out, |key, spec, out| {
            match key {
                "temperatureC" => write_number(out, celsius.round(), spec),
                "temperatureF" => write_number(out, (celsius * 1.8 + 32.0).round(), spec),
                "temperatureK" => write_number(out, (celsius + 273.15).round(), spec),
                "icon" => {
                    if let Some(icons) = &self.settings.format_icons {
                        let top = self.settings.critical_threshold.filter(|t| *t > 0);
                        let scale = top.unwrap_or(100) as u32;
                        let value = celsius.round().max(0.0) as u32;
                        out.push_str(icons.icon_scaled(value, scale, &[]));
                    }
                }
                _ => return false,
            }
            true
        });
    }
}

impl Module for Temperature {
    fn name(&self) -> &str {
        "temperature"
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        #[cfg(feature = "app")]
        return Some(Box::new(reader::TemperatureReader::new(
            &self.key,
            &self.sensor,
            &roots.sys,
        )));
        #[cfg(not(feature = "app"))]
        {
            let _ = (roots, &self.sensor);
            None
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let celsius = self.celsius(input)?;
        let level = self.level(celsius.round() as i64);
        let settings = &self.settings;
        let format = format::for_level(
            level,
            &settings.format,
            settings.format_warning.as_ref(),
            settings.format_critical.as_ref(),
        );
        if format.is_empty() {
            return None;
        }
        self.fill(format, celsius, out);
        Some(Status {
            level,
            percentage: Some(celsius),
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(celsius) = self.celsius(input).filter(|_| self.settings.tooltip) else {
            return;
        };
        let mut text = String::new();
        self.fill(&self.settings.tooltip_format, celsius, &mut text);
        untrusted(sink, &text);
    }

    /// Its tooltip is its own text.
    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, _button: Button) -> Option<Action> {
        None
    }
}
