//! `language` (Waybar's `sway/language`, `hyprland/language`, `niri/language`): the active keyboard
//! layout, `{short}` (XKB's layout name, "us") by default, `{long}` its description
//! ("English (US)"), `{variant}`, `{shortDescription}` ("en") and `{flag}` (the country's
//! flag, 🇺🇸). `format-<lang>` and `format-<lang>-<variant>` name a layout in the user's own
//! words, by its short description: that text is `{}` in `format`. The layout comes from
//! the compositor's events (Sway's `input`, Hyprland's `activelayout`, niri's layout events); its tooltip
//! names the active layout and lists the others. A left click switches every keyboard
//! to its next layout. Hidden until the compositor has named a layout.

use std::fmt::Write;
use std::rc::Rc;

use serde::de::{self, Deserializer};
use serde::Deserialize;
use serde_json::Value as Json;

use super::format;
use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table, Update};
use crate::events::compositor::keyboard::{layout_name, Keyboard, LayoutName};
use crate::render::header;
use crate::text::{untrusted, Sink};

/// The fields; the empty one is `{}`, the layout's `format-<lang>` text.
pub const KEYS: [&str; 6] = ["short", "long", "variant", "shortDescription", "flag", ""];

struct Settings {
    format: String,
    /// `format-<lang>` and `format-<lang>-<variant>`: the key's layout part and its text.
    own_names: Vec<(String, String)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{short}".to_owned(),
            own_names: Vec::new(),
        }
    }
}

/// By hand: Waybar's `format-<lang>` keys are open-ended.
impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let table = std::collections::BTreeMap::<String, toml::Value>::deserialize(d)?;
        let mut settings = Settings::default();
        for (key, value) in table {
            let layout = key.strip_prefix("format-").filter(|l| !l.is_empty());
            if key != "format" && layout.is_none() {
                // `format-<lang>` is not a key to list: it is said in the man page.
                return Err(de::Error::unknown_field(&key, &["format"]));
            }
            let toml::Value::String(text) = value else {
                let kind = de::Unexpected::Other(value.type_str());
                return Err(de::Error::invalid_type(kind, &"a string"));
            };
            match layout {
                Some(layout) => settings.own_names.push((layout.to_owned(), text)),
                None => {
                    format::check(&text, &KEYS).map_err(de::Error::custom)?;
                    settings.format = text;
                }
            }
        }
        Ok(settings)
    }
}

impl Settings {
    /// The user's own name for the layout: `format-<lang>-<variant>` before
    /// `format-<lang>`.
    fn own_name(&self, names: Option<&LayoutName>) -> Option<&str> {
        let names = names?;
        let lang = names.short_description.as_str();
        let variant = names.variant.as_str();
        let named = |wanted: &dyn Fn(&str) -> bool| {
            self.own_names
                .iter()
                .find(|(layout, _)| wanted(layout))
                .map(|(_, text)| text.as_str())
        };
        let with_variant = |layout: &str| {
            !variant.is_empty()
                && layout.strip_prefix(lang).and_then(|r| r.strip_prefix('-')) == Some(variant)
        };
        named(&with_variant).or_else(|| named(&|layout| layout == lang))
    }
}

/// A two-letter layout name as its country's flag, in regional indicator symbols
/// ("us" → 🇺🇸); nothing for others.
fn write_flag(out: &mut String, short: &str) {
    if short.len() != 2 || !short.bytes().all(|b| b.is_ascii_alphabetic()) {
        return;
    }
    for letter in short.bytes() {
        let offset = u32::from(letter.to_ascii_uppercase() - b'A');
        out.extend(char::from_u32(0x1F1E6 + offset));
    }
}

struct Language {
    settings: Settings,
}

/// The `language` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "language",
    make,
    waybar: Some(Waybar {
        settings: &["format"],
        fields: &KEYS,
        convert: own_names,
        ..Waybar::named(&[])
    }),
};

/// Waybar's `format-<lang>` and `format-<lang>-<variant>` carry over as they are.
fn own_names(key: &str, value: &Json) -> Carried {
    match (key.strip_prefix("format-"), value) {
        (Some(layout), Json::String(_)) if !layout.is_empty() => Carried::renamed(key, value),
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Language { settings }))
}

/// A layout's description in a label: control characters as `?`, no deceptive ones.
fn push_clean(out: &mut String, text: &str) {
    out.extend(crate::text::shown(text, '?'));
}

fn write_field(key: &str, out: &mut String, keyboard: &Keyboard, settings: &Settings) -> bool {
    let names = layout_name(&keyboard.active);
    match key {
        "" => match settings.own_name(names) {
            Some(own) => push_clean(out, own),
            None => return write_field("short", out, keyboard, settings),
        },
        "flag" => write_flag(out, names.map_or("", |n| n.short.as_str())),
        // Without XKB's registry, the description's first word, lowercased.
        "short" => match names {
            Some(names) => out.push_str(&names.short),
            None => {
                let word = keyboard.active.split_whitespace().next().unwrap_or("");
                push_clean(out, &word.to_lowercase());
            }
        },
        "long" => push_clean(out, &keyboard.active),
        "variant" => out.push_str(names.map_or("", |n| n.variant.as_str())),
        "shortDescription" => out.push_str(names.map_or("", |n| n.short_description.as_str())),
        _ => return false,
    }
    true
}

impl Module for Language {
    fn name(&self) -> &str {
        "language"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let keyboard = input.compositor.keyboard.as_ref()?;
        format::fill(&self.settings.format, out, |key, out| {
            write_field(key, out, keyboard, &self.settings)
        });
        Some(Status::default())
    }

    /// `Keyboard  English (US)`, then the layouts with the active one marked.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(keyboard) = input.compositor.keyboard.as_ref() else {
            return;
        };
        header(sink, "Keyboard");
        untrusted(sink, &keyboard.active);
        sink.out().push('\n');
        if keyboard.layouts.len() > 1 {
            for layout in &keyboard.layouts {
                let marker = if *layout == keyboard.active {
                    "▸ "
                } else {
                    "  "
                };
                let _ = write!(sink.out(), "{marker}");
                untrusted(sink, layout);
                sink.out().push('\n');
            }
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        (button == Button::Left).then_some(Action::NextLayout)
    }
}

#[cfg(test)]
mod tests;
