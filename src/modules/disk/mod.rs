//! `disk`: `DISK 76%`, the fullest of the configured mount points (`mounts`, `/` by
//! default), with `.warning` and `.critical` past its thresholds. The tooltip lists each
//! mount with its filesystem and free space, and the read and write rates of each block
//! device (`devices`; by default every whole disk but loop and RAM devices). A mount point
//! with nothing mounted on it is left out (and logged); with none, the module hides.

// The reader and the two files it parses: the edge, with the application.
#[cfg(feature = "app")]
mod diskstats;
#[cfg(feature = "app")]
mod mountinfo;
#[cfg(feature = "app")]
mod reader;
mod reading;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::format;
use super::import::{self, Carried, Waybar};
use super::number_spec::write_number;
use super::thresholds::{percent, Thresholds};
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table};
use crate::render::{write_bytes, write_rate};
use crate::sample::readings::{Reader, Reading, Roots};
use crate::text::{untrusted_lines, Sink};
pub use reading::{Device, DiskReading, Mount, Space};

/// The keys `format` takes.
const KEYS: [&str; 9] = [
    "path",
    "filesystem",
    "used",
    "free",
    "total",
    "percentage_used",
    "percentage_free",
    "read",
    "write",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    /// The tooltip, with the label's fields, in place of the disks' report.
    #[serde(rename = "tooltip-format", deserialize_with = "checked_tooltip_format")]
    tooltip_format: Option<String>,
    #[serde(deserialize_with = "mount_points")]
    mounts: Vec<String>,
    #[serde(deserialize_with = "device_names")]
    devices: Vec<String>,
    #[serde(deserialize_with = "percent")]
    warning: Option<f64>,
    #[serde(deserialize_with = "percent")]
    critical: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "DISK {percentage_used}%".to_owned(),
            tooltip_format: None,
            mounts: vec!["/".to_owned()],
            devices: Vec::new(),
            warning: Some(80.0),
            critical: Some(90.0),
        }
    }
}

fn checked_tooltip_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked_format(d).map(Some)
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    format::check_numbers(&text, &KEYS).map_err(serde::de::Error::custom)?;
    Ok(text)
}

/// Absolute paths, without trailing slashes (the mount table has none).
fn mount_points<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let paths = Vec::<String>::deserialize(d)?;
    if paths.is_empty() {
        return Err(de::Error::custom("at least one mount point, such as \"/\""));
    }
    paths
        .into_iter()
        .map(|path| {
            if !path.starts_with('/') || path.contains('\0') {
                return Err(de::Error::custom(format!(
                    "{path:?} is not an absolute path"
                )));
            }
            let trimmed = path.trim_end_matches('/');
            Ok(if trimmed.is_empty() { "/" } else { trimmed }.to_owned())
        })
        .collect()
}

/// Names as /proc/diskstats lists them (`nvme0n1`, `sda`, `loop0`).
fn device_names<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    for name in &names {
        if name.is_empty() || name.contains(['/', ' ', '\0']) {
            return Err(de::Error::custom(format!(
                "{name:?} is not a block device name such as \"nvme0n1\""
            )));
        }
    }
    Ok(names)
}

struct Disk {
    /// As listed (`disk`, `disk#home`): the key of its reading.
    key: String,
    settings: Settings,
    thresholds: Thresholds,
}

/// The `disk` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "disk",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        ..Waybar::named(&["disk"])
    }),
};

/// Waybar's `path` is the one mount shown; its formats' fields are the module's own, and
/// their `{}` the share free.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "path" => Carried::one(value.as_str().map(|path| {
            let mounts = vec![toml::Value::String(path.into())];
            ("mounts".into(), toml::Value::Array(mounts))
        })),
        "format" | "tooltip-format" => {
            Carried::renamed(key, &import::positional(value, "percentage_free"))
        }
        _ => import::sampled(key, value),
    }
}

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let defaults = Settings::default();
    let thresholds = Thresholds {
        warning: settings.warning.or(defaults.warning).unwrap_or(80.0),
        critical: settings.critical.or(defaults.critical).unwrap_or(90.0),
    };
    Ok(Rc::new(Disk {
        key: name.to_owned(),
        settings,
        thresholds,
    }))
}

/// A rate in the label: 0 until there is one (the tooltip says `–`).
fn write_rate_or_zero(out: &mut String, rate: Option<f64>) {
    write_rate(out, rate.unwrap_or(0.0));
}

impl Disk {
    /// `format` with its fields filled in from the fullest mount and the rates.
    fn fill(&self, format: &str, reading: &DiskReading, out: &mut String) {
        let Some((mount, space)) = reading.fullest() else {
            return;
        };
        let (read, write) = reading.total_rates();
        format::fill_numbers(format, out, |key, spec, out| {
            match key {
                "path" => out.push_str(&mount.path),
                "filesystem" => out.push_str(&mount.filesystem),
                "used" => write_bytes(out, space.used as f64),
                "free" => write_bytes(out, space.available as f64),
                "total" => write_bytes(out, space.total as f64),
                // Whole percents, cut as Waybar's integer division cuts them.
                "percentage_used" => write_number(out, space.used_percent().floor(), spec),
                "percentage_free" => write_number(out, space.free_percent().floor(), spec),
                "read" => write_rate_or_zero(out, read),
                "write" => write_rate_or_zero(out, write),
                _ => return false,
            }
            true
        });
    }

    fn reading<'a>(&self, input: &Input<'a>) -> Option<&'a DiskReading> {
        input.sample.readings.get::<DiskReading>(&self.key)
    }
}

impl Module for Disk {
    fn name(&self) -> &str {
        "disk"
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        #[cfg(feature = "app")]
        return Some(Box::new(reader::DiskReader::new(
            &self.key,
            &self.settings.mounts,
            &self.settings.devices,
            roots,
        )));
        #[cfg(not(feature = "app"))]
        {
            let _ = roots;
            None
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let reading = self.reading(input)?;
        let (_, space) = reading.fullest()?;
        self.fill(&self.settings.format, reading, out);
        let t = self.thresholds;
        Some(Status::of(
            Some(space.used_percent()),
            t.warning,
            t.critical,
        ))
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(reading) = self.reading(input) else {
            return;
        };
        match &self.settings.tooltip_format {
            Some(format) => {
                let mut text = String::new();
                self.fill(format, reading, &mut text);
                untrusted_lines(sink, &text);
            }
            None => reading.write_report(sink),
        }
    }

    /// Its tooltip is the disks alone.
    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, _button: Button) -> Option<Action> {
        None
    }
}
