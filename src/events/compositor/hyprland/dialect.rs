//! The requests that switch workspaces, in either dispatch dialect ([`Dialect`]): legacy
//! `DISPATCHER ARGS` or Lua (0.57 and later), chosen by the `j/version` reply.

use serde::Deserialize;

use super::replies::text;
use crate::events::compositor::Workspace;

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

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
