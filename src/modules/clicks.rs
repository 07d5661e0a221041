//! The commands a click or a scroll on a module runs, as in Waybar: `on-click`,
//! `on-click-middle`, `on-click-right`, `on-scroll-up`, `on-scroll-down`, and the side
//! buttons' `on-click-backward` and `on-click-forward`; and `format-alt-click`. Every
//! module takes them in its table, script modules too; each one set runs in place of the
//! module's own action for that button. `on-update` runs each time the module's label
//! is drawn with a new text.

use std::rc::Rc;

use serde::Deserialize;

use super::menu::Menu;
use super::Button;

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Clicks {
    #[serde(rename = "on-click")]
    left: Option<String>,
    #[serde(rename = "on-click-middle")]
    middle: Option<String>,
    #[serde(rename = "on-click-right")]
    right: Option<String>,
    #[serde(rename = "on-scroll-up")]
    scroll_up: Option<String>,
    #[serde(rename = "on-scroll-down")]
    scroll_down: Option<String>,
    #[serde(rename = "on-click-backward")]
    back: Option<String>,
    #[serde(rename = "on-click-forward")]
    forward: Option<String>,
    #[serde(rename = "on-update")]
    update: Option<String>,
    /// Waybar's `format-alt-click`: the button that switches to `format-alt` and back.
    #[serde(rename = "format-alt-click")]
    alt_click: Option<AltClick>,
    /// The menu a click opens (`menu`, `menu-file`, `menu-actions`), read apart.
    #[serde(skip)]
    pub menu: Option<Rc<Menu>>,
}

/// The button that switches a module to its `format-alt` and back, as Waybar's
/// `format-alt-click` names it.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum AltClick {
    Click,
    ClickMiddle,
    ClickRight,
    ClickBackward,
    ClickForward,
}

impl AltClick {
    /// The button this names.
    fn button(self) -> Button {
        match self {
            AltClick::Click => Button::Left,
            AltClick::ClickMiddle => Button::Middle,
            AltClick::ClickRight => Button::Right,
            AltClick::ClickBackward => Button::Back,
            AltClick::ClickForward => Button::Forward,
        }
    }
}

impl Clicks {
    /// The keys, as a module's table and Waybar's config name them.
    pub const KEYS: [&str; 9] = [
        "on-click",
        "on-click-middle",
        "on-click-right",
        "on-scroll-up",
        "on-scroll-down",
        "on-click-backward",
        "on-click-forward",
        "on-update",
        "format-alt-click",
    ];

    /// The shell command `button` runs, if one is set.
    pub fn command(&self, button: Button) -> Option<&str> {
        match button {
            Button::Left => &self.left,
            Button::Middle => &self.middle,
            Button::Right => &self.right,
            Button::ScrollUp => &self.scroll_up,
            Button::ScrollDown => &self.scroll_down,
            Button::Back => &self.back,
            Button::Forward => &self.forward,
        }
        .as_deref()
    }

    /// The shell command a new text of the label runs (`on-update`), if one is set.
    pub fn on_update(&self) -> Option<&str> {
        self.update.as_deref()
    }

    /// The menu `button` opens, if one is set for it.
    pub fn menu_of(&self, button: Button) -> Option<&Rc<Menu>> {
        self.menu.as_ref().filter(|menu| menu.button == button)
    }

    /// The button `format-alt-click` names, if set.
    pub fn alt_toggle(&self) -> Option<Button> {
        self.alt_click.map(AltClick::button)
    }

    pub fn is_empty(&self) -> bool {
        *self == Clicks::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_has_its_waybar_key() {
        let toml = "on-click = \"a\"\non-click-middle = \"b\"\non-click-right = \"c\"\n\
                    on-scroll-up = \"d\"\non-scroll-down = \"e\"\n\
                    on-click-backward = \"f\"\non-click-forward = \"g\"\n\
                    on-update = \"h\"\nformat-alt-click = \"click-right\"\n";
        let clicks: Clicks = toml::from_str(toml).expect("clicks");
        let buttons = [
            Button::Left,
            Button::Middle,
            Button::Right,
            Button::ScrollUp,
            Button::ScrollDown,
            Button::Back,
            Button::Forward,
        ];
        let commands: Vec<_> = buttons.map(|b| clicks.command(b).unwrap_or("")).to_vec();
        assert_eq!(commands, ["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(clicks.alt_toggle(), Some(Button::Right));
        assert_eq!(clicks.on_update(), Some("h"));
        for key in Clicks::KEYS {
            assert!(toml.contains(&format!("{key} =")), "{key} is read");
        }
    }
}
