//! `mpd`, as Waybar has it: the song the Music Player Daemon plays, from MPD's own
//! protocol over TCP or a unix socket, followed with its `idle` command (no polling).
//! `{artist} - {title}` by default, `format-paused`, `format-stopped`, and
//! `format-disconnected` (empty by default: hidden while MPD does not answer); the
//! formats and icons are Pango markup, as in Waybar, and the tags are escaped into them. Classes
//! `playing`, `paused`, `stopped`, `disconnected`. A left click plays or pauses, a right
//! click stops (as in Waybar), a middle click and the wheel down skip to the next song,
//! the wheel up goes back; any `on-click*` key replaces its button's.

#[cfg(feature = "app")]
mod client;
#[cfg(feature = "app")]
mod connection;
mod fields;
mod protocol;
mod server;
mod settings;
mod syntax;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use serde::Deserialize;

use super::import::{Carried, Waybar};
use super::{Action, Button, EventSource, Input, Module, ModuleKind, SourceCommand, Status};
use super::{Table, Update};
use crate::events::{EventState, SourceSettings};
use crate::render::header;
use crate::text::Sink;
pub use settings::MpdServer;
use settings::Settings;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playback {
    #[default]
    Stopped,
    Playing,
    Paused,
}

impl Playback {
    fn as_str(self) -> &'static str {
        match self {
            Playback::Stopped => "stopped",
            Playback::Playing => "playing",
            Playback::Paused => "paused",
        }
    }
}

/// The current song's tags (`None`: the song has no such tag).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Song {
    pub artist: Option<String>,
    pub album_artist: Option<String>,
    pub album: Option<String>,
    pub title: Option<String>,
    pub date: Option<String>,
    /// A stream's name (radio), shown where the song has no title.
    pub name: Option<String>,
    /// Its path in MPD's music directory, or a stream's URL.
    pub uri: String,
}

impl Song {
    fn title(&self) -> Option<&String> {
        self.title.as_ref().or(self.name.as_ref())
    }
}

/// What MPD says, this module's event source: the play state, the current song, its
/// times, the queue and the options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MpdState {
    pub playback: Playback,
    pub song: Option<Song>,
    pub elapsed_s: u32,
    pub total_s: u32,
    /// `None` where MPD has no mixer.
    pub volume: Option<u8>,
    pub repeat: bool,
    pub random: bool,
    pub single: bool,
    pub consume: bool,
    /// The current song's place in the queue, from 1 (0: none).
    pub position: u32,
    pub queue_length: u32,
}

/// What a click asks of MPD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MpdCommand {
    /// Pause while playing; play otherwise.
    PlayPause,
    Stop,
    Next,
    Previous,
}

impl EventState for MpdState {
    const KEY: &'static str = "Mpd";
    type Command = MpdCommand;
    type Settings = MpdServer;
    #[cfg(feature = "app")]
    type Watch = client::MpdWatch;
}

/// The `mpd` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "mpd",
    make,
    waybar: Some(Waybar {
        settings: &[
            "server",
            "port",
            "password",
            "interval",
            "playing-interval",
            "timeout",
            "unknown-tag",
            "format",
            "format-paused",
            "format-stopped",
            "format-disconnected",
            "tooltip",
            "tooltip-format",
            "tooltip-format-disconnected",
            "artist-len",
            "album-len",
            "album-artist-len",
            "title-len",
            "ellipsis",
            "state-icons",
            "consume-icons",
            "random-icons",
            "repeat-icons",
            "single-icons",
        ],
        fields: &syntax::KEYS,
        convert: from_waybar,
        ..Waybar::named(&["mpd"])
    }),
};

/// A format carries over with its time specs (`{elapsedTime:%M:%S}`), and formats and
/// icons where they are markup ringbar takes.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    let multiline = key.starts_with("tooltip");
    let checked = match value {
        serde_json::Value::String(text) if key.ends_with("disconnected") => {
            syntax::check_markup(text, multiline)
        }
        serde_json::Value::String(text) if key.starts_with("format") || multiline => {
            syntax::check(text, multiline)
        }
        serde_json::Value::Object(icons) if key.ends_with("-icons") => icons
            .values()
            .filter_map(serde_json::Value::as_str)
            .try_for_each(|icon| syntax::check_markup(icon, false)),
        _ => return Carried::No,
    };
    match checked {
        Ok(()) => Carried::renamed(key, value),
        Err(why) => Carried::Refused(why),
    }
}

struct Mpd {
    settings: Settings,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Mpd { settings }))
}

impl Mpd {
    /// Each line of `format`, filled.
    fn tooltip_lines(&self, sink: &mut dyn Sink, format: &str, state: &MpdState) {
        let mut markup = String::new();
        for line in format.lines() {
            markup.clear();
            fields::fill(line, state, &self.settings, &mut markup);
            sink.checked_markup(&markup);
            sink.out().push('\n');
        }
    }
}

impl Module for Mpd {
    fn name(&self) -> &str {
        "mpd"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<MpdState>())] }
    }

    fn source_settings(&self) -> Option<SourceSettings> {
        Some(SourceSettings::of::<MpdState>(self.settings.server()))
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let s = &self.settings;
        let Some(state) = input.events.get::<MpdState>() else {
            if s.format_disconnected.is_empty() {
                return None;
            }
            out.push_str(&s.format_disconnected);
            return Some(Status {
                class: Some("disconnected"),
                markup: true,
                ..Status::default()
            });
        };
        let format = match (state.playback, &state.song) {
            (Playback::Stopped, _) | (_, None) => &s.format_stopped,
            (Playback::Paused, Some(_)) => s.format_paused.as_ref().unwrap_or(&s.format),
            (Playback::Playing, Some(_)) => &s.format,
        };
        fields::fill(format, state, s, out);
        let playback = match state.song {
            Some(_) => state.playback,
            None => Playback::Stopped,
        };
        Some(Status {
            class: Some(playback.as_str()),
            percentage: state.volume.map(f64::from),
            markup: true,
            ..Status::default()
        })
    }

    /// `MPD`, then `tooltip-format`, or the song: title, artist, album, times, queue.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let s = &self.settings;
        if !s.tooltip {
            return;
        }
        let Some(state) = input.events.get::<MpdState>() else {
            sink.checked_markup(&s.tooltip_format_disconnected);
            return;
        };
        if let Some(format) = &s.tooltip_format {
            self.tooltip_lines(sink, format, state);
            return;
        }
        header(sink, "MPD");
        let format = match state.song {
            Some(_) => "{title}\n{artist} · {album}\n{elapsedTime} / {totalTime} · {songPosition} of {queueLength}",
            None => "stopped · {queueLength} in the queue",
        };
        self.tooltip_lines(sink, format, state);
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        let command = match button {
            Button::Left => MpdCommand::PlayPause,
            Button::Right => MpdCommand::Stop,
            Button::Middle | Button::ScrollDown => MpdCommand::Next,
            Button::ScrollUp => MpdCommand::Previous,
            _ => return None,
        };
        Some(Action::Command(SourceCommand::to::<MpdState>(command)))
    }
}
