//! `privacy` (as Waybar names it): shown while a microphone, a camera or the screen is
//! being captured, one part per kind: `MIC pw-record`, `CAM Firefox`, `SCREEN obs` by
//! default (`{apps}`: the applications, `{count}`, `{icon}`), with the applications,
//! their pids and the devices in the tooltip; hidden otherwise. Never ringbar's own.
//! Asked for (`speaker`, Waybar's `audio-out`), the applications playing sound too:
//! `OUT mpv`.
//!
//! With `icon-size` set, drawn as Waybar draws it: one icon per kind in use
//! (`#privacy-item.audio-in`), each with its own tooltip (`icons.rs`).
//!
//! The microphone: the sound server's streams that record from an input device (not a
//! sink's monitor) and are not paused, on the `audio` module's connection
//! (`crate::events::audio`); the speakers: its streams that play, not paused. Cameras and screen shares: PipeWire's video sources linked
//! to a running video stream (`crate::events::capture`); a source a device monitor made
//! is a camera, one a program made (a screen-cast portal) a screen share.

use std::fmt::Write;
use std::rc::Rc;

use serde::de::{self, Deserializer};
use serde::Deserialize;
use serde_json::Value as Json;

mod icons;

use super::format;
use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, Status, Table, Update, Widget};
use crate::events::audio::{AppStream, AudioState};
use crate::events::capture::CaptureKind;
use crate::events::capture::CaptureState;
use crate::render::header;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, Sink};

pub const KEYS: [&str; 3] = ["apps", "count", "icon"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    /// `format` before cameras were shown: still the microphone's.
    #[serde(rename = "format-microphone", alias = "format")]
    #[serde(deserialize_with = "checked")]
    format_microphone: String,
    #[serde(rename = "format-camera", deserialize_with = "checked")]
    format_camera: String,
    #[serde(rename = "format-screen", deserialize_with = "checked")]
    format_screen: String,
    #[serde(rename = "format-speaker", deserialize_with = "checked")]
    format_speaker: String,
    /// One icon (`""`), or one per kind (`{ microphone = "…", camera = "…" }`).
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    /// The kinds shown, by ringbar's names or Waybar's types; unset, all.
    #[serde(deserialize_with = "kinds")]
    modules: Vec<Kind>,
    /// Set: a row of icons this many pixels high (0: 16), in place of the text.
    #[serde(rename = "icon-size")]
    icon_size: Option<u16>,
    /// Between two icons, in pixels.
    #[serde(rename = "icon-spacing")]
    icon_spacing: u16,
    /// Each kind's icon, by the theme's icon names.
    #[serde(rename = "icon-names")]
    icon_names: icons::IconNames,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format_microphone: "MIC {apps}".to_owned(),
            format_camera: "CAM {apps}".to_owned(),
            format_screen: "SCREEN {apps}".to_owned(),
            format_speaker: "OUT {apps}".to_owned(),
            format_icons: None,
            modules: Kind::CAPTURES.to_vec(),
            icon_size: None,
            icon_spacing: 4,
            icon_names: icons::IconNames::default(),
        }
    }
}

/// `modules`: `microphone`, `camera`, `screen`, `speaker`, or Waybar's `audio-in` (the
/// microphone), `screenshare` (any video capture: cameras and screens) and `audio-out`
/// (the speakers).
fn kinds<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Kind>, D::Error> {
    let mut kinds = Vec::new();
    for name in Vec::<String>::deserialize(d)? {
        let named: &[Kind] = match name.as_str() {
            "microphone" | "audio-in" => &[Kind::Microphone],
            "camera" => &[Kind::Camera],
            "screen" => &[Kind::Screen],
            "screenshare" => &[Kind::Camera, Kind::Screen],
            "speaker" | "audio-out" => &[Kind::Speaker],
            other => {
                return Err(de::Error::custom(format!(
                    "`{other}`: the kinds are microphone, camera, screen and speaker \
                     (Waybar's audio-in, screenshare and audio-out)"
                )))
            }
        };
        kinds.extend(named);
    }
    Ok(kinds)
}

/// Waybar's `modules`, a list of objects by `type`, as ringbar's list of kinds: those it
/// shows, with the icon each names (`icon-name`), and nothing else set in them but the
/// tooltip's icon size (ringbar's tooltips are text).
fn from_waybar(key: &str, value: &Json) -> Carried {
    if key != "modules" {
        return Carried::No;
    }
    let Some(list) = value.as_array() else {
        return Carried::No;
    };
    let (mut types, mut names) = (Vec::new(), toml::Table::new());
    for module in list {
        let kind = module.get("type").and_then(Json::as_str).unwrap_or("");
        let plain = module.as_object().is_some_and(|object| {
            object.iter().all(|(key, value)| match key.as_str() {
                "type" | "tooltip-icon-size" => true,
                "icon-name" => value.is_string(),
                "tooltip" => value.as_bool() == Some(true),
                _ => false,
            })
        });
        let kinds: &[&str] = match kind {
            "audio-in" => &["microphone"],
            "screenshare" => &["camera", "screen"],
            "audio-out" => &["speaker"],
            _ => &[],
        };
        if !plain || kinds.is_empty() {
            return Carried::Refused(format!(
                "{module}: ringbar shows audio-in, screenshare and audio-out, with their \
                 tooltips"
            ));
        }
        types.push(toml::Value::String(kind.to_owned()));
        if let Some(icon) = module.get("icon-name").and_then(Json::as_str) {
            for kind in kinds {
                names.insert((*kind).to_owned(), toml::Value::String(icon.to_owned()));
            }
        }
    }
    let mut carried = vec![("modules".to_owned(), toml::Value::Array(types))];
    if !names.is_empty() {
        carried.push(("icon-names".to_owned(), toml::Value::Table(names)));
    }
    Carried::Set(carried)
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

/// What is captured, in the label's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Microphone,
    Camera,
    Screen,
    Speaker,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Microphone, Kind::Camera, Kind::Screen, Kind::Speaker];
    /// What is shown by default: what is captured. Sound playing is no one's privacy.
    const CAPTURES: [Kind; 3] = [Kind::Microphone, Kind::Camera, Kind::Screen];

    /// Its CSS class, and its key in `format-icons`.
    fn class(self) -> &'static str {
        match self {
            Kind::Microphone => "microphone",
            Kind::Camera => "camera",
            Kind::Screen => "screen",
            Kind::Speaker => "speaker",
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Kind::Microphone => "Microphone",
            Kind::Camera => "Camera",
            Kind::Screen => "Screen share",
            Kind::Speaker => "Speakers",
        }
    }
}

/// One application capturing: its name, its pid, what it captures from.
struct Capturing<'a> {
    app: &'a str,
    pid: Option<u32>,
    from: &'a str,
}

struct Privacy {
    settings: Settings,
}

/// The `privacy` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "privacy",
    make,
    waybar: Some(Waybar {
        settings: &["icon-size", "icon-spacing"],
        convert: from_waybar,
        // Waybar draws its icons, 20 pixels high, where ringbar writes text.
        defaults: &[("icon-size", 20)],
        ..Waybar::named(&["privacy"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Privacy { settings }))
}

/// Who captures `kind` now, in the source's order.
fn capturing<'a>(input: &'a Input<'_>, kind: Kind) -> Vec<Capturing<'a>> {
    let video = |wanted: CaptureKind| {
        let captures = input
            .events
            .get::<CaptureState>()
            .into_iter()
            .flat_map(|c| &c.captures);
        captures
            .filter(move |c| c.kind == wanted)
            .map(|c| Capturing {
                app: &c.app,
                pid: c.pid,
                from: &c.source,
            })
            .collect()
    };
    let audio = |streams: fn(&AudioState) -> &Vec<AppStream>| {
        let audio = input.events.get::<AudioState>();
        let streams = audio.into_iter().flat_map(streams);
        streams
            .map(|s| Capturing {
                app: &s.app,
                pid: s.pid,
                from: &s.device,
            })
            .collect()
    };
    match kind {
        Kind::Microphone => audio(|a| &a.recordings),
        Kind::Camera => video(CaptureKind::Camera),
        Kind::Screen => video(CaptureKind::Screen),
        Kind::Speaker => audio(|a| &a.playbacks),
    }
}

/// The applications, each once, in order.
fn apps<'a>(capturing: &[Capturing<'a>]) -> Vec<&'a str> {
    let mut apps: Vec<&str> = Vec::new();
    for one in capturing {
        if !apps.contains(&one.app) {
            apps.push(one.app);
        }
    }
    apps
}

/// The tooltip's part for `kind`: nothing while nothing captures it.
fn describe(sink: &mut dyn Sink, kind: Kind, capturing: &[Capturing<'_>]) {
    if capturing.is_empty() {
        return;
    }
    header(sink, kind.heading());
    sink.out().push_str("in use\n");
    for one in capturing {
        sink.out().push_str("  ");
        untrusted(sink, one.app);
        if let Some(pid) = one.pid {
            let _ = write!(sink.out(), " (pid {pid})");
        }
        if !one.from.is_empty() {
            sink.out().push_str(" · ");
            untrusted(sink, one.from);
        }
        sink.out().push('\n');
    }
}

impl Privacy {
    /// The kinds `modules` names, in the label's order.
    fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::ALL
            .into_iter()
            .filter(|kind| self.settings.modules.contains(kind))
    }

    fn format_of(&self, kind: Kind) -> &str {
        match kind {
            Kind::Microphone => &self.settings.format_microphone,
            Kind::Camera => &self.settings.format_camera,
            Kind::Screen => &self.settings.format_screen,
            Kind::Speaker => &self.settings.format_speaker,
        }
    }
}

impl Module for Privacy {
    fn name(&self) -> &str {
        "privacy"
    }

    /// Cameras and screen shares from PipeWire, microphones from the sound server.
    fn follows(&self) -> &[Update] {
        const {
            &[
                Update::Event(EventSource::of::<CaptureState>()),
                Update::Event(EventSource::of::<AudioState>()),
            ]
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let mut status: Option<Status> = None;
        for kind in self.kinds() {
            let apps = apps(&capturing(input, kind));
            if apps.is_empty() {
                continue;
            }
            match status.as_mut() {
                None => {
                    status = Some(Status {
                        class: Some(kind.class()),
                        ..Status::default()
                    })
                }
                Some(status) => {
                    status.classes.push(kind.class().to_owned());
                    out.push(' ');
                }
            }
            let icons = self.settings.format_icons.as_ref();
            let icon = icons.map_or("", |i| i.icon(None, Some(kind.class())));
            format::fill(self.format_of(kind), out, |key, out| {
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
        }
        status
    }

    /// For each kind in use, `Microphone  in use`, then each application: its name, its
    /// pid, the device.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        for kind in self.kinds() {
            describe(sink, kind, &capturing(input, kind));
        }
    }

    fn widget(&self) -> Widget<'_> {
        match self.settings.icon_size {
            Some(_) => Widget::Buttons(self),
            None => Widget::Label,
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        self.command(button).map(|_| Action::Run(button))
    }
}

#[cfg(test)]
mod tests;
