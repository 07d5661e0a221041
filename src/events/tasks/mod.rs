//! The open windows, for the `taskbar`: each toplevel's title, app id, state and
//! outputs, as `wlr-foreign-toplevel-management-unstable-v1` announces them (Sway,
//! Hyprland, niri, labwc, Wayfire…), with its desktop entry's name and icon; and the
//! requests a click makes (activate, close, minimize…). The model is pure (`list.rs`);
//! the client (`client.rs`) binds the protocol on a Wayland connection of its own, and
//! `apps.rs` finds the desktop entries.

#[cfg(feature = "app")]
mod apps;
#[cfg(feature = "app")]
pub(crate) mod client;
mod list;

use std::collections::BTreeMap;

pub use list::{TaskList, MAX_TASKS};

use super::EventState;

/// One open window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Task {
    /// Its handle's id: the same for as long as the window is open.
    pub id: u32,
    pub title: String,
    /// After the settings' `app_ids-mapping`.
    pub app_id: String,
    /// The outputs it shows on, by connector name.
    pub outputs: Vec<String>,
    pub active: bool,
    pub minimized: bool,
    pub maximized: bool,
    pub fullscreen: bool,
    /// Its desktop entry's name, where one was found.
    pub app_name: Option<String>,
    /// Its desktop entry's icon: a theme's icon name or a file (GIO's icon string).
    pub icon: Option<String>,
}

/// The open windows, in the order the compositor announced them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tasks {
    pub list: Vec<Task>,
}

/// What a click on a window's button asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskAction {
    /// Bring it to the front, focused.
    Activate,
    /// Minimized if it was not, shown again if it was.
    Minimize,
    /// Shown again if minimized; minimized if it is the active one; else activated.
    MinimizeRaise,
    Maximize,
    Fullscreen,
    Close,
}

impl TaskAction {
    /// The action Waybar's `on-click*` value names (`minimize-raise`), if any.
    pub fn named(name: &str) -> Option<TaskAction> {
        Some(match name {
            "activate" => TaskAction::Activate,
            "minimize" => TaskAction::Minimize,
            "minimize-raise" => TaskAction::MinimizeRaise,
            "maximize" => TaskAction::Maximize,
            "fullscreen" => TaskAction::Fullscreen,
            "close" => TaskAction::Close,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskCommand {
    pub task: u32,
    pub action: TaskAction,
}

/// What the `taskbar` tells the source: app ids to read as others (Waybar's
/// `app_ids-mapping`), before the desktop entry is looked up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskSettings {
    pub app_ids: BTreeMap<String, String>,
}

impl EventState for Tasks {
    const KEY: &'static str = "Tasks";
    type Command = TaskCommand;
    type Settings = TaskSettings;
    #[cfg(feature = "app")]
    type Watch = client::TaskWatch;
}

#[cfg(test)]
mod tests;
