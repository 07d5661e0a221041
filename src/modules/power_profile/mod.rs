//! `power_profile` (Waybar's `power-profiles-daemon`): the active profile of
//! power-profiles-daemon, `PWR balanced` by default (`{profile}`, `{driver}`, `{icon}`
//! from `format-icons` by profile). Its class is the profile (`performance`,
//! `balanced`, `power-saver`), with `degraded` while performance runs degraded. The
//! tooltip has the driver, any degradation and the profiles. A left click switches to
//! the next profile. Followed on the system bus (`crate::events::power_profiles`);
//! hidden without the daemon.

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::power_profiles::{PowerProfileCommand, PowerProfiles};
use crate::render::header;
use crate::text::icons::FormatIcons;
use crate::text::{untrusted, MarkupBuffer, Sink};

pub const KEYS: [&str; 3] = ["profile", "driver", "icon"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    /// One icon, a list, or a table by profile (`performance = "…"`).
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    /// Pango markup with the label's fields, instead of ringbar's tooltip.
    #[serde(rename = "tooltip-format", deserialize_with = "markup")]
    tooltip_format: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "PWR {profile}".to_owned(),
            format_icons: None,
            tooltip_format: None,
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn markup<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_markup(d, &KEYS)
}

struct PowerProfile {
    settings: Settings,
    tooltip_text: MarkupBuffer,
}

impl PowerProfile {
    /// Writes the field `key` of `state`; false for a key that is not one.
    fn field(&self, state: &PowerProfiles, key: &str, out: &mut String) -> bool {
        match key {
            "profile" => out.push_str(&state.active),
            "driver" => out.push_str(state.driver()),
            "icon" => {
                let icons = self.settings.format_icons.as_ref();
                out.push_str(icons.map_or("", |icons| icons.icon(None, Some(&state.active))));
            }
            _ => return false,
        }
        true
    }
}

/// The `power_profile` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "power_profile",
    make,
    waybar: Some(Waybar {
        settings: &["format", "format-icons", "tooltip-format"],
        fields: &KEYS,
        ..Waybar::named(&["power-profiles-daemon"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(PowerProfile {
        settings,
        tooltip_text: MarkupBuffer::default(),
    }))
}

/// The profiles power-profiles-daemon defines, as CSS classes.
fn class_of(profile: &str) -> Option<&'static str> {
    ["performance", "balanced", "power-saver"]
        .into_iter()
        .find(|known| *known == profile)
}

impl Module for PowerProfile {
    fn name(&self) -> &str {
        "power_profile"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<PowerProfiles>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let state: &PowerProfiles = input.events.get::<PowerProfiles>()?;
        format::fill(&self.settings.format, out, |key, out| {
            self.field(state, key, out)
        });
        let mut status = Status {
            class: class_of(&state.active),
            ..Status::default()
        };
        if !state.degraded.is_empty() {
            status.classes.push("degraded".to_owned());
        }
        Some(status)
    }

    /// `Power profile  balanced · driver placeholder`, the degradation, the profiles; or
    /// the user's `tooltip-format`.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(state) = input.events.get::<PowerProfiles>() else {
            return;
        };
        if let Some(format) = &self.settings.tooltip_format {
            self.tooltip_text.write(sink, |text| {
                format::fill_escaped(format, text, &[], |key, out| self.field(state, key, out));
            });
            return;
        }
        header(sink, "Power profile");
        untrusted(sink, &state.active);
        if !state.driver().is_empty() {
            sink.out().push_str(" · driver ");
            untrusted(sink, state.driver());
        }
        sink.out().push('\n');
        if !state.degraded.is_empty() {
            sink.out().push_str("  performance degraded: ");
            untrusted(sink, &state.degraded);
            sink.out().push('\n');
        }
        for profile in &state.profiles {
            let marker = if profile.name == state.active {
                "▸ "
            } else {
                "  "
            };
            let _ = write!(sink.out(), "{marker}");
            untrusted(sink, &profile.name);
            sink.out().push('\n');
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        (button == Button::Left).then_some(Action::Command(SourceCommand::to::<PowerProfiles>(
            PowerProfileCommand::Cycle,
        )))
    }
}

#[cfg(test)]
mod tests;
