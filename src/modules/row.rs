//! Modules drawn as a row of buttons (`workspaces`, `taskbar`): what each button shows,
//! and what a press on it asks.

use super::{Action, Button, Input};
use crate::events::compositor::Workspace;
use crate::events::script::ScriptConfig;

/// A module drawn as a row of buttons.
pub trait ButtonRow {
    /// Its buttons for `input`, into `out` (emptied first).
    fn buttons(&self, input: &Input<'_>, out: &mut Vec<RowButton>);

    /// What a press of `which` on the button for `target` asks; `configured` is the
    /// user's `on-click*` for that mouse button, if set.
    fn press(&self, target: &Target, which: Button, configured: Option<&str>) -> Option<Action>;

    /// How its icons are drawn, for a row whose buttons have any.
    fn icons(&self) -> IconStyle {
        IconStyle::default()
    }

    /// The script whose output the buttons come from, for a row that has one (an
    /// `image` with `multiple` and `exec`).
    fn script(&self) -> Option<&ScriptConfig> {
        None
    }
}

/// One button of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowButton {
    /// Its text; hidden when empty and the button has an icon.
    pub label: String,
    /// `focused`, `visible`, `urgent`, `empty` or `occupied`, `special`; `active`,
    /// `minimized`, `maximized`, `fullscreen`.
    pub classes: Vec<&'static str>,
    /// A class the user names (an image entry's `marker`), a safe CSS name.
    pub class: Option<String>,
    /// An icon before the text: GIO's icon string (a theme's icon name), or an absolute
    /// path to a picture file, decoded off the main loop and again when the file changes.
    pub icon: Option<String>,
    /// The icon after the text instead of before it.
    pub icon_last: bool,
    /// Its own tooltip, plain text.
    pub tooltip: Option<String>,
    /// What it stands for.
    pub target: Target,
}

/// What a row's button stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Workspace(Workspace),
    /// An open window, by its id in [`crate::events::tasks::Tasks`].
    Task(u32),
    /// One of a module's own items (an image's picture, a kind of capture), with the
    /// command a left click on it runs where it has one of its own.
    Item(Option<String>),
}

/// How a row's buttons are drawn: their icons' size and themes, the space between them
/// and the name they take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IconStyle {
    /// In pixels.
    pub size: i32,
    /// Icon themes tried in turn before the desktop's own.
    pub themes: Vec<String>,
    /// Between two buttons, in pixels.
    pub spacing: i32,
    /// Each button's CSS name (Waybar's `#privacy-item`); unset, GTK's `button`.
    pub button_name: Option<&'static str>,
}

impl Default for IconStyle {
    fn default() -> IconStyle {
        IconStyle {
            size: 16,
            themes: Vec::new(),
            spacing: 0,
            button_name: None,
        }
    }
}

/// A module drawn as a row of labels, each with classes of its own (`keyboard-state`:
/// one label per lock, `locked` while it is on), as Waybar draws it.
pub trait LabelRow {
    /// Its labels for `input`, into `out` (emptied first); the module's text decides
    /// whether the row is shown.
    fn labels(&self, input: &Input<'_>, out: &mut Vec<RowLabel>);
}

/// One label of a row: Pango markup, checked when the config was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowLabel {
    pub markup: String,
    pub classes: Vec<&'static str>,
}
