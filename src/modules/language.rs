//! `language` (Waybar's `sway/language`, `hyprland/language`, `niri/language`): the active keyboard
//! layout, `{short}` (XKB's layout name, "us") by default, `{long}` its description
//! ("English (US)"), `{variant}` and `{shortDescription}` ("en"). The layout comes from
//! the compositor's events (Sway's `input`, Hyprland's `activelayout`, niri's layout events); its tooltip
//! names the active layout and lists the others. A left click switches every keyboard
//! to its next layout. Hidden until the compositor has named a layout.

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table, Update};
use crate::events::compositor::keyboard::{layout_name, Keyboard};
use crate::render::header;
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 4] = ["short", "long", "variant", "shortDescription"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{short}".to_owned(),
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
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
        ..Waybar::named(&["sway/language", "hyprland/language", "niri/language"])
    }),
};

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

fn write_field(key: &str, out: &mut String, keyboard: &Keyboard) -> bool {
    let names = layout_name(&keyboard.active);
    match key {
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
            write_field(key, out, keyboard)
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
#[path = "language_tests.rs"]
mod tests;
