//! `cpu`: `CPU 12% 54°C 2.1GHz`, the busy share of all CPUs (in whole percents unless
//! `decimals` says), then temperature and average frequency where the machine has the
//! sensors (`–` when one fails). With a `format`, Waybar's cpu module: `{usage}` (whole
//! percents, truncated as Waybar's), `{load}` `{load1}` `{load5}` `{load15}`,
//! `{avg_frequency}`, `{max_frequency}` and `{min_frequency}` (GHz) and `{icon}`, each core's `{usageN}` and
//! `{iconN}` ([`cores`]), fmt's number specs taken, `format-warning` and `format-critical`
//! past the thresholds, and `tooltip-format` in place of the monitor's report.

mod cores;
// The reader: the edge, with the application.
#[cfg(feature = "app")]
mod cores_reader;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::alt_format::AltFormat;
use super::format;
use super::import::{self, Waybar};
use super::number_spec::{write_number, NumberSpec};
use super::thresholds::{decimals, percent, DEFAULT_DECIMALS};
use super::ModuleKind;
use super::{Action, Button, Input, Level, Module, Status, Table};
use crate::render::{number, write_percent_to, write_value};
use crate::sample::readings::{Reader, Roots};
use crate::sample::Sample;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};
use cores::CoreUsage;

/// Waybar's fields of the cpu module that ringbar fills; `N` is a core's number.
pub const KEYS: [&str; 11] = [
    "usage",
    "load",
    "load1",
    "load5",
    "load15",
    "avg_frequency",
    "max_frequency",
    "min_frequency",
    "icon",
    "usageN",
    "iconN",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Settings {
    #[serde(deserialize_with = "percent")]
    warning: Option<f64>,
    #[serde(deserialize_with = "percent")]
    critical: Option<f64>,
    #[serde(deserialize_with = "decimals")]
    decimals: Option<u8>,
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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            warning: Some(70.0),
            critical: Some(90.0),
            decimals: None,
            format: None,
            format_warning: None,
            format_critical: None,
            format_alt: None,
            format_icons: None,
            tooltip: true,
            tooltip_format: None,
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    format::check_numbers(&text, &KEYS).map_err(de::Error::custom)?;
    Ok(Some(text))
}

struct Cpu {
    /// As listed (`cpu`, `cpu#cores`): the key of its cores' reading.
    key: String,
    /// A format shows a core's own share, so the cores are read.
    per_core: bool,
    settings: Settings,
    decimals: usize,
    alternative: AltFormat,
}

/// The `cpu` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "cpu",
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
        ],
        fields: &KEYS,
        convert: import::sampled,
        ..Waybar::named(&["cpu"])
    }),
};

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let decimals = settings.decimals.map_or(DEFAULT_DECIMALS, usize::from);
    let s = &settings;
    let formats = [
        &s.format,
        &s.format_warning,
        &s.format_critical,
        &s.format_alt,
    ];
    let per_core = formats
        .into_iter()
        .chain([&s.tooltip_format])
        .flatten()
        .any(|format| shows_a_core(format));
    Ok(Rc::new(Cpu {
        key: name.to_owned(),
        per_core,
        settings,
        decimals,
        alternative: AltFormat::default(),
    }))
}

/// Whether `format` has a core's field (`{usage0}`, `{icon3}`).
fn shows_a_core(format: &str) -> bool {
    let mut found = false;
    format::fill_numbers(format, &mut String::new(), |name, _, _| {
        found |= format::numbered(name, "usage")
            .or(format::numbered(name, "icon"))
            .is_some();
        true
    });
    found
}

impl Cpu {
    fn level(&self, percent: Option<f64>) -> Level {
        let (warning, critical) = (self.settings.warning, self.settings.critical);
        percent.map_or(Level::Normal, |p| {
            Level::of(p, warning.unwrap_or(f64::MAX), critical.unwrap_or(f64::MAX))
        })
    }

    /// A Waybar format with its fields filled in from `sample`.
    fn fill(&self, format: &str, sample: &Sample, level: Level, out: &mut String) {
        let usage = sample.processes.cpu_percent().unwrap_or(0.0).floor();
        let load = sample
            .processes
            .load
            .map_or([0.0; 3], |l| l.0.map(f64::from));
        let cpu = &sample.hardware.cpu;
        // GHz with two decimals, rounded up as Waybar rounds them.
        let ghz = |mhz: crate::model::Value<f64>| {
            mhz.known().map_or(0.0, |mhz| (mhz / 10.0).ceil() / 100.0)
        };
        let (average, highest, lowest) = match (cpu.average_mhz.is_absent(), cpu.nominal_mhz) {
            // No cpufreq: the fixed clock /proc/cpuinfo gives, as Waybar reads it.
            (true, Some(nominal)) => {
                let [average, highest, lowest] =
                    nominal.map(|mhz| ghz(crate::model::Value::Known(mhz)));
                (average, highest, lowest)
            }
            _ => (
                ghz(cpu.average_mhz),
                ghz(cpu.highest_mhz),
                ghz(cpu.lowest_mhz),
            ),
        };
        format::fill_numbers(format, out, |name, spec: Option<NumberSpec>, out| {
            let value = match name {
                "usage" => usage,
                "load" | "load1" => load[0],
                "load5" => load[1],
                "load15" => load[2],
                "avg_frequency" => average,
                "max_frequency" => highest,
                "min_frequency" => lowest,
                "icon" => {
                    if let Some(icons) = &self.settings.format_icons {
                        out.push_str(icons.icon(Some(usage), level.css_class()));
                    }
                    return true;
                }
                _ => return self.fill_core(name, spec, sample, level, out),
            };
            // Loads print as fmt prints a float: two decimals as /proc/loadavg has.
            let value = if name.starts_with("load") {
                (value * 100.0).round() / 100.0
            } else {
                value
            };
            write_number(out, value, spec);
            true
        });
    }
}

impl Cpu {
    /// `{usageN}` (truncated as `{usage}`; `–` while core N has no share) and `{iconN}`
    /// (nothing then); `false` for any other field.
    fn fill_core(
        &self,
        name: &str,
        spec: Option<NumberSpec>,
        sample: &Sample,
        level: Level,
        out: &mut String,
    ) -> bool {
        let cores = sample.readings.get::<CoreUsage>(&self.key);
        let share = |n: usize| cores.and_then(|cores| cores.of(n)).map(f64::floor);
        if let Some(n) = format::numbered(name, "usage") {
            match share(n) {
                Some(percent) => write_number(out, percent, spec),
                None => out.push('–'),
            }
            return true;
        }
        let Some(n) = format::numbered(name, "icon") else {
            return false;
        };
        if let (Some(icons), Some(percent)) = (&self.settings.format_icons, share(n)) {
            out.push_str(icons.icon(Some(percent), level.css_class()));
        }
        true
    }
}

impl Module for Cpu {
    fn name(&self) -> &str {
        "cpu"
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        if !self.per_core {
            return None;
        }
        #[cfg(feature = "app")]
        return Some(Box::new(cores_reader::CoresReader::new(&self.key, roots)));
        #[cfg(not(feature = "app"))]
        {
            let _ = roots;
            None
        }
    }

    /// `CPU –` until there is an interval to measure.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        let percent = sample.processes.cpu_percent();
        let level = self.level(percent);
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
        if let Some(format) = self.alternative.chosen(own, settings.format_alt.as_deref()) {
            if format.is_empty() {
                return None;
            }
            self.fill(format, sample, level, out);
            return Some(status);
        }
        out.push_str("CPU ");
        match percent {
            Some(p) => write_percent_to(out, p, self.decimals),
            None => out.push('–'),
        }
        let sensors = &sample.hardware.cpu;
        write_value(out, " ", sensors.celsius, "°C", number(0));
        write_value(out, " ", sensors.average_mhz, "GHz", |o, mhz| {
            number(1)(o, mhz / 1000.0);
        });
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
        let level = self.level(input.sample.processes.cpu_percent());
        let mut text = String::new();
        self.fill(format, input.sample, level, &mut text);
        untrusted(sink, &text);
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
