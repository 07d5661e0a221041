//! The module's settings, by the names Waybar's keyboard-state gives them: which locks
//! to show, a format for all of them or one per lock, and icons for all of them or one
//! pair per lock. Formats and icons are Pango markup, as Waybar's labels are.

use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use super::Lock;

pub const KEYS: [&str; 2] = ["name", "icon"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub numlock: bool,
    pub capslock: bool,
    pub scrolllock: bool,
    pub format: ByLock<Format>,
    #[serde(rename = "format-icons")]
    pub format_icons: IconsSetting,
    /// The one keyboard to read (`/dev/input/event3`); every keyboard with the three
    /// LEDs when not set.
    #[serde(rename = "device-path")]
    pub device_path: Option<String>,
    /// Waybar's keys that trigger a new read. ringbar hears the LEDs themselves change,
    /// so it reads them and needs nothing more.
    #[serde(rename = "binding-keys")]
    pub binding_keys: Vec<u32>,
    /// Deprecated in Waybar, which no longer polls; nor does ringbar.
    pub interval: Option<u32>,
    pub tooltip: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            numlock: false,
            capslock: false,
            scrolllock: false,
            format: ByLock::default(),
            format_icons: IconsSetting::default(),
            device_path: None,
            binding_keys: Vec::new(),
            interval: None,
            tooltip: true,
        }
    }
}

/// One value per lock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ByLock<T: Default> {
    pub numlock: T,
    pub capslock: T,
    pub scrolllock: T,
}

impl<T: Default> ByLock<T> {
    pub fn of(&self, lock: Lock) -> &T {
        match lock {
            Lock::Num => &self.numlock,
            Lock::Caps => &self.capslock,
            Lock::Scroll => &self.scrolllock,
        }
    }
}

/// A lock's format: `{name}` and `{icon}` in Pango markup.
#[derive(Clone, Debug, PartialEq)]
pub struct Format(pub String);

impl Default for Format {
    fn default() -> Self {
        Format("{name} {icon}".to_owned())
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        check_format(&text).map_err(de::Error::custom)?;
        Ok(Format(text))
    }
}

/// A format's fields are `{name}` and `{icon}`, and the rest is markup a label takes.
pub fn check_format(text: &str) -> Result<(), String> {
    crate::modules::format::check(text, &KEYS)?;
    let mut bare = String::new();
    crate::modules::format::fill(text, &mut bare, |_, _| true);
    check_markup(&bare)
}

fn check_markup(text: &str) -> Result<(), String> {
    crate::text::markup::check(text, false)
        .map_err(|why| format!("{text:?} is not Pango markup ({why}); write & as &amp;"))
}

/// `format`: one format for every lock, or a table with one per lock.
impl<'de> Deserialize<'de> for ByLock<Format> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OneOrEach;
        impl<'de> Visitor<'de> for OneOrEach {
            type Value = ByLock<Format>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a format, or a table of numlock, capslock and scrolllock formats")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                check_format(text).map_err(E::custom)?;
                let format = Format(text.to_owned());
                Ok(ByLock {
                    numlock: format.clone(),
                    capslock: format.clone(),
                    scrolllock: format,
                })
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                Each::deserialize(MapAccessDeserializer::new(map)).map(|each| ByLock {
                    numlock: each.numlock,
                    capslock: each.capslock,
                    scrolllock: each.scrolllock,
                })
            }
        }
        d.deserialize_any(OneOrEach)
    }
}

/// `format` as a table: the derived reader, kept apart from [`ByLock`]'s own.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Each {
    numlock: Format,
    capslock: Format,
    scrolllock: Format,
}

/// Markup checked to be what a label takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Markup(pub String);

impl<'de> Deserialize<'de> for Markup {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        check_markup(&text).map_err(de::Error::custom)?;
        Ok(Markup(text))
    }
}

/// What `{icon}` shows for a lock, on and off.
#[derive(Clone, Debug, PartialEq)]
pub struct Icons {
    pub locked: String,
    pub unlocked: String,
}

impl Default for Icons {
    fn default() -> Self {
        Icons {
            locked: "locked".to_owned(),
            unlocked: "unlocked".to_owned(),
        }
    }
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct IconPair {
    locked: Option<Markup>,
    unlocked: Option<Markup>,
}

/// `format-icons`, in either of Waybar's two forms: `locked` and `unlocked` for every
/// lock, or a pair per lock (`capslock = { locked = "A", unlocked = "a" }`). The first
/// form wins where both are given, as in Waybar.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IconsSetting {
    locked: Option<Markup>,
    unlocked: Option<Markup>,
    numlock: Option<IconPair>,
    capslock: Option<IconPair>,
    scrolllock: Option<IconPair>,
}

impl IconsSetting {
    /// The icons of each lock.
    pub fn resolve(self) -> ByLock<Icons> {
        let pair = |locked: Option<Markup>, unlocked: Option<Markup>| {
            let default = Icons::default();
            Icons {
                locked: locked.map_or(default.locked, |m| m.0),
                unlocked: unlocked.map_or(default.unlocked, |m| m.0),
            }
        };
        if self.locked.is_some() || self.unlocked.is_some() {
            let common = pair(self.locked, self.unlocked);
            return ByLock {
                numlock: common.clone(),
                capslock: common.clone(),
                scrolllock: common,
            };
        }
        let own = |p: Option<IconPair>| {
            let p = p.unwrap_or_default();
            pair(p.locked, p.unlocked)
        };
        ByLock {
            numlock: own(self.numlock),
            capslock: own(self.capslock),
            scrolllock: own(self.scrolllock),
        }
    }
}
