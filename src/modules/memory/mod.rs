//! `memory`: `MEM 2.0G/7.8G`, MemTotal − MemAvailable (what `free` calls used) of the
//! total; its level is the used share. With a `format`, Waybar's memory module: its
//! fields in `unit` (GiB by default, rounded to two decimals, fmt's number specs such as
//! `{used:.1f}` taken), `format-warning` and `format-critical` past the thresholds,
//! `format-icons` by the used share, and `tooltip-format` in place of the monitor's
//! report.

#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::alt_format::AltFormat;
use super::format;
use super::import::{self, Carried, Waybar};
use super::number_spec::{write_number, NumberSpec};
use super::thresholds::percent;
use super::ModuleKind;
use super::{Action, Button, Input, Level, Module, Status, Table};
use crate::model::Memory as Meminfo;
use crate::render::write_bytes;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};

/// Waybar's fields of the memory module.
pub const KEYS: [&str; 10] = [
    "percentage",
    "total",
    "used",
    "avail",
    "swapPercentage",
    "swapTotal",
    "swapUsed",
    "swapAvail",
    "swapState",
    "icon",
];

/// Waybar's units for its fields, in bytes.
const UNITS: [(&str, f64); 10] = [
    ("B", 1.0),
    ("kB", 1e3),
    ("KiB", 1024.0),
    ("kiB", 1024.0),
    ("MB", 1e6),
    ("MiB", 1_048_576.0),
    ("GB", 1e9),
    ("GiB", 1_073_741_824.0),
    ("TB", 1e12),
    ("TiB", 1_099_511_627_776.0),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Settings {
    #[serde(deserialize_with = "percent")]
    warning: Option<f64>,
    #[serde(deserialize_with = "percent")]
    critical: Option<f64>,
    #[serde(deserialize_with = "checked")]
    format: Option<String>,
    #[serde(deserialize_with = "checked")]
    format_warning: Option<String>,
    #[serde(deserialize_with = "checked")]
    format_critical: Option<String>,
    /// Shown instead of the format after a left click, until the next one.
    #[serde(deserialize_with = "checked")]
    format_alt: Option<String>,
    format_icons: Option<FormatIcons>,
    tooltip: bool,
    #[serde(deserialize_with = "checked")]
    tooltip_format: Option<String>,
    /// The unit's size in bytes.
    #[serde(deserialize_with = "unit")]
    unit: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            warning: Some(80.0),
            critical: Some(95.0),
            format: None,
            format_warning: None,
            format_critical: None,
            format_alt: None,
            format_icons: None,
            tooltip: true,
            tooltip_format: None,
            unit: 1_073_741_824.0,
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    format::check_numbers(&text, &KEYS).map_err(de::Error::custom)?;
    Ok(Some(text))
}

fn unit<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let name = String::deserialize(d)?;
    match UNITS.iter().find(|(unit, _)| *unit == name) {
        Some((_, bytes)) => Ok(*bytes),
        None => {
            let names: Vec<&str> = UNITS.iter().map(|(unit, _)| *unit).collect();
            Err(de::Error::custom(format!(
                "unit {name:?}: one of {}",
                names.join(", ")
            )))
        }
    }
}

struct MemoryModule {
    settings: Settings,
    alternative: AltFormat,
}

/// The `memory` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "memory",
    make,
    waybar: Some(Waybar {
        settings: &[
            "format",
            "format-warning",
            "format-critical",
            "format-alt",
            "format-icons",
            "tooltip",
            "tooltip-format",
            "unit",
        ],
        fields: &KEYS,
        convert: from_waybar,
        ..Waybar::named(&["memory"])
    }),
};

/// Waybar's `{}` is the used share; `interval` and `states` are the monitor's.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    let format = key.starts_with("format") && key != "format-icons";
    if format || key == "tooltip-format" {
        let value = import::positional(value, "percentage");
        return import::checked_format(key, &value, &KEYS)
            .map_or(Carried::UnknownField, |setting| Carried::Set(vec![setting]));
    }
    import::sampled(key, value)
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(MemoryModule {
        settings,
        alternative: AltFormat::default(),
    }))
}

impl MemoryModule {
    fn level(&self, percent: f64) -> Level {
        let (warning, critical) = (self.settings.warning, self.settings.critical);
        Level::of(
            percent,
            warning.unwrap_or(f64::MAX),
            critical.unwrap_or(f64::MAX),
        )
    }

    /// A Waybar format with its fields filled in from `m`.
    fn fill(&self, format: &str, m: &Meminfo, level: Level, out: &mut String) {
        let share = |part: u64, whole: u64| match whole {
            0 => 0.0,
            // Waybar's integer division: 99.9 % is 99.
            _ => (100 * u128::from(part) / u128::from(whole)) as f64,
        };
        let percentage = share(m.used(), m.total);
        // In the unit, rounded to two decimals as Waybar rounds them.
        let sized = |bytes: u64| (bytes as f64 / self.settings.unit * 100.0).round() / 100.0;
        format::fill_numbers(format, out, |name, spec: Option<NumberSpec>, out| {
            let number = match name {
                "percentage" => percentage,
                "total" => sized(m.total),
                "used" => sized(m.used()),
                "avail" => sized(m.available),
                "swapPercentage" => share(m.swap_used(), m.swap_total),
                "swapTotal" => sized(m.swap_total),
                "swapUsed" => sized(m.swap_used()),
                "swapAvail" => sized(m.swap_free),
                "swapState" => {
                    out.push_str(if m.swap_total == 0 { "Off" } else { "On" });
                    return true;
                }
                "icon" => {
                    if let Some(icons) = &self.settings.format_icons {
                        out.push_str(icons.icon(Some(percentage), level.css_class()));
                    }
                    return true;
                }
                _ => return false,
            };
            write_number(out, number, spec);
            true
        });
    }
}

impl Module for MemoryModule {
    fn name(&self) -> &str {
        "memory"
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let memory = input.sample.processes.memory.filter(|m| m.total > 0);
        let percent = memory.map(|m| m.used() as f64 / m.total as f64 * 100.0);
        let level = percent.map_or(Level::Normal, |p| self.level(p));
        let status = Status {
            level,
            percentage: percent,
            ..Status::default()
        };
        let settings = &self.settings;
        let own = settings.format.as_deref().map(|format| {
            let (warning, critical) = (&settings.format_warning, &settings.format_critical);
            format::for_level(level, format, warning.as_ref(), critical.as_ref())
        });
        let Some(format) = self.alternative.chosen(own, settings.format_alt.as_deref()) else {
            out.push_str("MEM ");
            match memory {
                Some(m) => {
                    write_bytes(out, m.used() as f64);
                    out.push('/');
                    write_bytes(out, m.total as f64);
                }
                None => out.push('–'),
            }
            return Some(status);
        };
        let memory = memory.filter(|_| !format.is_empty())?;
        self.fill(format, &memory, level, out);
        Some(status)
    }

    /// The monitor's report, or the user's `tooltip-format`.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if !self.settings.tooltip {
            return;
        }
        let Some(format) = &self.settings.tooltip_format else {
            crate::render::report::write(sink, input.sample);
            return;
        };
        if let Some(m) = input.sample.processes.memory.filter(|m| m.total > 0) {
            let level = self.level(m.used() as f64 / m.total as f64 * 100.0);
            let mut text = String::new();
            self.fill(format, &m, level, &mut text);
            untrusted(sink, &text);
        }
    }

    /// Under the monitor's report only.
    fn history_graphs(&self) -> bool {
        self.settings.tooltip && self.settings.tooltip_format.is_none()
    }

    /// With `format-alt`, a left click switches formats; the rest are the monitor's.
    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        let has_alt = self.settings.format_alt.is_some();
        self.alternative.monitor_click(has_alt, button)
    }
}
