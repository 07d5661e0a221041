//! `audio` (also listed as Waybar's `pulseaudio` or `wireplumber`): the default sink's
//! volume, `VOL 45%`, or `VOL muted`, with `MIC muted` while the default source is muted;
//! `format-bluetooth` for a Bluetooth sink. Classes `muted` and `bluetooth`. Scrolling
//! changes the volume by `step` percent up to `max_volume`; a left click toggles the
//! mute, unless `on-click` is set, or switches to `format-alt` (in place of `format`) and
//! back when that is set. Its tooltip has the sink's description and port, the
//! other sinks and the source. The state comes from the sound server's events
//! (`crate::events::audio`); hidden while there is none.

#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::alt_format::AltFormat;
use super::format;
use super::import::{self, Carried, Waybar};
use super::number_spec::{self, write_number, NumberSpec};
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::audio::{AudioCommand, AudioSettings, AudioState, Sink};
use crate::events::SourceSettings;
use crate::render::header;
use crate::text::icons::FormatIcons;
use crate::text::MarkupBuffer;
use crate::text::{untrusted, Sink as TextSink};

/// The keys of the sink formats, and of the source formats.
pub const KEYS: [&str; 4] = ["volume", "icon", "desc", "format_source"];
pub const SOURCE_KEYS: [&str; 1] = ["volume"];

/// The settings, by the names Waybar gives them (`ringbar import-waybar` carries them
/// over); `step` and `max_volume` are also read as Waybar's `scroll-step`, `max-volume`.
pub const SETTINGS: &[&str] = &[
    "format",
    "format-muted",
    "format-bluetooth",
    "format-bluetooth-muted",
    "format-source",
    "format-source-muted",
    "format-icons",
    "format-alt",
    "scroll-step",
    "max-volume",
    "tooltip",
    "tooltip-format",
    "ignored-sinks",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "sink_format")]
    format: String,
    #[serde(rename = "format-muted", deserialize_with = "sink_format")]
    format_muted: String,
    /// In place of `format` after a left click, and back.
    #[serde(rename = "format-alt", deserialize_with = "optional_sink_format")]
    format_alt: Option<String>,
    #[serde(rename = "format-bluetooth", deserialize_with = "optional_sink_format")]
    format_bluetooth: Option<String>,
    #[serde(
        rename = "format-bluetooth-muted",
        deserialize_with = "optional_sink_format"
    )]
    format_bluetooth_muted: Option<String>,
    #[serde(rename = "format-source", deserialize_with = "source_format")]
    format_source: String,
    #[serde(rename = "format-source-muted", deserialize_with = "source_format")]
    format_source_muted: String,
    /// One icon, a list by volume, or a table by port kind (`headphone`, `speaker`,
    /// `hdmi`…, `default`).
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    #[serde(alias = "scroll-step", deserialize_with = "step")]
    step: f64,
    #[serde(alias = "max-volume", deserialize_with = "max_volume")]
    max_volume: f64,
    /// Whether the module has a tooltip.
    tooltip: bool,
    /// The tooltip as Pango markup with the label's fields; unset, ringbar's own.
    #[serde(rename = "tooltip-format", deserialize_with = "tooltip_format")]
    tooltip_format: Option<String>,
    /// Sinks, by their description, never shown: another one is, where there is one.
    #[serde(rename = "ignored-sinks")]
    ignored_sinks: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "VOL {volume}%{format_source}".to_owned(),
            format_muted: "VOL muted{format_source}".to_owned(),
            format_alt: None,
            format_bluetooth: None,
            format_bluetooth_muted: None,
            format_source: String::new(),
            format_source_muted: " MIC muted".to_owned(),
            format_icons: None,
            step: 5.0,
            max_volume: 100.0,
            tooltip: true,
            tooltip_format: None,
            ignored_sinks: Vec::new(),
        }
    }
}

/// A format whose `{volume}` may carry fmt's number spec (`{volume:3}`), as Waybar's.
fn checked<'de, D: Deserializer<'de>>(d: D, keys: &[&str]) -> Result<String, String> {
    let text = String::deserialize(d).map_err(|err| err.to_string())?;
    format::check_numbers(&text, keys)?;
    Ok(text)
}

fn sink_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    checked(d, &KEYS).map_err(serde::de::Error::custom)
}

fn optional_sink_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    sink_format(d).map(Some)
}

fn tooltip_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = sink_format(d)?;
    crate::text::markup::check(&text, true).map_err(serde::de::Error::custom)?;
    Ok(Some(text))
}

fn source_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    checked(d, &SOURCE_KEYS).map_err(serde::de::Error::custom)
}

fn step<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let step = f64::deserialize(d)?;
    match step > 0.0 && step <= 100.0 {
        true => Ok(step),
        false => Err(de::Error::custom(format!(
            "a step of {step} is not between 0 and 100 percent"
        ))),
    }
}

fn max_volume<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let max = f64::deserialize(d)?;
    match (1.0..=150.0).contains(&max) {
        true => Ok(max),
        false => Err(de::Error::custom(format!(
            "a maximum volume of {max} is not between 1 and 150 percent"
        ))),
    }
}

struct Audio {
    /// `audio`, or the Waybar name it was listed as: its CSS class.
    kind: &'static str,
    settings: Settings,
    alternative: AltFormat,
    /// The user's tooltip as it is filled, kept so that drawing it allocates nothing.
    tooltip_text: MarkupBuffer,
}

/// The `audio` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "audio",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        fields: &KEYS,
        convert: from_waybar,
        ..Waybar::named(&["pulseaudio", "wireplumber"])
    }),
};

/// The source's formats take their own fields.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    if !(key.starts_with("format-source") && SETTINGS.contains(&key)) {
        return Carried::No;
    }
    match import::checked_format(key, value, &SOURCE_KEYS) {
        Some(setting) => Carried::Set(vec![setting]),
        None => Carried::UnknownField,
    }
}

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let kind = match name.split('#').next() {
        Some("pulseaudio") => "pulseaudio",
        Some("wireplumber") => "wireplumber",
        _ => "audio",
    };
    Ok(Rc::new(Audio {
        kind,
        settings,
        alternative: AltFormat::default(),
        tooltip_text: MarkupBuffer::default(),
    }))
}

impl Audio {
    /// Appends the formats' field `key`; `false` for one they do not have.
    fn field(
        &self,
        key: &str,
        spec: Option<NumberSpec>,
        out: &mut String,
        state: &AudioState,
        sink: &Sink,
    ) -> bool {
        match key {
            "volume" => write_number(out, sink.volume.round(), spec),
            "icon" => {
                let icons = self.settings.format_icons.as_ref();
                let kind = Some(sink.port_kind());
                out.push_str(icons.map_or("", |i| i.icon(Some(sink.volume), kind)));
            }
            "desc" => out.push_str(&sink.description),
            "format_source" => self.write_source(state, out),
            _ => return false,
        }
        true
    }

    fn sink_format(&self, sink: &Sink) -> &str {
        let s = &self.settings;
        let format = self
            .alternative
            .pick_set(&s.format, s.format_alt.as_deref());
        match (sink.bluetooth, sink.muted) {
            (true, false) => s.format_bluetooth.as_deref().unwrap_or(format),
            (true, true) => s
                .format_bluetooth_muted
                .as_deref()
                .unwrap_or(&s.format_muted),
            (false, false) => format,
            (false, true) => &s.format_muted,
        }
    }

    fn write_source(&self, state: &AudioState, out: &mut String) {
        let Some(source) = &state.source else {
            return;
        };
        let format = match source.muted {
            true => &self.settings.format_source_muted,
            false => &self.settings.format_source,
        };
        format::fill_numbers(format, out, |key, spec, out| match key {
            "volume" => {
                write_number(out, source.volume.round(), spec);
                true
            }
            _ => false,
        });
    }
}

impl Module for Audio {
    fn name(&self) -> &str {
        self.kind
    }

    fn source_settings(&self) -> Option<SourceSettings> {
        let ignored_sinks = &self.settings.ignored_sinks;
        (!ignored_sinks.is_empty()).then(|| {
            let ignored_sinks = ignored_sinks.clone();
            SourceSettings::of::<AudioState>(AudioSettings { ignored_sinks })
        })
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<AudioState>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let state = input.events.get::<AudioState>()?;
        let sink = state.default_sink()?;
        format::fill_numbers(self.sink_format(sink), out, |key, spec, out| {
            self.field(key, spec, out, state, sink)
        });
        let mut classes = Vec::new();
        if sink.muted {
            classes.push("muted".to_owned());
        }
        if sink.bluetooth {
            classes.push("bluetooth".to_owned());
        }
        if state.source.as_ref().is_some_and(|s| s.muted) {
            classes.push("source-muted".to_owned());
        }
        Some(Status {
            percentage: Some(sink.volume),
            classes,
            ..Status::default()
        })
    }

    /// `Audio  Built-in Audio · 45%`, its port, the other sinks and the source.
    fn tooltip(&self, sink_out: &mut dyn TextSink, input: &Input<'_>) {
        let Some(state) = input
            .events
            .get::<AudioState>()
            .filter(|_| self.settings.tooltip)
        else {
            return;
        };
        let Some(sink) = state.default_sink() else {
            return;
        };
        if let Some(format) = &self.settings.tooltip_format {
            self.tooltip_text.write(sink_out, |text| {
                format::fill_escaped(format, text, &[], |key, out| {
                    number_spec::split(key)
                        .is_some_and(|(name, spec)| self.field(name, spec, out, state, sink))
                });
            });
            return;
        }
        header(sink_out, "Audio");
        write_sink(sink_out, sink);
        if let Some(port) = sink.port_description.as_deref().or(sink.port.as_deref()) {
            sink_out.out().push_str("  port ");
            untrusted(sink_out, port);
            sink_out.out().push('\n');
        }
        for other in state.sinks.iter().filter(|s| s.name != sink.name) {
            sink_out.out().push_str("  also ");
            write_sink(sink_out, other);
        }
        if let Some(source) = &state.source {
            sink_out.out().push_str("  input ");
            untrusted(sink_out, &source.description);
            let out = sink_out.out();
            match source.muted {
                true => out.push_str(" · muted\n"),
                false => {
                    let _ = writeln!(out, " · {:.0}%", source.volume);
                }
            }
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        let alt = self.settings.format_alt.as_deref();
        if let Some(switched) = self.alternative.click_set(alt, button) {
            return Some(switched);
        }
        let step = self.settings.step;
        let change = |percent| AudioCommand::ChangeVolume {
            percent,
            max_percent: self.settings.max_volume,
        };
        let command = match button {
            Button::Left => AudioCommand::ToggleMute,
            Button::ScrollUp => change(step),
            Button::ScrollDown => change(-step),
            _ => return None,
        };
        Some(Action::Command(SourceCommand::to::<AudioState>(command)))
    }
}

/// `Built-in Audio · 45%` (or `· muted`), a line.
fn write_sink(out: &mut dyn TextSink, sink: &Sink) {
    untrusted(out, &sink.description);
    let text = out.out();
    match sink.muted {
        true => text.push_str(" · muted"),
        false => {
            let _ = write!(text, " · {:.0}%", sink.volume);
        }
    }
    if sink.bluetooth {
        text.push_str(" · bluetooth");
    }
    text.push('\n');
}
