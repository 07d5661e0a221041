//! The commands a click or a scroll on a module runs, as in Waybar: `on-click`,
//! `on-click-middle`, `on-click-right`, `on-scroll-up`, `on-scroll-down`, and the side
//! buttons' `on-click-backward` and `on-click-forward`. Every
//! module takes them in its table; each one set runs in place of the module's own action
//! for that button.

use serde::Deserialize;

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
}

impl Clicks {
    /// The keys, as a module's table and Waybar's config name them.
    pub const KEYS: [&str; 7] = [
        "on-click",
        "on-click-middle",
        "on-click-right",
        "on-scroll-up",
        "on-scroll-down",
        "on-click-backward",
        "on-click-forward",
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
                    on-click-backward = \"f\"\non-click-forward = \"g\"\n";
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
        for key in Clicks::KEYS {
            assert!(toml.contains(&format!("{key} =")), "{key} is read");
        }
    }
}
