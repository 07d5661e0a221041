//! `mode` (Waybar's `sway/mode`, `hyprland/submap`): Sway's binding mode or Hyprland's
//! submap, shown only while it is not the default one, from the compositor's events
//! (Sway's `mode`, Hyprland's `submap`). `{mode}` is its name.

use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::{self, Carried, Waybar};
use super::ModuleKind;
use super::{Input, Module, Status, Table, Update};
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 1] = ["mode"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{mode}".to_owned(),
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

struct Mode {
    settings: Settings,
}

/// The `mode` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "mode",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        ..Waybar::named(&[])
    }),
};

/// Waybar's `{}` is the mode's name; its markup (Debian's config has `<span
/// style="italic">{}</span>`) becomes the text it shows, as this label is plain text.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    if key != "format" {
        return Carried::No;
    }
    Carried::one(value.as_str().and_then(|format| {
        let mut visible = String::new();
        crate::text::markup::visible_text(&format.replace("{}", "{mode}"), &mut visible);
        import::checked_format(key, &serde_json::Value::String(visible), &KEYS)
    }))
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Mode { settings }))
}

impl Module for Mode {
    fn name(&self) -> &str {
        "mode"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    /// Hidden in the default mode.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let mode = input.compositor.mode.as_deref()?;
        format::fill(&self.settings.format, out, |key, out| {
            if key != "mode" {
                return false;
            }
            out.extend(crate::text::shown(mode, '?'));
            true
        });
        Some(Status::default())
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if let Some(mode) = input.compositor.mode.as_deref() {
            sink.out().push_str("Mode ");
            untrusted(sink, mode);
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }
}
