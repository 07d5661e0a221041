//! `gamemode`, as Waybar has it: whether games run with Feral GameMode's optimizations,
//! from gamemoded on the session bus (`com.feralinteractive.GameMode`, its
//! `ClientCount`). `GAME` by default (`format`, with `{glyph}` and `{count}`), and
//! `format-alt` after a left click. Its class is `running` while a game runs. Hidden
//! without gamemoded, and while no game runs unless `hide-not-running = false`.

#[cfg(feature = "app")]
mod daemon;
#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::{Action, Button, EventSource, Input, Module, ModuleKind, Status, Table, Update};
use crate::events::EventState;
use crate::modules::alt_format::AltFormat;
use crate::text::{untrusted, Sink};

/// What gamemoded says, this module's event source: how many games run with its
/// optimizations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameMode {
    pub games: u32,
}

impl EventState for GameMode {
    const KEY: &'static str = "GameMode";
    type Command = std::convert::Infallible;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = crate::events::bus_watch::BusWatch<daemon::Gamemoded>;
}

pub const KEYS: [&str; 2] = ["glyph", "count"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    #[serde(rename = "format-alt", deserialize_with = "checked_format")]
    format_alt: String,
    /// What `{glyph}` shows.
    glyph: String,
    #[serde(rename = "hide-not-running")]
    hide_not_running: bool,
    tooltip: bool,
    #[serde(rename = "tooltip-format", deserialize_with = "checked_format")]
    tooltip_format: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{glyph}".to_owned(),
            format_alt: "{glyph} {count}".to_owned(),
            glyph: "GAME".to_owned(),
            hide_not_running: true,
            tooltip: true,
            tooltip_format: "Games running: {count}".to_owned(),
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

/// The `gamemode` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "gamemode",
    make,
    waybar: Some(Waybar {
        settings: &[
            "format",
            "format-alt",
            "glyph",
            "hide-not-running",
            "tooltip",
            "tooltip-format",
        ],
        fields: &KEYS,
        ..Waybar::named(&["gamemode"])
    }),
};

struct GameModeModule {
    settings: Settings,
    /// `format-alt` is shown, after an odd number of left clicks.
    alternative: AltFormat,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let alternative = AltFormat::default();
    Ok(Rc::new(GameModeModule {
        settings,
        alternative,
    }))
}

impl GameModeModule {
    /// `format` with `{glyph}` and `{count}` filled in.
    fn fill(&self, format: &str, games: u32, out: &mut String) {
        format::fill(format, out, |key, out| {
            match key {
                "glyph" => out.push_str(&self.settings.glyph),
                "count" => {
                    let _ = write!(out, "{games}");
                }
                _ => return false,
            }
            true
        });
    }
}

impl Module for GameModeModule {
    fn name(&self) -> &str {
        "gamemode"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<GameMode>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let games = input.events.get::<GameMode>()?.games;
        if games == 0 && self.settings.hide_not_running {
            return None;
        }
        let format = (self.alternative).pick(&self.settings.format, &self.settings.format_alt);
        self.fill(format, games, out);
        Some(Status {
            class: (games > 0).then_some("running"),
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(state) = input.events.get::<GameMode>() else {
            return;
        };
        if !self.settings.tooltip {
            return;
        }
        let mut text = String::new();
        self.fill(&self.settings.tooltip_format, state.games, &mut text);
        untrusted(sink, &text);
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        self.alternative.click(button)
    }
}
