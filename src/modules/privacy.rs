//! `privacy` (as Waybar names it): shown while a microphone is in use, `MIC pw-record`
//! by default (`{apps}`: the recording applications, `{count}`, `{icon}`), with the
//! applications, their pids and the devices in the tooltip; hidden otherwise. The
//! recordings are the sound server's streams that record from an input device (not a
//! sink's monitor), not paused, and not ringbar's own; followed with the `audio`
//! module's connection (`crate::events::audio`).

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::{Action, Button, Input, Module, Source, Status, Table, Update};
use crate::events::audio::Recording;
use crate::events::script::FormatIcons;
use crate::render::header;
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 3] = ["apps", "count", "icon"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked")]
    format: String,
    /// One icon (`""`), or a list by count.
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    #[serde(rename = "on-click")]
    on_click: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "MIC {apps}".to_owned(),
            format_icons: None,
            on_click: None,
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

struct Privacy {
    settings: Settings,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Privacy { settings }))
}

/// The applications recording, each once, in the server's order.
fn apps(recordings: &[Recording]) -> Vec<&str> {
    let mut apps: Vec<&str> = Vec::new();
    for recording in recordings {
        if !apps.contains(&recording.app.as_str()) {
            apps.push(&recording.app);
        }
    }
    apps
}

impl Module for Privacy {
    fn name(&self) -> &str {
        "privacy"
    }

    fn update(&self) -> Update {
        Update::Event(Source::Audio)
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let recordings = &input.events.audio.as_ref()?.recordings;
        if recordings.is_empty() {
            return None;
        }
        let apps = apps(recordings);
        let icons = self.settings.format_icons.as_ref();
        let icon = icons.map_or("", |i| i.icon(None, Some("microphone")));
        format::fill(&self.settings.format, out, |key, out| {
            match key {
                "apps" => out.push_str(&apps.join(", ")),
                "count" => {
                    let _ = write!(out, "{}", apps.len());
                }
                "icon" => out.push_str(icon),
                _ => return false,
            }
            true
        });
        Some(Status {
            class: Some("microphone"),
            ..Status::default()
        })
    }

    /// `Microphone  in use`, then each recording: the app, its pid, the device.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(audio) = input.events.audio.as_ref() else {
            return;
        };
        header(sink, "Microphone");
        sink.out().push_str("in use\n");
        for recording in &audio.recordings {
            sink.out().push_str("  ");
            untrusted(sink, &recording.app);
            if let Some(pid) = recording.pid {
                let _ = write!(sink.out(), " (pid {pid})");
            }
            if !recording.source.is_empty() {
                sink.out().push_str(" · ");
                untrusted(sink, &recording.source);
            }
            sink.out().push('\n');
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        self.command(button).map(|_| Action::Run(button))
    }

    fn command(&self, button: Button) -> Option<&str> {
        let s = &self.settings;
        super::click_command(button, [&s.on_click, &None, &None])
    }
}

#[cfg(test)]
#[path = "privacy_tests.rs"]
mod tests;
