//! The battery module's settings, and Waybar's formats for it: with any `format…` key
//! set, the label is Waybar's battery module's. Its status names (`charging`,
//! `discharging`, `plugged` on mains below full, `full`, `not-charging`) choose the format
//! (`format-<status>-<state>`, `format-<status>`, `format-<state>`, `format`) and are the
//! label's class; its state, by the charge alone, is the lowest of `states` the charge is
//! at or below (`warning` at 30 % and `critical` at 15 % without them), a class too.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::reading::{BatteryStatus, BatteryTotal};
use super::state_formats::StateFormats;
use crate::modules::format;
use crate::modules::number_spec::write_number;
use crate::modules::states::States;
use crate::modules::thresholds::percent;
use crate::text::icons::FormatIcons;

/// The fields of its formats.
pub const KEYS: &[&str] = &["capacity", "power", "icon", "time", "health", "cycles"];
/// The fields of its tooltip: the formats' and `{timeTo}`.
pub const TOOLTIP_KEYS: &[&str] = &[
    "capacity", "power", "icon", "time", "health", "cycles", "timeTo",
];
/// How worn the batteries are, for `{health}` and `{cycles}` (0 where unknown, as in
/// Waybar).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wear {
    /// The full charge as a share of the design's, in percent.
    pub health: Option<f64>,
    /// The charge and discharge cycles of the main battery.
    pub cycles: Option<f64>,
}

/// The fields of `format-time`.
const TIME_KEYS: [&str; 3] = ["H", "M", "m"];

/// Unknown keys are refused in `make`, but the state formats.
#[derive(Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct Settings {
    #[serde(deserialize_with = "percent")]
    pub warning: Option<f64>,
    #[serde(deserialize_with = "percent")]
    pub critical: Option<f64>,
    #[serde(deserialize_with = "label")]
    pub format: Option<String>,
    #[serde(deserialize_with = "label")]
    pub format_charging: Option<String>,
    #[serde(deserialize_with = "label")]
    pub format_discharging: Option<String>,
    #[serde(deserialize_with = "label")]
    pub format_plugged: Option<String>,
    #[serde(deserialize_with = "label")]
    pub format_full: Option<String>,
    #[serde(deserialize_with = "label")]
    pub format_not_charging: Option<String>,
    /// The label after a left click, whatever the status.
    #[serde(deserialize_with = "label")]
    pub format_alt: Option<String>,
    #[serde(deserialize_with = "time")]
    pub format_time: String,
    /// Only this battery (`BAT1`, its folder's name), as Waybar's `bat`; all together
    /// unless set.
    pub bat: Option<String>,
    pub format_icons: Option<FormatIcons>,
    pub tooltip: bool,
    #[serde(deserialize_with = "tooltip")]
    pub tooltip_format: Option<String>,
    /// The charge that counts as full, in percent: a battery its firmware stops at 80 %
    /// shows 100 % there.
    #[serde(deserialize_with = "full_at")]
    pub full_at: Option<u8>,
    /// The charge as a share of the batteries' design capacity, not of their last full
    /// charge.
    pub design_capacity: bool,
    /// Waybar's states, instead of `warning` and `critical`.
    pub states: Option<States>,
    /// The other keys: the state formats, read into [`Settings::state_formats`].
    #[serde(flatten)]
    pub other: BTreeMap<String, toml::Value>,
    #[serde(skip)]
    pub state_formats: StateFormats,
    /// `warning` and `critical`, the states without `states`.
    #[serde(skip)]
    pub default_states: States,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            warning: Some(30.0),
            critical: Some(15.0),
            format: None,
            format_charging: None,
            format_discharging: None,
            format_plugged: None,
            format_full: None,
            format_not_charging: None,
            format_alt: None,
            format_time: "{H} h {M} min".to_owned(),
            bat: None,
            format_icons: None,
            tooltip: true,
            tooltip_format: None,
            full_at: None,
            design_capacity: false,
            states: None,
            other: BTreeMap::new(),
            state_formats: StateFormats::default(),
            default_states: States::default(),
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D, keys: &[&str]) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    format::check_numbers(&text, keys).map_err(de::Error::custom)?;
    Ok(text)
}

fn full_at<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    match u8::deserialize(d)? {
        percent @ 1..=100 => Ok(Some(percent)),
        other => Err(de::Error::custom(format!(
            "full-at {other} is not a percentage from 1 to 100"
        ))),
    }
}

fn label<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d, KEYS).map(Some)
}

/// A label's format from the config, its fields checked.
pub fn checked_label<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    checked(d, KEYS)
}

fn tooltip<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked_tooltip(d).map(Some)
}

/// A tooltip's format from the config, its fields checked.
pub fn checked_tooltip<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    checked(d, TOOLTIP_KEYS)
}

fn time<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &TIME_KEYS)
}

/// Waybar's status name: the kernel's, but `plugged` on mains while not charging (or
/// discharging at a charge threshold), and `full` at 100 % while still charging.
pub fn status_name(total: &BatteryTotal, adapter_online: Option<bool>) -> &'static str {
    let online = adapter_online == Some(true);
    let full = total.capacity.round() >= 100.0;
    match total.status {
        BatteryStatus::Unknown if full => "full",
        BatteryStatus::Unknown if online => "plugged",
        BatteryStatus::Unknown if adapter_online.is_some() => "discharging",
        BatteryStatus::Unknown => "unknown",
        BatteryStatus::Discharging | BatteryStatus::NotCharging if online => "plugged",
        BatteryStatus::Charging if full => "full",
        BatteryStatus::Charging => "charging",
        BatteryStatus::Discharging => "discharging",
        BatteryStatus::Full => "full",
        BatteryStatus::NotCharging => "not-charging",
    }
}

impl Settings {
    /// Whether the label is Waybar's: any of its formats is set.
    pub fn waybar_label(&self) -> bool {
        [
            &self.format,
            &self.format_charging,
            &self.format_discharging,
            &self.format_plugged,
            &self.format_full,
            &self.format_not_charging,
            &self.format_alt,
        ]
        .iter()
        .any(|format| format.is_some())
            || self.state_formats.has_label()
    }

    /// Waybar's state: the lowest of the states the charge is at or below.
    pub fn state(&self, capacity: f64) -> Option<&std::rc::Rc<str>> {
        self.states
            .as_ref()
            .unwrap_or(&self.default_states)
            .up_to(capacity)
    }

    /// The format for `status` and `state`, in Waybar's order; its `{capacity}%` default.
    pub fn format_for(&self, status: &str, state: Option<&str>) -> &str {
        let formats = &self.state_formats;
        let with_state = state.and_then(|state| formats.get(Some(status), state));
        let by_status = match status {
            "charging" => self.format_charging.as_ref(),
            "discharging" => self.format_discharging.as_ref(),
            "plugged" => self.format_plugged.as_ref(),
            "full" => self.format_full.as_ref(),
            "not-charging" => self.format_not_charging.as_ref(),
            _ => None,
        };
        let by_state = state.and_then(|state| formats.get(None, state));
        let chosen = with_state
            .or(by_status)
            .or(by_state)
            .or(self.format.as_ref());
        chosen.map_or("{capacity}%", String::as_str)
    }

    /// `format` with the fields filled in (`{timeTo}` too, for the tooltip).
    pub fn fill(
        &self,
        format: &str,
        total: &BatteryTotal,
        wear: &Wear,
        status: &str,
        state: Option<&str>,
        out: &mut String,
    ) {
        format::fill_numbers(format, out, |name, spec, out| {
            match name {
                "capacity" => write_number(out, total.capacity.round(), spec),
                "power" => write_number(out, total.power_w.unwrap_or(0.0), spec),
                "health" => write_significant(out, wear.health.unwrap_or(0.0), 3),
                "cycles" => write_number(out, wear.cycles.unwrap_or(0.0), spec),
                "time" => self.write_time(total, out),
                "timeTo" => match (total.seconds_left, total.status) {
                    (Some(_), BatteryStatus::Charging) => {
                        out.push_str("Full in ");
                        self.write_time(total, out);
                    }
                    (Some(_), _) => {
                        out.push_str("Empty in ");
                        self.write_time(total, out);
                    }
                    (None, _) => out.push_str(pretty(status)),
                },
                "icon" => {
                    if let Some(icons) = &self.format_icons {
                        let both =
                            state.and_then(|state| self.state_formats.icon_set(status, state));
                        let alts = [both, Some(status), state];
                        let mut chosen = [""; 3];
                        let mut count = 0;
                        for alt in alts.into_iter().flatten() {
                            chosen[count] = alt;
                            count += 1;
                        }
                        out.push_str(icons.icon_among(Some(total.capacity), &chosen[..count]));
                    }
                }
                _ => return false,
            }
            true
        });
    }

    /// `format-time` with the hours and minutes left; nothing without an estimate.
    fn write_time(&self, total: &BatteryTotal, out: &mut String) {
        let Some(seconds) = total.seconds_left else {
            return;
        };
        let minutes = (seconds + 30) / 60;
        let (hours, minutes) = (minutes / 60, minutes % 60);
        format::fill(&self.format_time, out, |key, out| {
            let _ = match key {
                "H" => write!(out, "{hours}"),
                "M" => write!(out, "{minutes}"),
                "m" => write!(out, "{minutes:02}"),
                _ => return false,
            };
            true
        });
    }
}

/// The status as Waybar's tooltip names it without an estimate.
fn pretty(status: &str) -> &'static str {
    match status {
        "charging" => "Charging",
        "discharging" => "Discharging",
        "plugged" => "Plugged",
        "full" => "Full",
        "not-charging" => "Not charging",
        _ => "Unknown",
    }
}

/// `value` to `digits` significant digits without trailing zeros, as fmt's `{:.3}`
/// writes a float (`95.2`, `100`, `87.5`).
fn write_significant(out: &mut String, value: f64, digits: i32) {
    let magnitude = if value == 0.0 {
        0
    } else {
        value.abs().log10().floor() as i32
    };
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    let start = out.len();
    let _ = write!(out, "{value:.decimals$}");
    if out[start..].contains('.') {
        let kept = out.trim_end_matches('0').trim_end_matches('.').len();
        out.truncate(kept);
    }
}
