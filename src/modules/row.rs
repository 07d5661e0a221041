//! Modules drawn as a row of buttons (`workspaces`, `taskbar`): what each button shows,
//! and what a press on it asks.

use super::{Action, Button, Input};
use crate::events::compositor::Workspace;

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
}

/// One button of a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowButton {
    /// Its text; hidden when empty and the button has an icon.
    pub label: String,
    /// `focused`, `visible`, `urgent`, `empty` or `occupied`, `special`; `active`,
    /// `minimized`, `maximized`, `fullscreen`.
    pub classes: Vec<&'static str>,
    /// An icon before the text: GIO's icon string (a theme's icon name, or a file).
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
}

/// The size and the themes of a row's icons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IconStyle {
    /// In pixels.
    pub size: i32,
    /// Icon themes tried in turn before the desktop's own.
    pub themes: Vec<String>,
}

impl Default for IconStyle {
    fn default() -> IconStyle {
        IconStyle {
            size: 16,
            themes: Vec::new(),
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
