//! `keyboard-state`, as Waybar has it: Num, Caps and Scroll Lock, read from the
//! keyboards' LEDs through evdev (`/dev/input/event*`, which needs the `input` group).
//! One label per lock shown (`numlock`, `capslock`, `scrolllock` set to true), with the
//! class of its lock and `locked` while it is on, so Waybar's `#keyboard-state
//! label.locked` styles it. Each label is `format` (one for all, or one per lock) with
//! `{name}` (`Num`, `Caps`, `Scroll`) and `{icon}` (from `format-icons`). Hidden while
//! no keyboard can be read, and when no lock is chosen.

#[cfg(feature = "app")]
mod evdev;
mod settings;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::Deserialize;
use serde_json::Value as Json;

use super::import::{Carried, Waybar};
use super::{EventSource, Input, LabelRow, Module, ModuleKind, RowLabel, Status, Table};
use super::{Update, Widget};
use crate::events::{EventState, SourceSettings};
use crate::text::{untrusted_lines, Sink};
use settings::{ByLock, Icons, Settings, KEYS};

/// What the keyboards' LEDs show, this module's event source: each lock is on when any
/// keyboard read shows it on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leds {
    pub num: bool,
    pub caps: bool,
    pub scroll: bool,
    /// The names of the keyboards read, as their drivers give them (text from outside).
    pub keyboards: Vec<String>,
}

impl Leds {
    /// From the bits of the kernel's LED bitmap (`EVIOCGLED`): `LED_NUML` is bit 0,
    /// `LED_CAPSL` 1, `LED_SCROLLL` 2.
    pub fn from_bits(bits: u64) -> Leds {
        Leds {
            num: bits & 1 != 0,
            caps: bits & 2 != 0,
            scroll: bits & 4 != 0,
            keyboards: Vec::new(),
        }
    }

    pub fn is_on(&self, lock: Lock) -> bool {
        match lock {
            Lock::Num => self.num,
            Lock::Caps => self.caps,
            Lock::Scroll => self.scroll,
        }
    }
}

/// Which keyboard the source reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyboardChoice {
    /// Only this device (`/dev/input/event3`); every keyboard with the three LEDs if
    /// `None`.
    pub device_path: Option<String>,
}

impl EventState for Leds {
    const KEY: &'static str = "KeyboardLeds";
    type Command = std::convert::Infallible;
    type Settings = KeyboardChoice;
    #[cfg(feature = "app")]
    type Watch = evdev::Keyboards;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lock {
    Num,
    Caps,
    Scroll,
}

impl Lock {
    /// `{name}`.
    fn name(self) -> &'static str {
        match self {
            Lock::Num => "Num",
            Lock::Caps => "Caps",
            Lock::Scroll => "Scroll",
        }
    }

    /// Its label's CSS class, and its setting's name.
    fn class(self) -> &'static str {
        match self {
            Lock::Num => "numlock",
            Lock::Caps => "capslock",
            Lock::Scroll => "scrolllock",
        }
    }
}

/// The order of the labels, as Waybar places them.
const ORDER: [Lock; 3] = [Lock::Scroll, Lock::Caps, Lock::Num];

/// The `keyboard-state` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "keyboard-state",
    make,
    waybar: Some(Waybar {
        settings: &[
            "numlock",
            "capslock",
            "scrolllock",
            "format-icons",
            "device-path",
            "tooltip",
        ],
        fields: &KEYS,
        convert,
        ..Waybar::named(&["keyboard-state"])
    }),
};

/// Waybar's settings that need more than a copy: a format table, and the keys ringbar
/// has no use for.
fn convert(key: &str, value: &Json) -> Carried {
    match key {
        "format" => {
            let text = |v: &Json| v.as_str().is_none_or(|t| settings::check_format(t).is_ok());
            let fine = match value {
                Json::String(format) => settings::check_format(format).is_ok(),
                Json::Object(each) => each.values().all(text),
                _ => false,
            };
            match fine {
                true => Carried::renamed("format", value),
                false => Carried::UnknownField,
            }
        }
        "binding-keys" | "interval" => Carried::NotNeeded,
        _ => Carried::No,
    }
}

struct KeyboardState {
    shown: Vec<Lock>,
    formats: ByLock<settings::Format>,
    icons: ByLock<Icons>,
    source: KeyboardChoice,
    tooltip: bool,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let chosen = |lock: &Lock| match lock {
        Lock::Num => settings.numlock,
        Lock::Caps => settings.capslock,
        Lock::Scroll => settings.scrolllock,
    };
    Ok(Rc::new(KeyboardState {
        shown: ORDER.into_iter().filter(chosen).collect(),
        formats: settings.format,
        icons: settings.format_icons.resolve(),
        source: KeyboardChoice {
            device_path: settings.device_path,
        },
        tooltip: settings.tooltip,
    }))
}

impl KeyboardState {
    /// `lock`'s label, as markup.
    fn fill(&self, lock: Lock, leds: &Leds, out: &mut String) {
        let icons = self.icons.of(lock);
        let icon = match leds.is_on(lock) {
            true => &icons.locked,
            false => &icons.unlocked,
        };
        super::format::fill(&self.formats.of(lock).0, out, |key, out| {
            match key {
                "name" => out.push_str(lock.name()),
                "icon" => out.push_str(icon),
                _ => return false,
            }
            true
        });
    }
}

impl Module for KeyboardState {
    fn name(&self) -> &str {
        "keyboard-state"
    }

    fn widget(&self) -> Widget<'_> {
        Widget::Labels(self)
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<Leds>())] }
    }

    fn source_settings(&self) -> Option<SourceSettings> {
        Some(SourceSettings::of::<Leds>(self.source.clone()))
    }

    /// The labels' markup, one after another (for text and JSON).
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let leds = input.events.get::<Leds>()?;
        if self.shown.is_empty() {
            return None;
        }
        for (i, lock) in self.shown.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            self.fill(*lock, leds, out);
        }
        Some(Status {
            markup: true,
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(leds) = input.events.get::<Leds>() else {
            return;
        };
        if !self.tooltip {
            return;
        }
        let mut text = String::new();
        for lock in [Lock::Caps, Lock::Num, Lock::Scroll] {
            let state = if leds.is_on(lock) { "on" } else { "off" };
            text.push_str(&format!("{} Lock: {state}\n", lock.name()));
        }
        for keyboard in &leds.keyboards {
            text.push_str(&format!("\nfrom {keyboard}"));
        }
        untrusted_lines(sink, text.trim_end());
    }

    fn history_graphs(&self) -> bool {
        false
    }
}

impl LabelRow for KeyboardState {
    fn labels(&self, input: &Input<'_>, out: &mut Vec<RowLabel>) {
        out.clear();
        let Some(leds) = input.events.get::<Leds>() else {
            return;
        };
        for lock in &self.shown {
            let mut markup = String::new();
            self.fill(*lock, leds, &mut markup);
            let mut classes = vec![lock.class()];
            if leds.is_on(*lock) {
                classes.push("locked");
            }
            out.push(RowLabel { markup, classes });
        }
    }
}
