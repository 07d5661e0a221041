//! A custom module's settings ([`ScriptConfig`], Waybar's keys): the interval, and the
//! icons picked by percentage and `alt`.

use std::fmt;
use std::time::Duration;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use crate::text::icons::FormatIcons;

/// `signal`: an offset from SIGRTMIN that the system has, checked when the config is read.
pub fn realtime_offset<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    let offset = i64::deserialize(d)?;
    let max = i64::from(libc::SIGRTMAX() - libc::SIGRTMIN());
    match u8::try_from(offset) {
        Ok(offset) if (1..=max).contains(&i64::from(offset)) => Ok(Some(offset)),
        _ => Err(de::Error::custom(format!(
            "signal {offset} is not between 1 and {max} (SIGRTMIN+1 to SIGRTMAX)"
        ))),
    }
}

/// A custom module's settings: Waybar's keys, hyphenated as in Waybar's config.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ScriptConfig {
    /// Run with `sh -c`. Empty (unset): no script, and the module shows its `format`
    /// alone, as Waybar's custom modules without `exec` do (launchers, separators).
    #[serde(default)]
    pub exec: String,
    /// Seconds between runs, or `"once"`; absent: the script runs continuously and every
    /// line it prints is an update.
    pub interval: Option<IntervalSetting>,
    /// `"json"`: one JSON object per line. Anything else or absent: plain text, the first
    /// line the text, the second the tooltip, the third a class (Waybar's i3blocks style).
    pub return_type: Option<String>,
    /// The label: `{}` (or `{text}`) is the text, `{percentage}`, `{icon}`, `{alt}`;
    /// `{{` and `}}` are braces. Default `{}`.
    pub format: Option<String>,
    /// The label after a left click (or `format-alt-click`'s button), and back.
    pub format_alt: Option<String>,
    /// Icons for `{icon}`: low to high by percentage, or such lists by `alt`.
    pub format_icons: Option<FormatIcons>,
    /// Run first; the module shows only while this exits with status 0.
    pub exec_if: Option<String>,
    /// SIGRTMIN+N sent to ringbar runs the script again; 1 to SIGRTMAX−SIGRTMIN.
    #[serde(default, deserialize_with = "realtime_offset")]
    pub signal: Option<u8>,
    /// Run the script again after an `on-*` command (default true; no effect while a
    /// continuous script runs).
    pub exec_on_event: Option<bool>,
    /// Continuous scripts: a script that exits with status 0 is started again after this
    /// many seconds, and keeps its last output meanwhile.
    pub restart_interval: Option<IntervalSetting>,
    /// The most characters the label shows; longer ones end with `…`.
    pub max_length: Option<usize>,
    /// Show a tooltip (default true).
    pub tooltip: Option<bool>,
    /// The tooltip: the label's fields and `{tooltip}`, the script's tooltip. Unset: the
    /// script's tooltip, else the label.
    pub tooltip_format: Option<String>,
    /// Show the script's text literally instead of as Pango markup (default false).
    pub escape: Option<bool>,
    /// Not a key: an interval run's whole output is the text, its lines joined by
    /// spaces (a JSON document printed over several lines, for `image`'s `multiple`).
    #[serde(skip)]
    pub whole_output: bool,
}

impl ScriptConfig {
    /// A continuous plain-text module running `exec`, everything else unset.
    pub fn new(exec: impl Into<String>) -> ScriptConfig {
        ScriptConfig {
            exec: exec.into(),
            interval: None,
            return_type: None,
            format: None,
            format_alt: None,
            format_icons: None,
            exec_if: None,
            signal: None,
            exec_on_event: None,
            restart_interval: None,
            max_length: None,
            tooltip_format: None,
            tooltip: None,
            escape: None,
            whole_output: false,
        }
    }

    /// The config, if its keys go together: the keys about running a script need one.
    pub fn checked(self) -> Result<ScriptConfig, String> {
        if !self.is_static() {
            return Ok(self);
        }
        let script_keys = [
            ("interval", self.interval.is_some()),
            ("return-type", self.return_type.is_some()),
            ("exec-if", self.exec_if.is_some()),
            ("signal", self.signal.is_some()),
            ("exec-on-event", self.exec_on_event.is_some()),
            ("restart-interval", self.restart_interval.is_some()),
        ];
        match script_keys.iter().find(|(_, set)| *set) {
            Some((key, _)) => Err(format!("`{key}` needs `exec`, the script it is about")),
            None => Ok(self),
        }
    }

    /// Whether there is no script: the module shows its `format` alone.
    pub fn is_static(&self) -> bool {
        self.exec.is_empty()
    }

    pub fn is_json(&self) -> bool {
        self.return_type.as_deref() == Some("json")
    }

    pub fn escapes(&self) -> bool {
        self.escape == Some(true)
    }
}

/// `interval`: seconds, or `"once"`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntervalSetting {
    Seconds(f64),
    Once,
}

/// The shortest interval ringbar accepts.
pub const MIN_INTERVAL: Duration = Duration::from_millis(100);
/// The longest: a year; more is a typo.
pub const MAX_INTERVAL: Duration = Duration::from_secs(365 * 24 * 3600);

impl IntervalSetting {
    /// The interval, clamped to [`MIN_INTERVAL`]..=[`MAX_INTERVAL`]; `None` for `once`.
    pub fn duration(self) -> Option<Duration> {
        match self {
            IntervalSetting::Once => None,
            IntervalSetting::Seconds(s) if s.is_nan() => Some(MIN_INTERVAL),
            IntervalSetting::Seconds(s) => Some(Duration::from_secs_f64(
                s.clamp(MIN_INTERVAL.as_secs_f64(), MAX_INTERVAL.as_secs_f64()),
            )),
        }
    }
}

impl<'de> Deserialize<'de> for IntervalSetting {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Interval;

        impl Visitor<'_> for Interval {
            type Value = IntervalSetting;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of seconds (at least 0.1) or \"once\"")
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IntervalSetting, E> {
                let min = MIN_INTERVAL.as_secs_f64();
                if v.is_finite() && v >= min && v <= MAX_INTERVAL.as_secs_f64() {
                    Ok(IntervalSetting::Seconds(v))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(v), &self))
                }
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntervalSetting, E> {
                match v {
                    1.. => self.visit_f64(v as f64),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntervalSetting, E> {
                self.visit_f64(v as f64)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntervalSetting, E> {
                match v {
                    "once" => Ok(IntervalSetting::Once),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }

        deserializer.deserialize_any(Interval)
    }
}
