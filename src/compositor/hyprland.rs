//! Hyprland's IPC: the event lines of `.socket2.sock`, the JSON replies of `.socket.sock`
//! (`j/workspaces`, `j/monitors`, `j/activewindow`, `j/clients`, `j/version`), and the
//! requests that switch workspaces in either dispatch dialect.
//!
//! Events are `EVENT>>DATA` lines; Hyprland cuts DATA at 1024 bytes (possibly inside a
//! UTF-8 sequence) and turns newlines in it into spaces. Newer releases send a `v2` twin
//! beside most events (with ids); older ones only the first kind. Fields are separated by
//! commas, and names and titles may contain commas themselves, so each event splits only
//! where its format leaves no doubt.

use std::collections::{BTreeSet, HashMap};

use serde::Deserialize;

use super::{cap_text, sort_workspaces, CompositorState, Workspace};

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
            "configreloaded" => Event::ConfigReloaded,
            _ => return None,
        };
        Some(event)
    }

    /// What this event means for a client whose focused window is `active` (its
    /// address as [`address`] normalises it).
    pub fn action(&self, active: Option<&str>) -> Action {
        match self {
            Event::WindowTitleV2 { address, title } if Some(address.as_str()) == active => {
                Action::Title(title.clone())
            }
            Event::WindowTitle { address } if Some(address.as_str()) == active => Action::Requery,
            Event::WindowTitleV2 { .. } | Event::WindowTitle { .. } => Action::Ignore,
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

fn text(json: &[u8]) -> std::borrow::Cow<'_, str> {
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
/// in Hyprland; 0.57 gives no ids to named ones). Urgency comes from [`apply_urgent`].
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
            urgent: false,
            windows: w.windows,
            special: w.special(),
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
    })
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

/// Marks the workspaces holding a window of `urgent` (addresses from `urgent>>` events)
/// as urgent, after the `j/clients` reply; addresses of windows that are gone are
/// dropped from the set.
pub fn apply_urgent(
    state: &mut CompositorState,
    clients: &[u8],
    urgent: &mut BTreeSet<String>,
) -> Result<(), String> {
    let clients: Vec<WindowReply> =
        serde_json::from_str(&text(clients)).map_err(|e| format!("j/clients: {e}"))?;
    let homes: HashMap<String, String> = clients
        .into_iter()
        .filter_map(|c| Some((address(&c.address)?, c.workspace.name)))
        .collect();
    urgent.retain(|a| homes.contains_key(a));
    for workspace in &mut state.workspaces {
        workspace.urgent = urgent.iter().any(|a| homes.get(a) == Some(&workspace.name));
    }
    Ok(())
}

/// How `.socket.sock` takes a dispatch: Hyprland 0.57 and later configure in Lua and
/// dispatch Lua (`hl.dsp.focus({ workspace = 2 })`); older releases take
/// `DISPATCHER ARGS` (`workspace 2`). 0.55 and 0.56 took either, by the config file in
/// use: start with the legacy form there, and switch when a reply says it was the wrong
/// one ([`Dialect::misunderstood`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Legacy,
    Lua,
}

#[derive(Deserialize)]
struct VersionReply {
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    tag: Option<String>,
}

/// `(major, minor)` of a `j/version` reply: its `version` field ("0.57.0"), else its
/// `tag` ("v0.41.2-3-gabcdef").
pub fn version(json: &[u8]) -> Option<(u32, u32)> {
    let reply: VersionReply = serde_json::from_str(&text(json)).ok()?;
    let parse = |text: &str| {
        let text = text.trim().trim_start_matches('v');
        let mut parts = text.split(['.', '-']);
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some((major, minor))
    };
    reply
        .version
        .as_deref()
        .and_then(parse)
        .or_else(|| reply.tag.as_deref().and_then(parse))
}

/// The longest request written to `.socket.sock` (old releases read 8 KiB at once).
const MAX_REQUEST: usize = 8000;

impl Dialect {
    /// The dialect of the Hyprland whose `j/version` reply this is; Lua when the reply
    /// says nothing readable (a release newer than this code knows).
    pub fn from_version(json: &[u8]) -> Dialect {
        match version(json) {
            Some(v) if v < (0, 57) => Dialect::Legacy,
            _ => Dialect::Lua,
        }
    }

    pub fn other(self) -> Dialect {
        match self {
            Dialect::Legacy => Dialect::Lua,
            Dialect::Lua => Dialect::Legacy,
        }
    }

    /// Whether Hyprland's `reply` to a dispatch in this dialect says it expected the
    /// other one.
    pub fn misunderstood(self, reply: &str) -> bool {
        match self {
            // A Lua config: "... your syntax might need to be updated".
            Dialect::Legacy => reply.contains("dispatch in lua is a shorthand"),
            // A hyprlang config reads `hl.dsp.focus({` as a dispatcher's name.
            Dialect::Lua => reply.trim() == "Invalid dispatcher",
        }
    }

    /// The request for `.socket.sock` that shows `workspace` (a special workspace is
    /// toggled, as its key binding does). Names are written so that no name can end the
    /// argument early: in Lua as a string of decimal escapes. `None` when a name cannot
    /// be written (a NUL byte in the legacy form) or the request would be too long.
    pub fn focus_workspace(self, workspace: &Workspace) -> Option<String> {
        let name = &workspace.name;
        let special = workspace.special.then(|| {
            let rest = name.strip_prefix("special").unwrap_or(name);
            rest.strip_prefix(':').unwrap_or(rest)
        });
        let request = match (self, special) {
            (Dialect::Lua, Some("")) => "/dispatch hl.dsp.workspace.toggle_special()".into(),
            (Dialect::Lua, Some(special)) => format!(
                "/dispatch hl.dsp.workspace.toggle_special({})",
                lua_string(special)
            ),
            (Dialect::Lua, None) if workspace.id > 0 => {
                format!("/dispatch hl.dsp.focus({{ workspace = {} }})", workspace.id)
            }
            (Dialect::Lua, None) => format!(
                "/dispatch hl.dsp.focus({{ workspace = {} }})",
                lua_string(&format!("name:{name}"))
            ),
            (Dialect::Legacy, _) if name.contains('\0') => return None,
            (Dialect::Legacy, Some(special)) => {
                format!("/dispatch togglespecialworkspace {special}")
                    .trim_end()
                    .to_owned()
            }
            (Dialect::Legacy, None) if workspace.id > 0 => {
                format!("/dispatch workspace {}", workspace.id)
            }
            (Dialect::Legacy, None) => format!("/dispatch workspace name:{name}"),
        };
        (request.len() <= MAX_REQUEST).then_some(request)
    }
}

/// `text` as a Lua string literal: letters, digits and a few harmless marks as they are,
/// every other byte as a `\ddd` escape, so quotes, backslashes, brackets and newlines in
/// a name stay inside the string.
pub fn lua_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b" _-.:+@#/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("\\{byte:03}"));
        }
    }
    out.push('"');
    out
}

/// The longest event line kept: Hyprland cuts an event's data at 1024 bytes.
pub const MAX_LINE: usize = 8 << 10;

/// Splits the bytes of `.socket2.sock` into lines. A line longer than [`MAX_LINE`] is
/// dropped whole (the reader skips to its newline), so garbage cannot grow the buffer;
/// odd bytes become U+FFFD.
#[derive(Debug, Default)]
pub struct LineReader {
    buf: Vec<u8>,
    /// Inside a line that was too long: drop bytes up to the next newline.
    skipping: bool,
}

impl LineReader {
    pub fn new() -> LineReader {
        LineReader::default()
    }

    /// Takes `bytes` and calls `line` with each complete line, without its newline.
    pub fn push(&mut self, mut bytes: &[u8], mut line: impl FnMut(&str)) {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            if !std::mem::take(&mut self.skipping) && self.buf.len() + end <= MAX_LINE {
                self.buf.extend_from_slice(&bytes[..end]);
                line(&String::from_utf8_lossy(&self.buf));
            }
            self.buf.clear();
            bytes = &bytes[end + 1..];
        }
        if self.skipping {
            return;
        }
        if self.buf.len() + bytes.len() > MAX_LINE {
            self.buf.clear();
            self.skipping = true;
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Bytes held for a line not yet complete.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
#[path = "hyprland_tests.rs"]
mod tests;
