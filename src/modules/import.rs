//! What Waybar calls a module and how its settings carry over (`ringbar import-waybar`):
//! each module's registry entry holds a [`Waybar`], and the helpers its conversions share
//! are here.

use serde_json::Value as Json;
use toml::Value;

/// A module as Waybar knows it.
pub struct Waybar {
    /// Waybar's names of the module: its own where Waybar has one by the same name
    /// (`cpu`), and the others, which the config also reads as this module
    /// (`pulseaudio` for `audio`, `sway/workspaces` for `workspaces`).
    pub names: &'static [&'static str],
    /// The settings it reads as Waybar does, under the same key; a format among them
    /// carries over when every field in it is one of `fields`.
    pub settings: &'static [&'static str],
    pub fields: &'static [&'static str],
    /// Its other settings, tried first: Waybar's key and value to what carries over.
    pub convert: fn(&str, &Json) -> Carried,
    /// Where Waybar's default differs from ringbar's: its value, written into the
    /// import where Waybar's config leaves the key unset.
    pub defaults: &'static [(&'static str, i64)],
}

impl Waybar {
    /// A module Waybar has by the same name whose settings do not carry over.
    pub const fn named(names: &'static [&'static str]) -> Waybar {
        Waybar {
            names,
            settings: &[],
            fields: &[],
            convert: no_conversion,
            defaults: &[],
        }
    }

    /// What becomes of Waybar's `key` set to `value`.
    pub fn carry(&self, key: &str, value: &Json) -> Carried {
        match (self.convert)(key, value) {
            Carried::No if self.settings.contains(&key) => {
                match checked_format(key, value, self.fields) {
                    Some(setting) => Carried::Set(vec![setting]),
                    None => Carried::UnknownField,
                }
            }
            carried => carried,
        }
    }
}

/// What becomes of one of Waybar's settings.
#[derive(Debug, PartialEq)]
pub enum Carried {
    /// These settings of the module's table (none: nothing to say).
    Set(Vec<(String, Value)>),
    /// The monitor's interval, in ms; the shortest of the sampled modules' wins.
    Interval(u32),
    /// ringbar needs no such setting.
    NotNeeded,
    /// A format with a field the module does not fill.
    UnknownField,
    /// A value the module would refuse, and why (`not Pango markup: …`).
    Refused(String),
    /// No counterpart, or ringbar draws or clicks it its own way.
    No,
}

impl Carried {
    /// One setting, or [`Carried::No`].
    pub fn one(setting: Option<(String, Value)>) -> Carried {
        setting.map_or(Carried::No, |setting| Carried::Set(vec![setting]))
    }

    /// `value` under ringbar's `key`, if TOML can hold it.
    pub fn renamed(key: &str, value: &Json) -> Carried {
        Carried::one(to_toml(value).map(|value| (key.to_owned(), value)))
    }
}

/// For a module none of whose settings need converting.
pub fn no_conversion(_: &str, _: &Json) -> Carried {
    Carried::No
}

/// A module of the monitor's sample: Waybar's `states` (`{"warning": 70, "critical":
/// 90}`) become `warning` and `critical`, and its `interval` the monitor's.
pub fn sampled(key: &str, value: &Json) -> Carried {
    match key {
        "states" => Carried::Set(
            ["warning", "critical"]
                .into_iter()
                .filter_map(|level| {
                    let share = value.get(level).and_then(Json::as_f64)?;
                    Some((level.to_owned(), Value::Float(share)))
                })
                .collect(),
        ),
        "interval" => match value.as_f64().filter(|s| *s > 0.0) {
            Some(seconds) => {
                Carried::Interval((seconds * 1000.0).round().clamp(50.0, 60_000.0) as u32)
            }
            None => Carried::Set(Vec::new()),
        },
        _ => Carried::No,
    }
}

/// A setting whose value ringbar reads as Waybar does: a format only if every field in
/// it is one of `fields` (with a number's spec, such as `{used:.1f}`, or none; the
/// module's own parser judges whether it takes specs).
pub fn checked_format(key: &str, value: &Json, fields: &[&str]) -> Option<(String, Value)> {
    if (key.starts_with("format") && key != "format-icons") || key.starts_with("tooltip-format") {
        super::format::check_numbers(value.as_str()?, fields).ok()?;
    }
    to_toml(value).map(|v| (key.to_owned(), v))
}

/// The fields of a format that are not among `known`, as written (`gwaddri`), each once;
/// none for what is not text.
pub fn unknown_fields(format: &Json, known: &[&str]) -> Vec<String> {
    let mut unknown: Vec<String> = Vec::new();
    if let Some(text) = format.as_str() {
        super::format::fill(text, &mut String::new(), |key, _| {
            let fits = super::number_spec::split(key)
                .is_some_and(|(name, _)| super::format::is_known(name, known));
            if !fits && !unknown.iter().any(|u| u == key) {
                unknown.push(key.to_owned());
            }
            true
        });
    }
    unknown
}

/// A format whose `{}` is Waybar's positional field, the one the module names `field`
/// (the disk's `{}` is `{percentage_free}`).
pub fn positional(format: &Json, field: &str) -> Json {
    match format.as_str() {
        Some(text) => Json::String(text.replace("{}", &format!("{{{field}}}"))),
        None => format.clone(),
    }
}

/// A JSON value as TOML; `None` for what TOML cannot hold (`null`, anywhere in it).
pub fn to_toml(value: &Json) -> Option<Value> {
    Value::try_from(value).ok()
}
