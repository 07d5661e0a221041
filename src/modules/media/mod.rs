//! `media` (Waybar's `mpris`): what the media player that played last is playing, `▶
//! Artist - Title` by default (`{artist}`, `{title}`, `{album}`, `{dynamic}` (artist -
//! title, or the title alone), `{player}`, `{status}`, `{length}`, `{icon}` from
//! `format-icons` by status, and Waybar's `{player_icon}` and `{status_icon}` from
//! `player-icons` and `status-icons`), cut to `max-length` characters. Its class is the status
//! (`playing`, `paused`, `stopped`). The tooltip lists every player. A left click plays
//! or pauses, the wheel goes to the next or previous track, a right click raises the
//! player; `on-click…` commands take the place of these. Players listed in
//! `ignored-players` (by short name: `firefox`) are neither shown nor controlled.
//! Followed over MPRIS on the session bus (`crate::events::media`); hidden while no
//! player is there.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::media::MediaState;
use crate::events::media::{MediaCommand, Playback, Player, PlayerAction};
use crate::render::header;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 10] = [
    "artist",
    "title",
    "album",
    "dynamic",
    "player",
    "status",
    "length",
    "icon",
    "player_icon",
    "status_icon",
];

/// The settings, as Waybar names them (`ringbar import-waybar` carries them over).
pub const SETTINGS: &[&str] = &[
    "format",
    "format-playing",
    "format-paused",
    "format-stopped",
    "format-icons",
    "max-length",
    "ignored-players",
    "player-icons",
    "status-icons",
    "dynamic-separator",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked")]
    format: String,
    #[serde(rename = "format-playing", deserialize_with = "checked_optional")]
    format_playing: Option<String>,
    #[serde(rename = "format-paused", deserialize_with = "checked_optional")]
    format_paused: Option<String>,
    #[serde(rename = "format-stopped", deserialize_with = "checked_optional")]
    format_stopped: Option<String>,
    /// By status (`playing = "▶"`); `▶`, `‖` and `■` unless set.
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    #[serde(rename = "max-length")]
    max_length: usize,
    /// Read here, kept in [`Media::ignored`].
    #[serde(rename = "ignored-players")]
    ignored_players: Vec<String>,
    /// `{player_icon}` by player (`mpv`), else `default`, else nothing.
    #[serde(rename = "player-icons")]
    player_icons: BTreeMap<String, String>,
    /// `{status_icon}` by status (`paused`), else `default`, else nothing.
    #[serde(rename = "status-icons")]
    status_icons: BTreeMap<String, String>,
    /// Between the artist and the title in `{dynamic}`.
    #[serde(rename = "dynamic-separator")]
    dynamic_separator: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{icon} {dynamic}".to_owned(),
            format_playing: None,
            format_paused: None,
            format_stopped: None,
            format_icons: None,
            max_length: 48,
            ignored_players: Vec::new(),
            player_icons: BTreeMap::new(),
            status_icons: BTreeMap::new(),
            dynamic_separator: " - ".to_owned(),
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d).map(Some)
}

struct Media {
    /// `media`, or Waybar's `mpris` when listed so (its table and CSS class).
    kind: &'static str,
    settings: Settings,
    /// `ignored-players`, shared with the commands that name them.
    ignored: Rc<[String]>,
}

/// The `media` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "media",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        fields: &KEYS,
        ..Waybar::named(&["mpris"])
    }),
};

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let mut settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let ignored = std::mem::take(&mut settings.ignored_players).into();
    let kind = match name.split('#').next() {
        Some("mpris") => "mpris",
        _ => "media",
    };
    Ok(Rc::new(Media {
        kind,
        settings,
        ignored,
    }))
}

impl Media {
    fn format(&self, playback: Playback) -> &str {
        let s = &self.settings;
        let special = match playback {
            Playback::Playing => &s.format_playing,
            Playback::Paused => &s.format_paused,
            Playback::Stopped => &s.format_stopped,
        };
        special.as_deref().unwrap_or(&s.format)
    }

    fn icon(&self, playback: Playback) -> &str {
        match &self.settings.format_icons {
            Some(icons) => icons.icon(None, Some(playback.as_str())),
            None => match playback {
                Playback::Playing => "▶",
                Playback::Paused => "‖",
                Playback::Stopped => "■",
            },
        }
    }

    fn ask(&self, action: PlayerAction) -> Option<Action> {
        Some(Action::Command(SourceCommand::to::<MediaState>(
            MediaCommand {
                action,
                ignored: self.ignored.clone(),
            },
        )))
    }
}

/// `m:ss`, or `h:mm:ss` from an hour.
fn write_length(out: &mut String, microseconds: u64) {
    let seconds = microseconds / 1_000_000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let _ = match hours {
        0 => write!(out, "{minutes}:{seconds:02}"),
        _ => write!(out, "{hours}:{minutes:02}:{seconds:02}"),
    };
}

/// Cuts `out` to `max` characters, the last one an ellipsis.
fn cap(out: &mut String, max: usize) {
    if let Some((at, _)) = out.char_indices().nth(max.max(1)) {
        let mut end = at;
        if let Some((last, _)) = out[..at].char_indices().last() {
            end = last;
        }
        out.truncate(end);
        out.push('…');
    }
}

/// Waybar's icon for `key` in `icons`: its own, else the default, else none.
fn icon_for<'a>(icons: &'a BTreeMap<String, String>, key: &str) -> &'a str {
    icons
        .get(key)
        .or_else(|| icons.get("default"))
        .map_or("", String::as_str)
}

fn fill(format: &str, player: &Player, settings: &Settings, icon: &str, out: &mut String) {
    format::fill(format, out, |key, out| {
        match key {
            "artist" => out.push_str(&player.artist),
            "title" => out.push_str(&player.title),
            "album" => out.push_str(&player.album),
            "dynamic" => match (player.artist.is_empty(), player.title.is_empty()) {
                (false, false) => {
                    let separator = &settings.dynamic_separator;
                    let _ = write!(out, "{}{separator}{}", player.artist, player.title);
                }
                (true, false) => out.push_str(&player.title),
                (_, true) => out.push_str(player.name()),
            },
            "player" => out.push_str(player.name()),
            "status" => out.push_str(player.playback.as_str()),
            "length" => {
                if let Some(length) = player.length_us {
                    write_length(out, length);
                }
            }
            "icon" => out.push_str(icon),
            "player_icon" => out.push_str(icon_for(&settings.player_icons, player.name())),
            "status_icon" => {
                let status = player.playback.as_str();
                out.push_str(icon_for(&settings.status_icons, status));
            }
            _ => return false,
        }
        true
    });
}

impl Module for Media {
    fn name(&self) -> &str {
        self.kind
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<MediaState>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let player = input.events.get::<MediaState>()?.current(&self.ignored)?;
        let playback = player.playback;
        let (format, icon) = (self.format(playback), self.icon(playback));
        fill(format, player, &self.settings, icon, out);
        cap(out, self.settings.max_length);
        Some(Status {
            class: Some(playback.as_str()),
            ..Status::default()
        })
    }

    /// `Media`, then each player: its status, artist - title, album, length.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(state) = input.events.get::<MediaState>() else {
            return;
        };
        let current = state.current(&self.ignored);
        header(sink, "Media");
        let players = state.players.len();
        let _ = writeln!(
            sink.out(),
            "{players} player{}",
            if players == 1 { "" } else { "s" }
        );
        let mut line = String::new();
        for player in &state.players {
            let ignored = self.ignored.iter().any(|name| name == player.name());
            let marker = match (current == Some(player), ignored) {
                (true, _) => "▸ ",
                (false, false) => "  ",
                (false, true) => "  (ignored) ",
            };
            sink.out().push_str(marker);
            let name = match player.identity.is_empty() {
                true => player.name(),
                false => &player.identity,
            };
            untrusted(sink, name);
            let _ = write!(sink.out(), " · {}", player.playback.as_str());
            line.clear();
            fill("{dynamic}", player, &self.settings, "", &mut line);
            sink.out().push_str(" · ");
            untrusted(sink, &line);
            if !player.album.is_empty() {
                sink.out().push_str(" · ");
                untrusted(sink, &player.album);
            }
            if let Some(length) = player.length_us {
                sink.out().push_str(" · ");
                write_length(sink.out(), length);
            }
            sink.out().push('\n');
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        match button {
            Button::Left => self.ask(PlayerAction::PlayPause),
            Button::ScrollUp => self.ask(PlayerAction::Next),
            Button::ScrollDown => self.ask(PlayerAction::Previous),
            Button::Right => self.ask(PlayerAction::Raise),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
