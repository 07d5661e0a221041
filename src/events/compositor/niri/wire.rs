//! The part of niri's IPC that ringbar reads and writes, as JSON: one value per line,
//! serde's external tagging (`{"WindowClosed":{"id":7}}`, `"EventStream"`).
//!
//! These are niri's shapes written down here rather than taken from the `niri-ipc` crate:
//! that crate is GPL-3.0-or-later, which cannot be combined with ringbar's GPL-2.0-only
//! probe in one binary. The tests serialize `niri-ipc`'s own types and read them with
//! these, so a change of niri's protocol shows up there. Fields niri added over time
//! default when missing, and fields not read here are skipped.

use serde::Deserialize;
use serde_json::Value;

/// The request that turns a connection into the event stream.
pub const EVENT_STREAM: &[u8] = b"\"EventStream\"\n";
/// The action that switches the keyboard to its next layout.
pub const NEXT_LAYOUT: &[u8] = b"{\"Action\":{\"SwitchLayout\":{\"layout\":\"Next\"}}}\n";

/// The action that shows the workspace niri knows by `id`.
pub fn focus_workspace(id: u64) -> Vec<u8> {
    format!("{{\"Action\":{{\"FocusWorkspace\":{{\"reference\":{{\"Id\":{id}}}}}}}}}\n")
        .into_bytes()
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct Workspace {
    /// niri's handle for it, unchanged while it moves.
    pub id: u64,
    /// Its place on its output, from 1.
    pub idx: u8,
    pub name: Option<String>,
    pub output: Option<String>,
    pub is_urgent: bool,
    /// Shown on its output.
    pub is_active: bool,
    pub is_focused: bool,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct Window {
    pub id: u64,
    pub title: Option<String>,
    pub app_id: Option<String>,
    pub workspace_id: Option<u64>,
    pub is_focused: bool,
    pub is_urgent: bool,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct KeyboardLayouts {
    /// XKB's descriptions of the layouts: "English (US)".
    pub names: Vec<String>,
    pub current_idx: u8,
}

/// The events ringbar follows; niri sends more (screencasts, layouts of windows), and
/// those are [`Event::Other`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    WorkspacesChanged(Vec<Workspace>),
    WorkspaceUrgencyChanged { id: u64, urgent: bool },
    WorkspaceActivated { id: u64, focused: bool },
    WindowsChanged(Vec<Window>),
    WindowOpenedOrChanged(Window),
    WindowClosed { id: u64 },
    WindowFocusChanged { id: Option<u64> },
    WindowUrgencyChanged { id: u64, urgent: bool },
    KeyboardLayoutsChanged(KeyboardLayouts),
    KeyboardLayoutSwitched { idx: u8 },
    OverviewOpenedOrClosed { is_open: bool },
    Other,
}

#[derive(Deserialize)]
struct Id {
    id: u64,
}

#[derive(Deserialize)]
struct Urgency {
    id: u64,
    urgent: bool,
}

impl Event {
    /// One line of the event stream; `Err` says what is wrong with it.
    pub fn parse(line: &str) -> Result<Event, String> {
        let value: Value = serde_json::from_str(line).map_err(|err| err.to_string())?;
        let Value::Object(map) = value else {
            return Err("an event is not an object".into());
        };
        let mut entries = map.into_iter();
        let (Some((tag, mut body)), None) = (entries.next(), entries.next()) else {
            return Err("an event is not one tagged object".into());
        };
        let mut field = |name: &str| body.get_mut(name).map(Value::take).unwrap_or_default();
        let event = match tag.as_str() {
            "WorkspacesChanged" => Event::WorkspacesChanged(read(field("workspaces"))?),
            "WorkspaceUrgencyChanged" => {
                let Urgency { id, urgent } = read(body)?;
                Event::WorkspaceUrgencyChanged { id, urgent }
            }
            "WorkspaceActivated" => {
                let id = read(field("id"))?;
                let focused = read(field("focused"))?;
                Event::WorkspaceActivated { id, focused }
            }
            "WindowsChanged" => Event::WindowsChanged(read(field("windows"))?),
            "WindowOpenedOrChanged" => Event::WindowOpenedOrChanged(read(field("window"))?),
            "WindowClosed" => Event::WindowClosed {
                id: read::<Id>(body)?.id,
            },
            "WindowFocusChanged" => Event::WindowFocusChanged {
                id: read(field("id"))?,
            },
            "WindowUrgencyChanged" => {
                let Urgency { id, urgent } = read(body)?;
                Event::WindowUrgencyChanged { id, urgent }
            }
            "KeyboardLayoutsChanged" => {
                Event::KeyboardLayoutsChanged(read(field("keyboard_layouts"))?)
            }
            "KeyboardLayoutSwitched" => Event::KeyboardLayoutSwitched {
                idx: read(field("idx"))?,
            },
            "OverviewOpenedOrClosed" => Event::OverviewOpenedOrClosed {
                is_open: read(field("is_open"))?,
            },
            _ => Event::Other,
        };
        Ok(event)
    }
}

fn read<T: for<'de> Deserialize<'de>>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|err| err.to_string())
}

/// Whether niri's reply line says the request was carried out: `Err` holds niri's
/// reason, or why the line is no reply.
pub fn reply_ok(line: &[u8]) -> Result<(), String> {
    #[derive(Deserialize)]
    enum Reply {
        Ok(serde::de::IgnoredAny),
        Err(String),
    }
    match serde_json::from_slice::<Reply>(line.trim_ascii()) {
        Ok(Reply::Ok(_)) => Ok(()),
        Ok(Reply::Err(why)) => Err(super::super::cap_text(&why)),
        Err(err) => Err(format!("not a reply: {err}")),
    }
}
