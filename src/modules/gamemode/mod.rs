//! `gamemode`, as Waybar has it: whether games run with Feral GameMode's optimizations,
//! from gamemoded on the session bus (`com.feralinteractive.GameMode`, its
//! `ClientCount`). Waybar's icon by default (`use-icon`: the theme's `icon-name` before
//! the label, and `{glyph}` empty); `format`, with `{glyph}` and `{count}`, and
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
use super::picture::deserialize_spacing;
use super::{
    Action, Button, EventSource, Input, Module, ModuleKind, Picture, Status, Table, Update, Widget,
};
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
    /// The theme's icon before the label, and `{glyph}` empty.
    #[serde(rename = "use-icon")]
    use_icon: bool,
    #[serde(rename = "icon-name")]
    icon_name: String,
    #[serde(rename = "icon-size", deserialize_with = "icon_size")]
    icon_size: i32,
    #[serde(rename = "icon-spacing", deserialize_with = "deserialize_spacing")]
    icon_spacing: i32,
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
            use_icon: true,
            icon_name: "input-gaming-symbolic".to_owned(),
            icon_size: ICON_SIZE,
            icon_spacing: 4,
        }
    }
}

/// Waybar's icon size, and the size its `icon-size = 0` (auto) draws.
const ICON_SIZE: i32 = 20;
const AUTO_ICON_SIZE: i32 = 16;

fn icon_size<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    match deserialize_spacing(d)? {
        0 => Ok(AUTO_ICON_SIZE),
        size => Ok(size),
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
            "use-icon",
            "icon-name",
            "icon-size",
            "icon-spacing",
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
    /// `format` with `{glyph}` and `{count}` filled in. In the label, as Waybar fills
    /// them, the glyph is empty under the icon and the count empty at 0.
    fn fill(&self, format: &str, games: u32, label: bool, out: &mut String) {
        format::fill(format, out, |key, out| {
            match key {
                "glyph" if !(label && self.settings.use_icon) => {
                    out.push_str(&self.settings.glyph);
                }
                "glyph" => {}
                "count" if !(label && games == 0) => {
                    let _ = write!(out, "{games}");
                }
                "count" => {}
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

    fn widget(&self) -> Widget<'_> {
        if !self.settings.use_icon {
            return Widget::Label;
        }
        Widget::PictureAndLabel(Picture {
            source: &self.settings.icon_name,
            width: self.settings.icon_size,
            height: self.settings.icon_size,
            spacing: self.settings.icon_spacing,
        })
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let games = input.events.get::<GameMode>()?.games;
        if games == 0 && self.settings.hide_not_running {
            return None;
        }
        let format = (self.alternative).pick(&self.settings.format, &self.settings.format_alt);
        self.fill(format, games, true, out);
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
        self.fill(&self.settings.tooltip_format, state.games, false, &mut text);
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
