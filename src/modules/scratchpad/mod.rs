//! `scratchpad` (Waybar's `sway/scratchpad`): how many windows Sway's scratchpad holds,
//! from the compositor's tree. `{count}` and `{icon}` (from `format-icons`, the entry for
//! the count); hidden while the scratchpad is empty unless `show-empty`, and where the
//! compositor has no scratchpad. The tooltip lists the windows (`{app}: {title}`).

use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Input, Module, Status, Table, Update};
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 2] = ["icon", "count"];
pub const TOOLTIP_KEYS: [&str; 2] = ["app", "title"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    show_empty: bool,
    format_icons: Option<FormatIcons>,
    tooltip: bool,
    #[serde(deserialize_with = "checked_tooltip")]
    tooltip_format: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{icon} {count}".to_owned(),
            show_empty: false,
            format_icons: None,
            tooltip: true,
            tooltip_format: "{app}: {title}".to_owned(),
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_tooltip<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &TOOLTIP_KEYS)
}

struct Scratchpad {
    settings: Settings,
}

/// The `scratchpad` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "scratchpad",
    make,
    waybar: Some(Waybar {
        settings: &[
            "format",
            "show-empty",
            "format-icons",
            "tooltip",
            "tooltip-format",
        ],
        fields: &["icon", "count", "app", "title"],
        ..Waybar::named(&[])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Scratchpad { settings }))
}

impl Module for Scratchpad {
    fn name(&self) -> &str {
        "scratchpad"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let count = input.compositor.scratchpad.as_ref()?.len();
        if count == 0 && !self.settings.show_empty {
            return None;
        }
        let icons = self.settings.format_icons.as_ref();
        let icon = icons.map_or("", |icons| icons.icon_by_count(count));
        format::fill(&self.settings.format, out, |key, out| {
            match key {
                "count" => out.push_str(&count.to_string()),
                "icon" => out.push_str(icon),
                _ => return false,
            }
            true
        });
        // Without `format-icons`, no space before the count.
        let kept = out.trim();
        if kept.len() != out.len() {
            *out = kept.to_owned();
        }
        Some(Status {
            class: (count == 0).then_some("empty"),
            ..Status::default()
        })
    }

    /// One line per window.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(windows) = &input.compositor.scratchpad else {
            return;
        };
        if !self.settings.tooltip {
            return;
        }
        for (index, window) in windows.iter().enumerate() {
            if index > 0 {
                sink.out().push('\n');
            }
            let mut line = String::new();
            format::fill(&self.settings.tooltip_format, &mut line, |key, line| {
                match key {
                    "app" => line.push_str(&window.app),
                    "title" => line.push_str(&window.title),
                    _ => return false,
                }
                true
            });
            untrusted(sink, &line);
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
