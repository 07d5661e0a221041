//! `idle_inhibitor` (as Waybar names it): a click keeps the compositor from going idle
//! (no blanking or locking by swayidle or hypridle) until the next click. `AWAKE` while
//! on and `idle` while off by default (`{status}`: `activated` or `deactivated`, `{icon}`
//! from `format-icons` by status). Its class is the status. The inhibitor is Wayland's
//! idle-inhibit protocol on the bar's own surface (`crate::events::idle_inhibitor`);
//! hidden where the compositor lacks it, and in `--once`, which has no surface.

use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, EventSource, Input, Module, SourceCommand, Status, Table, Update};
use crate::events::idle_inhibitor::{IdleCommand, IdleInhibition};
use crate::text::icons::FormatIcons;
use crate::text::{MarkupBuffer, Sink};

pub const KEYS: [&str; 2] = ["status", "icon"];

/// The settings, as Waybar names them (`ringbar import-waybar` carries them over).
pub const SETTINGS: &[&str] = &[
    "format",
    "format-icons",
    "tooltip-format-activated",
    "tooltip-format-deactivated",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked")]
    format: String,
    /// By status; `AWAKE` and `idle` unless set.
    #[serde(rename = "format-icons")]
    format_icons: Option<FormatIcons>,
    /// Pango markup with the label's fields, instead of ringbar's tooltip, by status.
    #[serde(rename = "tooltip-format-activated", deserialize_with = "markup")]
    tooltip_format_activated: Option<String>,
    #[serde(rename = "tooltip-format-deactivated", deserialize_with = "markup")]
    tooltip_format_deactivated: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{icon}".to_owned(),
            format_icons: None,
            tooltip_format_activated: None,
            tooltip_format_deactivated: None,
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn markup<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_markup(d, &KEYS)
}

struct IdleInhibitor {
    settings: Settings,
    tooltip_text: MarkupBuffer,
}

/// The status as Waybar names it, and as the class.
fn status_of(on: bool) -> &'static str {
    if on {
        "activated"
    } else {
        "deactivated"
    }
}

impl IdleInhibitor {
    /// Writes the field `key`; false for a key that is not one.
    fn field(&self, on: bool, key: &str, out: &mut String) -> bool {
        let status = status_of(on);
        match key {
            "status" => out.push_str(status),
            "icon" => out.push_str(match &self.settings.format_icons {
                Some(icons) => icons.icon(None, Some(status)),
                None if on => "AWAKE",
                None => "idle",
            }),
            _ => return false,
        }
        true
    }
}

/// The `idle_inhibitor` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "idle_inhibitor",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        fields: &KEYS,
        ..Waybar::named(&["idle_inhibitor"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(IdleInhibitor {
        settings,
        tooltip_text: MarkupBuffer::default(),
    }))
}

impl Module for IdleInhibitor {
    fn name(&self) -> &str {
        "idle_inhibitor"
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Event(EventSource::of::<IdleInhibition>())] }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let on = input.events.get::<IdleInhibition>()?.on;
        format::fill(&self.settings.format, out, |key, out| {
            self.field(on, key, out)
        });
        Some(Status {
            class: Some(status_of(on)),
            ..Status::default()
        })
    }

    /// ringbar's words, or the user's `tooltip-format-activated` or `-deactivated`.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let on = input.events.get::<IdleInhibition>().map(|i| i.on);
        let s = &self.settings;
        let own = match on {
            Some(true) => s.tooltip_format_activated.as_deref(),
            Some(false) => s.tooltip_format_deactivated.as_deref(),
            None => None,
        };
        if let (Some(format), Some(on)) = (own, on) {
            // Only its own words and icons: nothing to escape.
            self.tooltip_text.write(sink, |text| {
                format::fill(format, text, |key, out| self.field(on, key, out));
            });
            return;
        }
        let text = match on {
            Some(true) => "Idle inhibitor on: the screen stays awake",
            Some(false) => "Idle inhibitor off",
            None => return,
        };
        sink.out().push_str(text);
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, button: Button) -> Option<Action> {
        (button == Button::Left).then_some(Action::Command(SourceCommand::to::<IdleInhibition>(
            IdleCommand::Toggle,
        )))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::modules::tests::input;
    use crate::modules::Events;
    use crate::sample::Sample;
    use crate::text::Plain;

    fn module(toml: &str) -> Rc<dyn Module> {
        let text = format!("modules_right = [\"idle_inhibitor\"]\n[idle_inhibitor]\n{toml}");
        let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
        config.modules.right[0].clone()
    }

    fn shown(module: &dyn Module, on: Option<bool>) -> (String, Option<&'static str>, String) {
        let events = Events::default().with(on.map(|on| IdleInhibition { on }));
        let sample = Sample::default();
        let input = Input {
            events: &events,
            ..input(&sample)
        };
        let mut out = String::new();
        let class = module.text(&input, &mut out).and_then(|s| s.class);
        let mut tooltip = String::new();
        module.tooltip(&mut Plain(&mut tooltip), &input);
        (out, class, tooltip)
    }

    #[test]
    fn the_users_tooltips_by_status() {
        let idle = module(
            "tooltip-format-activated = \"<b>{status}</b> {icon}\"\n\
             tooltip-format-deactivated = \"off\"",
        );
        // Plain text of the markup.
        assert_eq!(shown(idle.as_ref(), Some(true)).2, "activated AWAKE");
        assert_eq!(shown(idle.as_ref(), Some(false)).2, "off");
        assert!(shown(module("").as_ref(), Some(false))
            .2
            .contains("Idle inhibitor off"));
    }

    #[test]
    fn on_and_off_with_their_classes_and_icons() {
        let idle = module("");
        let (text, class, tooltip) = shown(idle.as_ref(), Some(true));
        assert_eq!((text.as_str(), class), ("AWAKE", Some("activated")));
        assert!(tooltip.contains("stays awake"), "{tooltip}");
        let (text, class, _) = shown(idle.as_ref(), Some(false));
        assert_eq!((text.as_str(), class), ("idle", Some("deactivated")));
        assert_eq!(
            shown(idle.as_ref(), None),
            (String::new(), None, String::new())
        );
        let waybar = module(
            "format = \"{icon} {status}\"\nformat-icons = { activated = \"A\", deactivated = \"D\" }",
        );
        assert_eq!(shown(waybar.as_ref(), Some(true)).0, "A activated");
        assert_eq!(shown(waybar.as_ref(), Some(false)).0, "D deactivated");
    }

    #[test]
    fn a_left_click_toggles() {
        let idle = module("on-click-right = \"swaylock\"");
        assert_eq!(
            idle.action(Button::Left),
            Some(Action::Command(SourceCommand::to::<IdleInhibition>(
                IdleCommand::Toggle
            )))
        );
        assert_eq!(idle.action(Button::Right), Some(Action::Run(Button::Right)));
        assert_eq!(idle.action(Button::Middle), None);
        assert!(idle
            .follows()
            .contains(&Update::Event(EventSource::of::<IdleInhibition>())));
        // As every module's, a left click runs the user's command when there is one.
        let own = module("on-click = \"notify-send hi\"");
        assert_eq!(own.action(Button::Left), Some(Action::Run(Button::Left)));
        assert_eq!(own.command(Button::Left), Some("notify-send hi"));
        for bad in ["format = \"{mode}\"", "on-click = 1", "timeout = 5"] {
            let text = format!("modules_right = [\"idle_inhibitor\"]\n[idle_inhibitor]\n{bad}\n");
            assert!(
                crate::config::parse(&text, Path::new("c.toml")).is_err(),
                "{bad}"
            );
        }
    }
}
