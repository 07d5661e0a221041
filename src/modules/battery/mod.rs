//! `battery`: `BAT 87% 2:35` (discharging, time left), `BAT 64% +0:40` (charging, time to
//! full), `BAT 100% full`; every system battery together. Hidden on a machine without one.
//! Its level rises as the charge falls: `.warning` at or below `warning` percent while
//! discharging, `.critical` at or below `critical`; `.charging` while charging. Its
//! tooltip, and its section of the monitor's report, has the batteries one by one.

mod formats;
#[cfg(test)]
mod formats_tests;
// The reader: the edge, with the application.
#[cfg(feature = "app")]
mod reader;
#[cfg(all(test, feature = "app"))]
mod reader_tests;
mod reading;
mod report;
mod state_formats;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::Deserialize;

use super::alt_format::AltFormat;
use super::import::{self, Waybar};
use super::states;
use super::ModuleKind;
use super::{Input, Level, Module, Status, Table};
use crate::model::Value;
use crate::sample::readings::{Reader, Reading, Roots};
use crate::text::Sink;
use formats::{status_name, Settings, Wear};
pub use reading::{combine, Batteries, Battery, BatteryStatus, BatteryTotal};
use report::write_duration;

struct BatteryModule {
    /// As listed (`battery`, `battery#bat2`): the key of its reading.
    key: String,
    settings: Settings,
    alternative: AltFormat,
}

/// The `battery` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "battery",
    make,
    waybar: Some(Waybar {
        settings: WAYBAR_SETTINGS,
        fields: formats::TOOLTIP_KEYS,
        convert: from_waybar,
        ..Waybar::named(&["battery"])
    }),
};

/// `format-time`'s fields are `{H}`, `{M}` and `{m}`; `states` are the battery's own
/// (any names), and each status's and state's formats with them; `interval` is the
/// monitor's.
fn from_waybar(key: &str, value: &serde_json::Value) -> import::Carried {
    match key {
        "format-time" | "states" => import::Carried::renamed(key, value),
        _ if key.starts_with("format-") || key.starts_with("tooltip-format-") => {
            let fields = match key.starts_with("tooltip") {
                true => formats::TOOLTIP_KEYS,
                false => formats::KEYS,
            };
            match import::checked_format(key, value, fields) {
                Some(setting) => import::Carried::Set(vec![setting]),
                None => import::Carried::UnknownField,
            }
        }
        _ => import::sampled(key, value),
    }
}

/// Waybar's keys it takes as they are.
const WAYBAR_SETTINGS: &[&str] = &[
    "format",
    "format-charging",
    "format-discharging",
    "format-plugged",
    "format-full",
    "format-not-charging",
    "format-time",
    "format-alt",
    "format-icons",
    "tooltip",
    "tooltip-format",
    "bat",
    "full-at",
    "design-capacity",
];
/// Its own keys besides, for the message about a key that is none.
const OWN_SETTINGS: &[&str] = &["warning", "critical", "states"];

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    use serde::de::Error;
    let mut settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let share = |t: Option<f64>| t.map(|t| t.round().clamp(0.0, 100.0) as u8);
    let defaults: Vec<(&str, u8)> = [
        ("warning", share(settings.warning)),
        ("critical", share(settings.critical)),
    ]
    .into_iter()
    .filter_map(|(name, t)| Some((name, t?)))
    .collect();
    settings.default_states = states::States::of_pairs(&defaults);
    let names: Vec<Rc<str>> = settings
        .states
        .as_ref()
        .unwrap_or(&settings.default_states)
        .shared_names()
        .cloned()
        .collect();
    let other = std::mem::take(&mut settings.other);
    settings.state_formats = state_formats::StateFormats::take(
        other,
        &names,
        &[OWN_SETTINGS, WAYBAR_SETTINGS].concat(),
        (formats::checked_label, formats::checked_tooltip),
    )
    .map_err(toml::de::Error::custom)?;
    Ok(Rc::new(BatteryModule {
        key: name.to_owned(),
        settings,
        alternative: AltFormat::default(),
    }))
}

impl BatteryModule {
    fn reading<'a>(&self, input: &Input<'a>) -> Option<&'a Batteries> {
        input.sample.readings.get::<Batteries>(&self.key)
    }

    /// The batteries shown: the one `bat` names, or all.
    fn shown<'a>(&self, reading: &'a Batteries) -> &'a [Battery] {
        match &self.settings.bat {
            Some(name) => match reading.0.iter().position(|b| &b.name == name) {
                Some(at) => &reading.0[at..=at],
                None => &[],
            },
            None => &reading.0,
        }
    }

    /// The batteries together, their charge read as `design-capacity` and `full-at` say.
    fn total(&self, batteries: &[Battery]) -> Option<BatteryTotal> {
        let mut total = combine(batteries)?;
        if self.settings.design_capacity {
            let energies = batteries.iter().try_fold((0.0, 0.0), |(now, design), b| {
                Some((
                    now + b.energy_now_wh.known()?,
                    design + b.energy_full_design_wh.known()?,
                ))
            });
            if let Some((now, design)) = energies.filter(|&(_, design)| design > 0.0) {
                total.capacity = (now / design * 100.0).clamp(0.0, 100.0);
            }
        }
        if let Some(full_at) = self.settings.full_at {
            total.capacity = (total.capacity * 100.0 / f64::from(full_at)).min(100.0);
        }
        Some(total)
    }

    /// How worn the batteries are: their full charge as a share of their design's, in
    /// percent, and (as Waybar counts them) the cycles of the largest by design.
    fn wear(&self, batteries: &[Battery]) -> Wear {
        let (mut full, mut design) = (0.0, 0.0);
        let mut health_known = true;
        for battery in batteries {
            match (battery.energy_full_wh, battery.energy_full_design_wh) {
                (Value::Known(f), Value::Known(d)) => (full, design) = (full + f, design + d),
                _ => health_known = false,
            }
        }
        let largest = batteries.iter().max_by(|a, b| {
            let size = |b: &Battery| b.energy_full_design_wh.known().unwrap_or(0.0);
            let cycles = |b: &Battery| b.cycles.known().unwrap_or(0.0);
            size(a)
                .total_cmp(&size(b))
                .then(cycles(a).total_cmp(&cycles(b)))
        });
        Wear {
            health: (health_known && design > 0.0).then(|| full / design * 100.0),
            cycles: largest.and_then(|b| b.cycles.known()),
        }
    }

    /// Waybar's label: its format for the status and state, filled in; the level, and
    /// the state's class where the level's is not it.
    fn waybar_text(
        &self,
        total: &BatteryTotal,
        reading: &Batteries,
        out: &mut String,
    ) -> (Level, Option<Rc<str>>) {
        let settings = &self.settings;
        let status = status_name(total, reading.1);
        let state = settings.state(total.capacity.round());
        let name = state.map(|s| &**s);
        let own = settings.format_for(status, name);
        let format = self
            .alternative
            .pick_set(own, settings.format_alt.as_deref());
        let wear = self.wear(self.shown(reading));
        settings.fill(format, total, &wear, status, name, out);
        let level = match name {
            Some("critical") => Level::Critical,
            Some("warning") => Level::Warning,
            _ => Level::Normal,
        };
        // The level's class is the state's own.
        let other = state.filter(|_| level == Level::Normal).cloned();
        (level, other)
    }
}

impl Module for BatteryModule {
    fn name(&self) -> &str {
        "battery"
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        #[cfg(feature = "app")]
        return Some(Box::new(reader::BatteryReader::new(&self.key, &roots.sys)));
        #[cfg(not(feature = "app"))]
        {
            let _ = roots;
            None
        }
    }

    fn reading_in_report(&self) -> bool {
        true
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let reading = self.reading(input)?;
        let total = self.total(self.shown(reading))?;
        let class = Some(status_name(&total, reading.1)).filter(|s| *s != "unknown");
        if self.settings.waybar_label() {
            let (level, state) = self.waybar_text(&total, reading, out);
            if out.is_empty() {
                return None;
            }
            return Some(Status {
                level,
                percentage: Some(total.capacity),
                class,
                state,
                ..Status::default()
            });
        }
        let _ = std::fmt::Write::write_fmt(out, format_args!("BAT {:.0}%", total.capacity));
        match (total.status, total.seconds_left) {
            (BatteryStatus::Discharging, Some(seconds)) => {
                out.push(' ');
                write_duration(out, seconds);
            }
            (BatteryStatus::Charging, Some(seconds)) => {
                out.push_str(" +");
                write_duration(out, seconds);
            }
            (BatteryStatus::Charging, None) => out.push_str(" +"),
            (BatteryStatus::Full, _) => out.push_str(" full"),
            (BatteryStatus::NotCharging, _) => out.push_str(" not charging"),
            _ => {}
        }
        let (warning, critical) = (self.settings.warning, self.settings.critical);
        let below = |threshold: Option<f64>| threshold.is_some_and(|t| total.capacity <= t);
        let level = match total.status {
            BatteryStatus::Discharging if below(critical) => Level::Critical,
            BatteryStatus::Discharging if below(warning) => Level::Warning,
            _ => Level::Normal,
        };
        Some(Status {
            level,
            percentage: Some(total.capacity),
            class,
            ..Status::default()
        })
    }

    /// The battery section, or the user's `tooltip-format` (for the status and state
    /// where set, in Waybar's order).
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(reading) = self.reading(input).filter(|_| self.settings.tooltip) else {
            return;
        };
        let total = self.total(self.shown(reading));
        let status = total.as_ref().map(|total| status_name(total, reading.1));
        let state = total
            .as_ref()
            .and_then(|total| self.settings.state(total.capacity.round()))
            .map(|s| &**s);
        let own = status.and_then(|status| self.settings.state_formats.tooltip(status, state));
        let (Some(format), Some(total), Some(status)) =
            (own.or(self.settings.tooltip_format.as_ref()), total, status)
        else {
            reading.write_report(sink);
            return;
        };
        let mut text = String::new();
        let wear = self.wear(self.shown(reading));
        self.settings
            .fill(format, &total, &wear, status, state, &mut text);
        crate::text::untrusted(sink, &text);
    }

    /// Its tooltip is the battery alone.
    fn history_graphs(&self) -> bool {
        false
    }

    /// A left click switches to `format-alt` and back, where it is set.
    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: super::Button) -> Option<super::Action> {
        (self.alternative).click_set(self.settings.format_alt.as_deref(), button)
    }
}
