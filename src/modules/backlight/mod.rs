//! `backlight`: the screen's brightness, `LIGHT 50%` by default (`{percent}`, `{name}`,
//! `{icon}` from `format-icons` by percentage), of the device `device` names, else the
//! first firmware backlight, else platform, else raw. Scrolling steps it by
//! `scroll-step` percent (up brightens, unless `reverse-scrolling`). Changes come from
//! the kernel's uevents (`crate::events::backlight`), never polled; hidden without a
//! backlight. A left click switches to `format-alt` and back, when that is set. Waybar's
//! `states` name ranges of the percentage: the one reached is a CSS class, and its
//! `format-<state>` the label.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::alt_format::AltFormat;
use super::format;
use super::import::Waybar;
use super::states::States;
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::backlight::BacklightState;
use crate::events::backlight::{Backlight, BacklightCommand};
use crate::render::header;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, MarkupBuffer, Sink};

pub const KEYS: [&str; 3] = ["percent", "name", "icon"];

/// The settings, as Waybar names them (`ringbar import-waybar` carries them over).
pub const SETTINGS: &[&str] = &[
    "format",
    "format-alt",
    "format-icons",
    "tooltip-format",
    "device",
    "scroll-step",
    "reverse-scrolling",
    "states",
];

/// Unknown keys are refused in [`make`], but for each state's `format-<state>`.
#[derive(Deserialize)]
#[serde(default)]
struct Settings {
    #[serde(deserialize_with = "checked")]
    format: String,
    /// The label after a left click, and back.
    #[serde(rename = "format-alt", deserialize_with = "checked_optional")]
    format_alt: Option<String>,
    /// One icon, or a list from dark to bright.
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    /// Pango markup with the label's fields, instead of ringbar's tooltip.
    #[serde(rename = "tooltip-format", deserialize_with = "markup")]
    tooltip_format: Option<String>,
    /// The directory's name under /sys/class/backlight; read here, kept in
    /// [`BacklightModule::device`].
    device: Option<String>,
    #[serde(rename = "scroll-step")]
    scroll_step: f64,
    #[serde(rename = "reverse-scrolling")]
    reverse_scrolling: bool,
    states: States,
    /// The other keys: `format-<state>` for each of `states`.
    #[serde(flatten)]
    state_formats: BTreeMap<String, toml::Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "LIGHT {percent}%".to_owned(),
            format_alt: None,
            format_icons: None,
            tooltip_format: None,
            device: None,
            scroll_step: 5.0,
            reverse_scrolling: false,
            states: States::default(),
            state_formats: BTreeMap::new(),
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d).map(Some)
}

fn markup<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_markup(d, &KEYS)
}

/// The `format-<state>` keys, each checked; any other key unknown is an error.
fn state_formats(settings: &mut Settings) -> Result<BTreeMap<String, String>, toml::de::Error> {
    let mut formats = BTreeMap::new();
    for (key, value) in std::mem::take(&mut settings.state_formats) {
        let state = key.strip_prefix("format-");
        if !state.is_some_and(|state| settings.states.names().any(|n| n == state)) {
            // serde's words, which `check` and the man page's test read.
            let known: Vec<String> = SETTINGS.iter().map(|k| format!("`{k}`")).collect();
            return Err(serde::de::Error::custom(format!(
                "unknown field `{key}`, expected one of {}, or format-<state> for a state \
                 listed in `states`",
                known.join(", ")
            )));
        }
        let format = checked(value)
            .map_err(|e| serde::de::Error::custom(format!("{key}: {}", e.message())))?;
        formats.insert(state.unwrap_or_default().to_owned(), format);
    }
    Ok(formats)
}

struct BacklightModule {
    settings: Settings,
    /// Each state's label, by its name.
    state_formats: BTreeMap<String, String>,
    device: Option<Rc<str>>,
    alternative: AltFormat,
    tooltip_text: MarkupBuffer,
}

/// The `backlight` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "backlight",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        fields: &KEYS,
        convert: from_waybar,
        ..Waybar::named(&["backlight"])
    }),
};

/// The brightness comes from the kernel's change events: Waybar's polling `interval`
/// is not needed.
fn from_waybar(key: &str, value: &serde_json::Value) -> super::import::Carried {
    use super::import::{checked_format, Carried};
    match key {
        "interval" => Carried::NotNeeded,
        // A state's label (`format-bright`), beside the `states` it names.
        _ if key.starts_with("format-") && !SETTINGS.contains(&key) => {
            match checked_format(key, value, &KEYS) {
                Some(setting) => Carried::Set(vec![setting]),
                None => Carried::UnknownField,
            }
        }
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let mut settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    if !(settings.scroll_step.is_finite() && settings.scroll_step > 0.0) {
        return Err(serde::de::Error::custom(
            "scroll-step: a percentage above 0",
        ));
    }
    let device = settings.device.take().map(Rc::from);
    let state_formats = state_formats(&mut settings)?;
    Ok(Rc::new(BacklightModule {
        settings,
        state_formats,
        device,
        alternative: AltFormat::default(),
        tooltip_text: MarkupBuffer::default(),
    }))
}

impl BacklightModule {
    /// Writes the field `key` of `light`; false for a key that is not one.
    fn field(&self, light: &Backlight, key: &str, out: &mut String) -> bool {
        let percent = light.percent();
        match key {
            "percent" => {
                let _ = write!(out, "{percent}");
            }
            "name" => out.push_str(&light.name),
            "icon" => {
                let icons = self.settings.format_icons.as_ref();
                out.push_str(icons.map_or("", |i| i.icon(Some(f64::from(percent)), None)));
            }
            _ => return false,
        }
        true
    }

    fn shown<'a>(&self, input: &'a Input<'_>) -> Option<&'a Backlight> {
        input
            .events
            .get::<BacklightState>()?
            .pick(self.device.as_deref())
    }

    fn step(&self, up: bool) -> Option<Action> {
        let step = self.settings.scroll_step;
        let brighter = up != self.settings.reverse_scrolling;
        Some(Action::Command(SourceCommand::to::<BacklightState>(
            BacklightCommand {
                device: self.device.clone(),
                step: if brighter { step } else { -step },
            },
        )))
    }
}

impl Module for BacklightModule {
    fn name(&self) -> &str {
        "backlight"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<BacklightState>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let light = self.shown(input)?;
        let s = &self.settings;
        let percent = f64::from(light.percent());
        let state = s.states.of(percent);
        let main = state
            .and_then(|state| self.state_formats.get(&**state))
            .unwrap_or(&s.format);
        let format = self.alternative.pick_set(main, s.format_alt.as_deref());
        format::fill(format, out, |key, out| self.field(light, key, out));
        Some(Status {
            percentage: Some(percent),
            state: state.cloned(),
            ..Status::default()
        })
    }

    /// `Backlight  intel_backlight · 50% (12000 of 24000)`, or the user's
    /// `tooltip-format`.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(light) = self.shown(input) else {
            return;
        };
        if let Some(format) = &self.settings.tooltip_format {
            self.tooltip_text.write(sink, |text| {
                format::fill_escaped(format, text, &[], |key, out| self.field(light, key, out));
            });
            return;
        }
        header(sink, "Backlight");
        untrusted(sink, &light.name);
        let _ = writeln!(
            sink.out(),
            " · {}% ({} of {})",
            light.percent(),
            light.brightness,
            light.max
        );
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        match button {
            Button::ScrollUp => self.step(true),
            Button::ScrollDown => self.step(false),
            _ => (self.alternative).click_set(self.settings.format_alt.as_deref(), button),
        }
    }
}

#[cfg(test)]
mod tests;
