//! The commands a click or a scroll on a module runs, as in Waybar: `on-click`,
//! `on-click-middle`, `on-click-right`, `on-scroll-up` and `on-scroll-down`. Every
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
}

impl Clicks {
    /// The keys, as a module's table and Waybar's config name them.
    pub const KEYS: [&str; 5] = [
        "on-click",
        "on-click-middle",
        "on-click-right",
        "on-scroll-up",
        "on-scroll-down",
    ];

    /// The shell command `button` runs, if one is set.
    pub fn command(&self, button: Button) -> Option<&str> {
        match button {
            Button::Left => &self.left,
            Button::Middle => &self.middle,
            Button::Right => &self.right,
            Button::ScrollUp => &self.scroll_up,
            Button::ScrollDown => &self.scroll_down,
        }
        .as_deref()
    }

    pub fn is_empty(&self) -> bool {
        *self == Clicks::default()
    }
}
