//! What niri's event stream has said so far, and the [`CompositorState`] it makes.
//!
//! The stream starts with the whole state (`WorkspacesChanged`, `WindowsChanged`,
//! `KeyboardLayoutsChanged`, …) and then sends changes; [`Niri::apply`] takes each and
//! [`Niri::state`] draws the picture the modules read.

use std::collections::HashMap;

use super::super::keyboard::Keyboard;
use super::super::{cap_text, CompositorState, WindowName, Workspace, MAX_LISTED};
use super::wire::{self, Event};

/// Bounds on what a hostile or broken peer can make the bar hold.
pub const MAX_WORKSPACES: usize = 4096;
pub const MAX_WINDOWS: usize = 65_536;
/// The binding mode shown while niri's overview is open.
pub const OVERVIEW_MODE: &str = "overview";

#[derive(Debug, Default)]
pub struct Niri {
    workspaces: Vec<wire::Workspace>,
    windows: HashMap<u64, wire::Window>,
    focused_window: Option<u64>,
    keyboard: Option<wire::KeyboardLayouts>,
    overview: bool,
}

impl Niri {
    pub fn apply(&mut self, event: Event) {
        match event {
            Event::WorkspacesChanged(mut workspaces) => {
                workspaces.truncate(MAX_WORKSPACES);
                self.workspaces = workspaces;
            }
            Event::WorkspaceUrgencyChanged { id, urgent } => {
                if let Some(workspace) = self.workspaces.iter_mut().find(|w| w.id == id) {
                    workspace.is_urgent = urgent;
                }
            }
            Event::WorkspaceActivated { id, focused } => self.activate(id, focused),
            Event::WindowsChanged(windows) => {
                self.windows.clear();
                self.focused_window = None;
                for window in windows {
                    self.put_window(window);
                }
            }
            Event::WindowOpenedOrChanged(window) => self.put_window(window),
            Event::WindowClosed { id } => {
                self.windows.remove(&id);
                if self.focused_window == Some(id) {
                    self.focused_window = None;
                }
            }
            Event::WindowFocusChanged { id } => {
                self.focused_window = id.filter(|id| self.windows.contains_key(id));
            }
            Event::WindowUrgencyChanged { id, urgent } => {
                if let Some(window) = self.windows.get_mut(&id) {
                    window.is_urgent = urgent;
                }
            }
            Event::KeyboardLayoutsChanged(layouts) => self.keyboard = Some(layouts),
            Event::KeyboardLayoutSwitched { idx } => {
                if let Some(keyboard) = &mut self.keyboard {
                    keyboard.current_idx = idx;
                }
            }
            Event::OverviewOpenedOrClosed { is_open } => self.overview = is_open,
            Event::Other => {}
        }
    }

    /// `id` is now shown on its output (and has the focus, if `focused`).
    fn activate(&mut self, id: u64, focused: bool) {
        let Some(output) = self
            .workspaces
            .iter()
            .find(|w| w.id == id)
            .map(|w| w.output.clone())
        else {
            return;
        };
        for workspace in &mut self.workspaces {
            if workspace.output == output {
                workspace.is_active = workspace.id == id;
            }
            if focused {
                workspace.is_focused = workspace.id == id;
            }
        }
    }

    fn put_window(&mut self, window: wire::Window) {
        if window.is_focused {
            self.focused_window = Some(window.id);
        } else if self.focused_window == Some(window.id) {
            self.focused_window = None;
        }
        if self.windows.len() < MAX_WINDOWS || self.windows.contains_key(&window.id) {
            self.windows.insert(window.id, window);
        }
    }

    /// niri's handle for the workspace the bar shows as `shown` (by its output and place).
    pub fn workspace_id(&self, shown: &Workspace) -> Option<u64> {
        self.workspaces
            .iter()
            .find(|w| {
                i64::from(w.idx) == shown.id && w.output.as_deref().unwrap_or("") == shown.output
            })
            .map(|w| w.id)
    }

    /// The picture for the modules: workspaces by output, then by place; a workspace's
    /// name is its own or its place; urgent when it or one of its windows is.
    pub fn state(&self) -> CompositorState {
        let text = |value: Option<&String>| value.map(|v| cap_text(v));
        let mut counts: HashMap<u64, (u32, bool)> = HashMap::new();
        let mut listed: HashMap<u64, Vec<(u64, WindowName)>> = HashMap::new();
        for window in self.windows.values() {
            if let Some(workspace) = window.workspace_id {
                let entry = counts.entry(workspace).or_default();
                entry.0 += 1;
                entry.1 |= window.is_urgent;
                let name = WindowName {
                    title: text(window.title.as_ref()).unwrap_or_default(),
                    app_id: text(window.app_id.as_ref()),
                };
                listed.entry(workspace).or_default().push((window.id, name));
            }
        }
        let mut workspaces: Vec<Workspace> = self
            .workspaces
            .iter()
            .map(|w| {
                let (windows, urgent_window) = counts.get(&w.id).copied().unwrap_or_default();
                Workspace {
                    id: i64::from(w.idx),
                    name: match &w.name {
                        Some(name) => cap_text(name),
                        None => w.idx.to_string(),
                    },
                    output: cap_text(w.output.as_deref().unwrap_or("")),
                    focused: w.is_focused,
                    visible: w.is_active,
                    urgent: w.is_urgent || urgent_window,
                    windows,
                    window_names: oldest_first(listed.remove(&w.id).unwrap_or_default()),
                    ..Workspace::default()
                }
            })
            .collect();
        workspaces.sort_by(|a, b| a.output.cmp(&b.output).then(a.id.cmp(&b.id)));
        let focused = self.focused_window.and_then(|id| self.windows.get(&id));
        CompositorState {
            workspaces,
            window_title: focused.map(|w| text(w.title.as_ref()).unwrap_or_default()),
            window_app_id: focused.and_then(|w| text(w.app_id.as_ref())),
            keyboard: self.keyboard.as_ref().map(|k| Keyboard {
                active: k
                    .names
                    .get(usize::from(k.current_idx))
                    .map(|name| cap_text(name))
                    .unwrap_or_default(),
                layouts: k.names.iter().map(|name| cap_text(name)).collect(),
            }),
            mode: self.overview.then(|| OVERVIEW_MODE.to_owned()),
            ..CompositorState::default()
        }
    }
}

/// A workspace's windows by niri's ids (which grow), at most [`MAX_LISTED`].
fn oldest_first(mut windows: Vec<(u64, WindowName)>) -> Vec<WindowName> {
    windows.sort_unstable_by_key(|(id, _)| *id);
    windows.truncate(MAX_LISTED);
    windows.into_iter().map(|(_, name)| name).collect()
}
