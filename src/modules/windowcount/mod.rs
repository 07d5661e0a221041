//! `windowcount` (Waybar's `hyprland/windowcount`): how many windows the workspace shown
//! on the bar's output holds (the focused workspace with `separate-outputs = false`),
//! from the compositor's events. `{count}` is the number; `format-empty` (when set) is
//! shown instead for none, and the module hides while its format is empty or the
//! compositor does not say (the standard protocols, a compositor not followed).

use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::{self, Carried, Waybar};
use super::ModuleKind;
use super::{Input, Module, Status, Table, Update};
use crate::events::compositor::{Workspace, WINDOWS_UNKNOWN};
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 1] = ["count"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    #[serde(deserialize_with = "checked_optional")]
    format_empty: Option<String>,
    separate_outputs: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{count}".to_owned(),
            format_empty: None,
            separate_outputs: true,
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked_format(d).map(Some)
}

struct WindowCount {
    settings: Settings,
}

/// The `windowcount` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "windowcount",
    make,
    waybar: Some(Waybar {
        settings: &["format", "format-empty", "separate-outputs"],
        fields: &KEYS,
        convert: from_waybar,
        ..Waybar::named(&[])
    }),
};

/// Waybar's `{}` is the count; its fullscreen and windowed formats need a state the
/// compositors' events do not carry here.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "format" | "format-empty" => {
            import::checked_format(key, &import::positional(value, "count"), &KEYS)
                .map_or(Carried::UnknownField, |setting| Carried::Set(vec![setting]))
        }
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(WindowCount { settings }))
}

impl WindowCount {
    /// The workspace counted: the one shown on the bar's output, else the focused one.
    fn workspace<'a>(&self, input: &Input<'a>) -> Option<&'a Workspace> {
        let workspaces = &input.compositor.workspaces;
        let own = |w: &&Workspace| w.visible && !w.special && w.output == input.output;
        let shown = (self.settings.separate_outputs && !input.output.is_empty())
            .then(|| workspaces.iter().find(own))
            .flatten();
        shown.or_else(|| input.compositor.focused_workspace())
    }
}

impl Module for WindowCount {
    fn name(&self) -> &str {
        "windowcount"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let count = self.workspace(input)?.windows;
        if count == WINDOWS_UNKNOWN {
            return None;
        }
        let format = match (&self.settings.format_empty, count) {
            (Some(empty), 0) => empty,
            _ => &self.settings.format,
        };
        if format.is_empty() {
            return None;
        }
        format::fill(format, out, |key, out| {
            if key != "count" {
                return false;
            }
            out.push_str(&count.to_string());
            true
        });
        Some(Status {
            class: (count == 0).then_some("empty"),
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if let Some(workspace) = self.workspace(input) {
            sink.out().push_str("Workspace ");
            untrusted(sink, &workspace.name);
            sink.out()
                .push_str(&format!(": {} windows", workspace.windows));
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
