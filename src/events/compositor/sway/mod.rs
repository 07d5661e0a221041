//! Sway's IPC (the i3-ipc protocol): the message framing, the replies to GET_WORKSPACES
//! and GET_TREE, what each event means for the state, and the `workspace` command.
//!
//! A message is the magic `i3-ipc`, the payload's length and the message type (both u32
//! in the machine's byte order), then the payload (JSON). Events have the high bit of
//! the type set.

use super::registry::Kind;
use std::collections::HashMap;

use serde::Deserialize;

use super::keyboard::Keyboard;
use super::{
    cap_text, sort_workspaces, text, CompositorState, Env, Located, Stashed, WindowName, Workspace,
    MAX_LISTED,
};

mod framing;
pub mod input;

pub use framing::{encode, DecodeError, Decoder, HEADER_LEN, MAGIC, MAX_PAYLOAD};

#[cfg(feature = "app")]
mod client;

/// Sway's socket, from `SWAYSOCK`; `None` when it is not set.
pub fn locate(var: Env) -> Located {
    var("SWAYSOCK")
        .filter(|p| !p.is_empty())
        .map(|path| Ok(path.into()))
}

/// Sway in the registry.
pub(super) const BACKEND: Kind = Kind {
    name: "sway",
    locate,
    waybar: &[
        ("sway/workspaces", "workspaces"),
        ("sway/window", "window"),
        ("sway/language", "language"),
        ("sway/mode", "mode"),
        ("sway/scratchpad", "scratchpad"),
    ],
    #[cfg(feature = "app")]
    start: client::START,
};

pub const RUN_COMMAND: u32 = 0;
pub const GET_WORKSPACES: u32 = 1;
pub const SUBSCRIBE: u32 = 2;
pub const GET_TREE: u32 = 4;

pub const EVENT_WORKSPACE: u32 = 0x8000_0000;
pub const EVENT_OUTPUT: u32 = 0x8000_0001;
pub const EVENT_MODE: u32 = 0x8000_0002;
pub const EVENT_WINDOW: u32 = 0x8000_0003;
pub const EVENT_SHUTDOWN: u32 = 0x8000_0006;

/// The events the client subscribes to, and the same without `output`, which sway
/// before 1.10 refuses (the whole subscription fails): outputs coming and going there
/// still show in workspace events.
pub const SUBSCRIPTIONS: [&str; 2] = [
    r#"["workspace","output","window","mode","input"]"#,
    r#"["workspace","window","mode","input"]"#,
];

#[derive(Deserialize)]
struct WorkspaceReply {
    #[serde(default = "no_num")]
    num: i64,
    #[serde(default)]
    name: String,
    #[serde(default)]
    output: String,
    #[serde(default)]
    focused: bool,
    #[serde(default)]
    visible: bool,
    #[serde(default)]
    urgent: bool,
}

fn no_num() -> i64 {
    -1
}

/// The workspaces of a GET_WORKSPACES reply, in display order, with no window counts
/// (those come from the tree: [`apply_tree`]).
pub fn parse_workspaces(json: &[u8]) -> Result<Vec<Workspace>, String> {
    let replies: Vec<WorkspaceReply> =
        serde_json::from_str(&text(json)).map_err(|e| format!("GET_WORKSPACES: {e}"))?;
    let mut workspaces: Vec<Workspace> = replies
        .into_iter()
        .map(|w| Workspace {
            id: w.num,
            name: w.name,
            output: w.output,
            focused: w.focused,
            visible: w.visible,
            urgent: w.urgent,
            ..Workspace::default()
        })
        .collect();
    sort_workspaces(&mut workspaces);
    Ok(workspaces)
}

#[derive(Deserialize)]
struct Node {
    #[serde(default)]
    id: i64,
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    focused: bool,
    #[serde(default)]
    visible: bool,
    /// The children's ids, the most recently focused first.
    #[serde(default)]
    focus: Vec<i64>,
    #[serde(default)]
    nodes: Vec<Node>,
    #[serde(default)]
    floating_nodes: Vec<Node>,
    #[serde(default)]
    app_id: Option<String>,
    #[serde(default)]
    window_properties: Option<WindowProperties>,
}

#[derive(Deserialize)]
struct WindowProperties {
    #[serde(default)]
    class: Option<String>,
}

impl Node {
    fn children(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().chain(&self.floating_nodes)
    }

    /// A window: a container with nothing inside.
    fn is_window(&self) -> bool {
        matches!(self.kind.as_str(), "con" | "floating_con")
            && self.nodes.is_empty()
            && self.floating_nodes.is_empty()
    }

    fn windows(&self) -> u32 {
        if self.is_window() {
            return 1;
        }
        self.children().map(Node::windows).sum()
    }

    /// The windows inside, depth first, at most `room` more of them.
    fn windows_into<'a>(&'a self, out: &mut Vec<&'a Node>, room: usize) {
        if out.len() >= room {
            return;
        }
        if self.is_window() {
            out.push(self);
            return;
        }
        for child in self.children() {
            child.windows_into(out, room);
        }
    }

    fn focused_window(&self) -> Option<&Node> {
        if self.focused {
            return self.is_window().then_some(self);
        }
        self.children().find_map(Node::focused_window)
    }

    /// The window focused last inside: down the focus order, newest first.
    fn last_focused(&self) -> Option<&Node> {
        if self.is_window() {
            return Some(self);
        }
        let newest = self
            .focus
            .first()
            .and_then(|id| self.children().find(|c| c.id == *id));
        newest.or_else(|| self.children().next())?.last_focused()
    }

    fn window_name(&self) -> WindowName {
        WindowName {
            title: self.name.as_deref().map(cap_text).unwrap_or_default(),
            app_id: self.app_id(),
        }
    }

    fn app_id(&self) -> Option<String> {
        let class = self
            .window_properties
            .as_ref()
            .and_then(|p| p.class.clone());
        self.app_id.clone().or(class).map(|id| cap_text(&id))
    }
}

/// The most scratchpad windows kept.
const MAX_STASHED: usize = 1024;

/// Takes the window counts of `state`'s workspaces, the focused window's title and app id
/// (or X11 class), and the scratchpad's windows from a GET_TREE reply. The scratchpad
/// (the workspace `__i3_scratch` of the output `__i3`) counts for no workspace.
pub fn apply_tree(json: &[u8], state: &mut CompositorState) -> Result<(), String> {
    let root: Node = serde_json::from_str(&text(json)).map_err(|e| format!("GET_TREE: {e}"))?;
    let mut stashed = Vec::new();
    let scratch = root
        .nodes
        .iter()
        .filter(|o| o.name.as_deref() == Some("__i3"))
        .flat_map(|o| &o.nodes)
        .filter(|w| w.name.as_deref() == Some("__i3_scratch"));
    for workspace in scratch {
        for child in workspace.children() {
            child.windows_into(&mut stashed, MAX_STASHED);
        }
    }
    state.scratchpad = Some(
        stashed
            .into_iter()
            .map(|w| {
                let name = w.window_name();
                Stashed {
                    app: name.app_id.unwrap_or_default(),
                    title: name.title,
                }
            })
            .collect(),
    );
    let mut found = HashMap::new();
    for output in root
        .nodes
        .iter()
        .filter(|o| o.name.as_deref() != Some("__i3"))
    {
        for workspace in output.nodes.iter().filter(|w| w.kind == "workspace") {
            if let Some(name) = &workspace.name {
                found.insert(name.as_str(), workspace);
            }
        }
    }
    for workspace in &mut state.workspaces {
        let node = found.get(workspace.name.as_str());
        workspace.windows = node.map_or(0, |n| n.windows());
        workspace.last_window = node.and_then(|n| n.last_focused()).map(Node::window_name);
        let mut listed = Vec::new();
        if let Some(node) = node {
            node.windows_into(&mut listed, MAX_LISTED);
        }
        workspace.window_names = listed.into_iter().map(Node::window_name).collect();
    }
    let focused = root.focused_window();
    state.window_title = focused.and_then(|w| w.name.as_deref()).map(cap_text);
    state.window_app_id = focused.and_then(Node::app_id);
    Ok(())
}

/// What an event means for the state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventAction {
    /// Ask for the workspaces and the tree again.
    Requery,
    /// Only the focused window's title changed (its app id with it, if it has one).
    Title {
        title: Option<String>,
        app_id: Option<String>,
    },
    /// The binding mode changed: its name, `None` for the default.
    Mode(Option<String>),
    /// The keyboard's layouts changed (a switch, a keymap).
    Keyboard(Keyboard),
    /// Nothing that the state holds.
    Ignore,
}

#[derive(Deserialize)]
struct WindowEvent {
    #[serde(default)]
    change: String,
    container: Option<Node>,
}

/// What the event `kind` with `payload` calls for.
pub fn event_action(kind: u32, payload: &[u8]) -> EventAction {
    match kind {
        EVENT_WORKSPACE | EVENT_OUTPUT => EventAction::Requery,
        EVENT_WINDOW => {
            let Ok(event) = serde_json::from_str::<WindowEvent>(&text(payload)) else {
                return EventAction::Requery;
            };
            match (event.change.as_str(), event.container) {
                ("title", Some(window)) if window.focused => EventAction::Title {
                    title: window.name.as_deref().map(cap_text),
                    app_id: window.app_id(),
                },
                // Another output's window, which its bar may show.
                ("title", Some(window)) if window.visible => EventAction::Requery,
                ("title" | "mark", _) => EventAction::Ignore,
                _ => EventAction::Requery,
            }
        }
        EVENT_MODE => match input::parse_mode(payload) {
            Ok(mode) => EventAction::Mode(mode),
            Err(_) => EventAction::Ignore,
        },
        input::EVENT_INPUT => match input::input_event(payload) {
            Some(keyboard) => EventAction::Keyboard(keyboard),
            None => EventAction::Ignore,
        },
        _ => EventAction::Ignore,
    }
}

/// Words the `workspace` command reads as keywords even when quoted (sway strips the
/// quotes before it looks).
const RESERVED: [&str; 10] = [
    "next",
    "prev",
    "next_on_output",
    "prev_on_output",
    "current",
    "back_and_forth",
    "number",
    "output",
    "gaps",
    "--no-auto-back-and-forth",
];

/// The command that switches to `workspace`, for RUN_COMMAND: by name in double quotes,
/// and without sway's back-and-forth (a click on the focused workspace stays there).
/// Sway keeps backslashes in quoted arguments, so a name with `"` or `\` (or control
/// characters, or a keyword's spelling) cannot be written exactly: those go by number,
/// and a name without a number that cannot be written gives `None`.
pub fn workspace_command(workspace: &Workspace) -> Option<String> {
    let name = &workspace.name;
    let writable = !name.is_empty()
        && !name
            .chars()
            .any(|c| c == '"' || c == '\\' || c.is_control())
        && !RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name.trim()));
    if writable {
        // `$` starts a config variable; `$$` is a literal one.
        let name = name.replace('$', "$$");
        Some(format!("workspace --no-auto-back-and-forth \"{name}\""))
    } else if workspace.id >= 0 {
        let id = workspace.id;
        Some(format!("workspace --no-auto-back-and-forth number {id}"))
    } else {
        None
    }
}

/// `command` with Sway's pointer warping off while it runs, and `container` after (Sway
/// cannot be asked for the user's own setting).
pub fn unwarped(command: &str) -> String {
    format!("mouse_warping none; {command}; mouse_warping container")
}

#[derive(Deserialize)]
struct CommandResult {
    #[serde(default)]
    success: bool,
    #[serde(default)]
    error: Option<String>,
}

/// The reply to RUN_COMMAND or SUBSCRIBE: `Err` with sway's message when it failed.
pub fn check_reply(payload: &[u8]) -> Result<(), String> {
    let text = text(payload);
    let results: Vec<CommandResult> = match serde_json::from_str::<CommandResult>(&text) {
        Ok(one) => vec![one],
        Err(_) => serde_json::from_str(&text).map_err(|e| format!("reply: {e}"))?,
    };
    match results.into_iter().find(|r| !r.success) {
        Some(failed) => Err(cap_text(&failed.error.unwrap_or_else(|| "failed".into()))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
