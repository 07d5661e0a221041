//! The JSON replies of Hyprland's `.socket.sock` (`j/workspaces`, `j/monitors`,
//! `j/activewindow`, `j/clients`) read into a [`CompositorState`], and `j/devices`'
//! main keyboard.

use std::collections::{BTreeSet, HashMap};

use serde::Deserialize;

use super::address;
use crate::events::compositor::keyboard::Keyboard;
use crate::events::compositor::{
    cap_text, sort_workspaces, CompositorState, WindowName, Workspace, MAX_LISTED,
};

pub(super) fn text(json: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(json)
}

/// A workspace as the replies name it. 0.57 leaves `id` out for named and special
/// workspaces (their `address` is the name) and adds `type` ("normal", "special").
#[derive(Deserialize, Default)]
struct WorkspaceReply {
    #[serde(default)]
    id: Option<i64>,
    #[serde(default)]
    name: String,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    monitor: String,
    #[serde(default)]
    windows: u32,
    /// -1 while a workspace has no monitor.
    #[serde(rename = "monitorID", default)]
    monitor_id: Option<i64>,
    /// The address of the window last focused on it (`0x0` for none), and its title.
    #[serde(rename = "lastwindow", default)]
    last_window: String,
    #[serde(rename = "lastwindowtitle", default)]
    last_window_title: String,
}

impl WorkspaceReply {
    fn special(&self) -> bool {
        match self.kind.as_deref() {
            Some("special") => true,
            Some("normal") => false,
            _ => is_special(self.id.unwrap_or(-1), &self.name),
        }
    }

    /// The id, or one in Hyprland's ranges for those without: -99 (special) or -1.
    fn id(&self) -> i64 {
        match (self.id, self.special()) {
            (Some(id), _) => id,
            (None, true) => -99,
            (None, false) => -1,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MonitorReply {
    #[serde(default)]
    focused: bool,
    #[serde(default)]
    disabled: bool,
    #[serde(default)]
    active_workspace: WorkspaceReply,
    #[serde(default)]
    special_workspace: WorkspaceReply,
}

#[derive(Deserialize, Default)]
struct WindowReply {
    #[serde(default)]
    address: String,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    workspace: WorkspaceReply,
}

/// Whether Hyprland counts the workspace as special: ids -99..=-2, named `special…`.
pub fn is_special(id: i64, name: &str) -> bool {
    (-99..=-2).contains(&id) || name.starts_with("special:") || name == "special"
}

/// The state from the replies to `j/workspaces`, `j/monitors` and `j/activewindow`.
/// A monitor's shown workspace is visible; the focused monitor's is focused, or its
/// special workspace while one is open there. Workspaces are matched by name (unique
/// in Hyprland; 0.57 gives no ids to named ones). Urgency comes from [`apply_clients`].
pub fn parse_state(
    workspaces: &[u8],
    monitors: &[u8],
    activewindow: &[u8],
) -> Result<CompositorState, String> {
    let replies: Vec<WorkspaceReply> =
        serde_json::from_str(&text(workspaces)).map_err(|e| format!("j/workspaces: {e}"))?;
    let monitors: Vec<MonitorReply> =
        serde_json::from_str(&text(monitors)).map_err(|e| format!("j/monitors: {e}"))?;
    let monitors: Vec<MonitorReply> = monitors.into_iter().filter(|m| !m.disabled).collect();
    let shown = |name: &str| {
        monitors.iter().any(|m| {
            m.active_workspace.name == name
                || (!name.is_empty() && m.special_workspace.name == name)
        })
    };
    let focused_name =
        monitors
            .iter()
            .find(|m| m.focused)
            .map(|m| match m.special_workspace.name.as_str() {
                "" => m.active_workspace.name.as_str(),
                special => special,
            });
    let mut list: Vec<Workspace> = replies
        .iter()
        .filter(|w| !w.name.is_empty())
        .map(|w| Workspace {
            id: w.id(),
            name: w.name.clone(),
            output: w.monitor.clone(),
            focused: Some(w.name.as_str()) == focused_name,
            visible: shown(&w.name),
            windows: w.windows,
            special: w.special(),
            monitor_id: w.monitor_id.and_then(|id| u32::try_from(id).ok()),
            last_window: last_window(w).map(|_| WindowName {
                title: cap_text(&w.last_window_title),
                app_id: None,
            }),
            ..Workspace::default()
        })
        .collect();
    sort_workspaces(&mut list);
    let window = active_window(activewindow);
    Ok(CompositorState {
        workspaces: list,
        window_title: window
            .as_ref()
            .and_then(|w| w.title.as_deref())
            .map(cap_text),
        window_app_id: window.and_then(|w| w.class).map(|c| cap_text(&c)),
        // The keyboard comes from `j/devices` and the events: kept by the client.
        ..CompositorState::default()
    })
}

/// The address of a workspace's last window; `None` for `0x0` or none.
fn last_window(workspace: &WorkspaceReply) -> Option<String> {
    address(&workspace.last_window).filter(|a| a.bytes().any(|b| b != b'0'))
}

/// The last windows of the workspaces shown on some output: a change of their titles
/// is a change of what a bar with `separate-outputs` shows.
pub fn shown_last_windows(workspaces: &[u8], monitors: &[u8]) -> BTreeSet<String> {
    let replies: Vec<WorkspaceReply> = serde_json::from_str(&text(workspaces)).unwrap_or_default();
    let monitors: Vec<MonitorReply> = serde_json::from_str(&text(monitors)).unwrap_or_default();
    let shown = |name: &str| {
        monitors
            .iter()
            .any(|m| m.active_workspace.name == name || m.special_workspace.name == name)
    };
    replies
        .iter()
        .filter(|w| !w.name.is_empty() && shown(&w.name))
        .filter_map(last_window)
        .collect()
}

/// `j/activewindow` is `{}` (or, in old releases, not JSON) when nothing has the focus.
fn active_window(json: &[u8]) -> Option<WindowReply> {
    let window: WindowReply = serde_json::from_str(&text(json)).ok()?;
    address(&window.address).map(|_| window)
}

/// The focused window's address from `j/activewindow`, normalised by [`address`].
pub fn active_window_address(activewindow: &[u8]) -> Option<String> {
    active_window(activewindow).and_then(|w| address(&w.address))
}

/// Takes what the `j/clients` reply says about each workspace: the windows it holds
/// ([`Workspace::window_names`], oldest first), and whether one of them is in `urgent`
/// (addresses from `urgent>>` events; those of windows that are gone are dropped).
pub fn apply_clients(
    state: &mut CompositorState,
    clients: &[u8],
    urgent: &mut BTreeSet<String>,
) -> Result<(), String> {
    let clients: Vec<WindowReply> =
        serde_json::from_str(&text(clients)).map_err(|e| format!("j/clients: {e}"))?;
    let mut homes: HashMap<String, &str> = HashMap::new();
    let mut listed: HashMap<&str, Vec<WindowName>> = HashMap::new();
    for client in &clients {
        let home = client.workspace.name.as_str();
        if let Some(address) = address(&client.address) {
            homes.insert(address, home);
        }
        let names = listed.entry(home).or_default();
        if names.len() < MAX_LISTED {
            names.push(WindowName {
                title: client.title.as_deref().map(cap_text).unwrap_or_default(),
                app_id: client.class.as_deref().map(cap_text),
            });
        }
    }
    urgent.retain(|a| homes.contains_key(a));
    for workspace in &mut state.workspaces {
        let name = workspace.name.as_str();
        workspace.urgent = urgent.iter().any(|a| homes.get(a) == Some(&name));
        workspace.window_names = listed.remove(name).unwrap_or_default();
    }
    Ok(())
}

#[cfg(test)]
#[path = "replies_tests.rs"]
mod tests;

#[derive(Deserialize)]
struct Devices {
    #[serde(default)]
    keyboards: Vec<KeyboardReply>,
}

#[derive(Deserialize)]
struct KeyboardReply {
    #[serde(default)]
    layout: String,
    #[serde(default)]
    active_keymap: String,
    #[serde(default)]
    main: bool,
}

/// The main keyboard of a `j/devices` reply (else the first): its active layout's
/// description and its layouts by XKB's names (`"us,de"`).
pub fn main_keyboard(json: &[u8]) -> Result<Option<Keyboard>, String> {
    let devices: Devices =
        serde_json::from_str(&text(json)).map_err(|e| format!("j/devices: {e}"))?;
    let mut keyboards = devices.keyboards;
    let main = match keyboards.iter().position(|k| k.main) {
        Some(at) => keyboards.swap_remove(at),
        None if keyboards.is_empty() => return Ok(None),
        None => keyboards.swap_remove(0),
    };
    if main.active_keymap.is_empty() {
        return Ok(None);
    }
    Ok(Some(Keyboard {
        active: cap_text(&main.active_keymap),
        layouts: main
            .layout
            .split(',')
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(cap_text)
            .collect(),
    }))
}
