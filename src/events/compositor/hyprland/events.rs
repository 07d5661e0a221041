//! The event lines of Hyprland's `.socket2.sock` ([`Event`]), what each asks of the client
//! ([`Action`]), and window addresses as events and replies write them ([`address`]).
//!
//! Events are `EVENT>>DATA` lines; Hyprland cuts DATA at 1024 bytes (possibly inside a
//! UTF-8 sequence) and turns newlines in it into spaces. Newer releases send a `v2` twin
//! beside most events (with ids); older ones only the first kind. Fields are separated by
//! commas, and names and titles may contain commas themselves, so each event splits only
//! where its format leaves no doubt.

use std::collections::BTreeSet;

use crate::events::compositor::cap_text;

/// The longest event line kept: Hyprland cuts an event's data at 1024 bytes.
pub const MAX_LINE: usize = 8 << 10;

/// One event line, parsed. Workspace ids are `None` in the formats that carry only names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `workspace>>NAME`, `workspacev2>>ID,NAME`: a monitor shows another workspace.
    Workspace {
        id: Option<i64>,
        name: String,
    },
    CreateWorkspace {
        id: Option<i64>,
        name: String,
    },
    DestroyWorkspace {
        id: Option<i64>,
        name: String,
    },
    /// `moveworkspace>>NAME,MONITOR`, `moveworkspacev2>>ID,NAME,MONITOR`.
    MoveWorkspace {
        id: Option<i64>,
        name: String,
        monitor: String,
    },
    /// `renameworkspace>>ID,NEWNAME` (0.57: the address, a name, for named workspaces).
    RenameWorkspace {
        id: Option<i64>,
        name: String,
    },
    /// `changeworkspaceid>>OLD,NEW`.
    ChangeWorkspaceId {
        old: i64,
        new: i64,
    },
    /// `focusedmon>>MONITOR,WORKSPACENAME`, `focusedmonv2>>MONITOR,WORKSPACEID`.
    FocusedMonitor {
        monitor: String,
        workspace: WorkspaceRef,
    },
    /// `activespecial>>NAME,MONITOR`, `activespecialv2>>ID,NAME,MONITOR`; an empty name
    /// when the monitor's special workspace closed.
    ActiveSpecial {
        id: Option<i64>,
        name: String,
        monitor: String,
    },
    /// `urgent>>ADDRESS`.
    Urgent {
        address: String,
    },
    /// `openwindow>>ADDRESS,WORKSPACENAME,CLASS,TITLE`.
    OpenWindow {
        address: String,
        workspace: String,
        class: String,
        title: String,
    },
    CloseWindow {
        address: String,
    },
    /// `movewindow>>ADDRESS,WORKSPACENAME`, `movewindowv2>>ADDRESS,WORKSPACEID,WORKSPACENAME`.
    MoveWindow {
        address: String,
        workspace_id: Option<i64>,
        workspace: String,
    },
    /// `activewindow>>CLASS,TITLE` (both empty when nothing has the focus).
    ActiveWindow {
        class: String,
        title: String,
    },
    /// `activewindowv2>>ADDRESS` (empty when nothing has the focus).
    ActiveWindowV2 {
        address: Option<String>,
    },
    /// `windowtitle>>ADDRESS`.
    WindowTitle {
        address: String,
    },
    /// `windowtitlev2>>ADDRESS,TITLE`.
    WindowTitleV2 {
        address: String,
        title: String,
    },
    /// `monitoradded>>NAME`, `monitoraddedv2>>ID,NAME,DESCRIPTION`.
    MonitorAdded {
        name: String,
    },
    MonitorRemoved {
        name: String,
    },
    /// `activelayout>>KEYBOARD,LAYOUT`: a keyboard's layout changed (LAYOUT, XKB's
    /// description, may hold commas; a keyboard's name holds none).
    ActiveLayout {
        layout: String,
    },
    /// `submap>>NAME`, empty for the default one.
    Submap {
        name: String,
    },
    ConfigReloaded,
}

/// A workspace as an event names it: by id in the v2 formats, by name before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkspaceRef {
    Id(i64),
    Name(String),
}

/// What an event asks of the client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Ask for workspaces, monitors and the active window again.
    Requery,
    /// The focused window has this new title.
    Title(String),
    /// The keyboard's active layout.
    Layout(String),
    /// The submap, `None` for the default.
    Mode(Option<String>),
    Ignore,
}

fn id(text: &str) -> Option<i64> {
    text.trim().parse().ok()
}

/// `a,b` split at the first comma (the second part may hold commas).
fn first(data: &str) -> Option<(&str, &str)> {
    data.split_once(',')
}

/// `a,b` split at the last comma (the first part may hold commas).
fn last(data: &str) -> Option<(&str, &str)> {
    data.rsplit_once(',')
}

/// `ID,NAME` of the v2 workspace events. Up to 0.56 the ID is a number; 0.57 writes the
/// workspace's address there instead: its number, or for a named or special workspace
/// its name again (`chat,chat`, `a,b,a,b`), which is told apart by its two equal halves.
fn id_and_name(data: &str) -> Option<(Option<i64>, String)> {
    if let Some((ws, name)) = first(data) {
        if let Some(id) = id(ws) {
            return Some((Some(id), name.to_owned()));
        }
    }
    let half = data.len() / 2;
    if data.len() % 2 == 1 && data.as_bytes()[half] == b',' {
        if let (Some(a), Some(b)) = (data.get(..half), data.get(half + 1..)) {
            if a == b {
                return Some((None, a.to_owned()));
            }
        }
    }
    let (_, name) = first(data)?;
    Some((None, name.to_owned()))
}

impl Event {
    /// Parses one line (with or without its newline); `None` for events the modules do
    /// not need, unknown ones and malformed ones.
    pub fn parse(line: &str) -> Option<Event> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let (event, data) = line.split_once(">>")?;
        let s = |text: &str| text.to_owned();
        let event = match event {
            "workspace" => Event::Workspace {
                id: None,
                name: s(data),
            },
            "workspacev2" => {
                let (id, name) = id_and_name(data)?;
                Event::Workspace { id, name }
            }
            "createworkspace" | "destroyworkspace" => {
                let (id, name) = (None, s(data));
                match event {
                    "createworkspace" => Event::CreateWorkspace { id, name },
                    _ => Event::DestroyWorkspace { id, name },
                }
            }
            "createworkspacev2" | "destroyworkspacev2" => {
                let (id, name) = id_and_name(data)?;
                match event {
                    "createworkspacev2" => Event::CreateWorkspace { id, name },
                    _ => Event::DestroyWorkspace { id, name },
                }
            }
            "moveworkspace" => {
                let (name, monitor) = last(data)?;
                Event::MoveWorkspace {
                    id: None,
                    name: s(name),
                    monitor: s(monitor),
                }
            }
            "moveworkspacev2" => {
                let (rest, monitor) = last(data)?;
                let (id, name) = id_and_name(rest)?;
                Event::MoveWorkspace {
                    id,
                    name,
                    monitor: s(monitor),
                }
            }
            "renameworkspace" => {
                let (ws, name) = first(data)?;
                Event::RenameWorkspace {
                    id: id(ws),
                    name: s(name),
                }
            }
            "changeworkspaceid" => {
                let (old, new) = first(data)?;
                Event::ChangeWorkspaceId {
                    old: id(old)?,
                    new: id(new)?,
                }
            }
            "focusedmon" | "focusedmonv2" => {
                // Monitor names hold no commas; workspace names may.
                let (monitor, ws) = first(data)?;
                // v2 has the id, or in 0.57 the address (a name for named workspaces).
                let workspace = match (event, id(ws)) {
                    ("focusedmonv2", Some(id)) => WorkspaceRef::Id(id),
                    _ => WorkspaceRef::Name(s(ws)),
                };
                Event::FocusedMonitor {
                    monitor: s(monitor),
                    workspace,
                }
            }
            "activespecial" => {
                let (name, monitor) = last(data)?;
                Event::ActiveSpecial {
                    id: None,
                    name: s(name),
                    monitor: s(monitor),
                }
            }
            "activespecialv2" => {
                let (rest, monitor) = last(data)?;
                let (id, name) = id_and_name(rest)?;
                Event::ActiveSpecial {
                    id,
                    name,
                    monitor: s(monitor),
                }
            }
            "urgent" => Event::Urgent {
                address: address(data)?,
            },
            "openwindow" => {
                let (addr, rest) = first(data)?;
                let (workspace, rest) = first(rest)?;
                let (class, title) = first(rest)?;
                Event::OpenWindow {
                    address: address(addr)?,
                    workspace: s(workspace),
                    class: cap_text(class),
                    title: cap_text(title),
                }
            }
            "closewindow" => Event::CloseWindow {
                address: address(data)?,
            },
            "movewindow" => {
                let (addr, workspace) = first(data)?;
                Event::MoveWindow {
                    address: address(addr)?,
                    workspace_id: None,
                    workspace: s(workspace),
                }
            }
            "movewindowv2" => {
                let (addr, rest) = first(data)?;
                let (workspace_id, workspace) = id_and_name(rest)?;
                Event::MoveWindow {
                    address: address(addr)?,
                    workspace_id,
                    workspace,
                }
            }
            "activewindow" => {
                let (class, title) = first(data)?;
                Event::ActiveWindow {
                    class: cap_text(class),
                    title: cap_text(title),
                }
            }
            "activewindowv2" if data.is_empty() => Event::ActiveWindowV2 { address: None },
            "activewindowv2" => Event::ActiveWindowV2 {
                address: Some(address(data)?),
            },
            "windowtitle" => Event::WindowTitle {
                address: address(data)?,
            },
            "windowtitlev2" => {
                let (addr, title) = first(data)?;
                Event::WindowTitleV2 {
                    address: address(addr)?,
                    title: cap_text(title),
                }
            }
            "monitoradded" | "monitorremoved" => monitor_event(event, s(data)),
            "monitoraddedv2" | "monitorremovedv2" => {
                // ID,NAME,DESCRIPTION: the description may hold commas.
                let (_, rest) = first(data)?;
                let (name, _) = first(rest)?;
                monitor_event(event, s(name))
            }
            "activelayout" => {
                let (_, layout) = first(data)?;
                Event::ActiveLayout {
                    layout: cap_text(layout),
                }
            }
            "submap" => Event::Submap { name: s(data) },
            "configreloaded" => Event::ConfigReloaded,
            _ => return None,
        };
        Some(event)
    }

    /// What this event means for a client whose focused window is `active` and whose
    /// shown workspaces' last windows are `shown` (addresses as [`address`] normalises
    /// them).
    pub fn action(&self, active: Option<&str>, shown: &BTreeSet<String>) -> Action {
        match self {
            Event::WindowTitleV2 { address, title } if Some(address.as_str()) == active => {
                Action::Title(title.clone())
            }
            Event::WindowTitle { address } if Some(address.as_str()) == active => Action::Requery,
            // Another output's window, which its bar may show.
            Event::WindowTitleV2 { address, .. } | Event::WindowTitle { address }
                if shown.contains(address) =>
            {
                Action::Requery
            }
            Event::WindowTitleV2 { .. } | Event::WindowTitle { .. } => Action::Ignore,
            Event::ActiveLayout { layout } => Action::Layout(layout.clone()),
            Event::Submap { name } => {
                Action::Mode(crate::events::compositor::keyboard::mode_of(name))
            }
            _ => Action::Requery,
        }
    }
}

fn monitor_event(event: &str, name: String) -> Event {
    if event.starts_with("monitoradded") {
        Event::MonitorAdded { name }
    } else {
        Event::MonitorRemoved { name }
    }
}

/// A window address as events write it (`55d1c0a3b2e0`) and as JSON does (`0x55d1…`):
/// lower-case hex without `0x`. `None` for anything else.
pub fn address(text: &str) -> Option<String> {
    let hex = text.trim();
    let hex = hex.strip_prefix("0x").unwrap_or(hex);
    let valid = !hex.is_empty() && hex.len() <= 16 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    valid.then(|| hex.to_ascii_lowercase())
}

#[cfg(test)]
#[path = "events_tests.rs"]
mod tests;
