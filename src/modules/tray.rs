//! `tray`: the system tray, StatusNotifierItem icons with their menus. Its widgets are
//! drawn by the bar's D-Bus edge (`ui::tray`) as items come and go; it has no text, so
//! `--once` and `--waybar` leave it out.

use std::rc::Rc;

use serde::Deserialize;

use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::Widget;
use super::{Action, Button, Input, Module, Status, Table, Update};
use crate::text::Sink;

/// The `[tray]` table.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct TraySettings {
    /// Icons are drawn at this many pixels.
    pub icon_size: u32,
    /// Pixels between icons.
    pub spacing: u32,
    /// Show items whose status is `Passive` (with the `passive` class).
    pub show_passive: bool,
}

impl Default for TraySettings {
    fn default() -> Self {
        TraySettings {
            icon_size: 16,
            spacing: 4,
            show_passive: false,
        }
    }
}

/// Icons smaller or larger than this are no icons for a bar.
const ICON_SIZES: std::ops::RangeInclusive<u32> = 8..=128;

struct Tray {
    settings: TraySettings,
}

/// The `tray` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "tray",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        ..Waybar::named(&["tray"])
    }),
};

fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "icon-size" => Carried::renamed("icon_size", value),
        "spacing" => Carried::renamed("spacing", value),
        "show-passive-items" => Carried::renamed("show_passive", value),
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => TraySettings::deserialize(table)?,
        None => TraySettings::default(),
    };
    if !ICON_SIZES.contains(&settings.icon_size) {
        return Err(serde::de::Error::custom(format!(
            "tray.icon_size must be within {}–{} pixels",
            ICON_SIZES.start(),
            ICON_SIZES.end()
        )));
    }
    if settings.spacing > 64 {
        return Err(serde::de::Error::custom(
            "tray.spacing must be at most 64 pixels",
        ));
    }
    Ok(Rc::new(Tray { settings }))
}

impl Module for Tray {
    fn name(&self) -> &str {
        "tray"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Bus]
    }

    fn widget(&self) -> Widget<'_> {
        Widget::Tray(&self.settings)
    }

    fn text(&self, _input: &Input<'_>, _out: &mut String) -> Option<Status> {
        None
    }

    fn tooltip(&self, _sink: &mut dyn Sink, _input: &Input<'_>) {}

    /// Clicks go to the items.
    fn action(&self, _button: Button) -> Option<Action> {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::config;
    use crate::modules::tests::{default_module, text_of};
    use crate::modules::Update;
    use crate::modules::Widget;
    use crate::sample::Sample;

    #[test]
    fn settings_defaults_limits_and_no_text() {
        let tray = default_module("tray");
        assert_eq!(tray.follows(), [Update::Bus]);
        let Widget::Tray(settings) = tray.widget() else {
            panic!("the tray has settings");
        };
        assert_eq!((settings.icon_size, settings.spacing), (16, 4));
        assert!(!settings.show_passive);
        assert_eq!(text_of("tray", &Sample::default()), (String::new(), None));

        let parse = |text: &str| config::parse(text, "c.toml".as_ref());
        let set =
            parse("modules_right = [\"tray\"]\n[tray]\nicon_size = 24\nshow_passive = true\n")
                .expect("valid");
        let Widget::Tray(settings) = set.modules.right[0].widget() else {
            panic!("tray");
        };
        let settings = settings.clone();
        assert_eq!((settings.icon_size, settings.show_passive), (24, true));
        for bad in [
            "icon_size = 2",
            "icon_size = 1000",
            "spacing = 500",
            "iconsize = 16",
        ] {
            let text = format!("modules_right = [\"tray\"]\n[tray]\n{bad}\n");
            assert!(parse(&text).is_err(), "{bad}");
        }
    }
}
