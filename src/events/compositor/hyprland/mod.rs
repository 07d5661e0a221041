//! Hyprland's IPC: the event lines of `.socket2.sock`, the JSON replies of `.socket.sock`
//! (`j/workspaces`, `j/monitors`, `j/activewindow`, `j/clients`, `j/version`), and the
//! requests that switch workspaces in either dispatch dialect.
//!
//! The parts: [`Event`] and [`address`] (`events.rs`), the replies read into a
//! [`CompositorState`](super::CompositorState) (`replies.rs`), [`Dialect`] and the
//! requests (`dialect.rs`).

use super::registry::Kind;
use std::path::PathBuf;

use super::{Env, Located};

#[cfg(feature = "app")]
mod client;
mod dialect;
mod events;
mod replies;

pub use dialect::{lua_string, version, Dialect};
pub use events::MAX_LINE;
pub use events::{address, Action, Event, WorkspaceRef};
pub use replies::{
    active_window_address, apply_clients, is_special, main_keyboard, parse_state,
    shown_last_windows,
};

/// The folder of Hyprland's `.socket.sock` and `.socket2.sock`, from
/// `HYPRLAND_INSTANCE_SIGNATURE`: `$XDG_RUNTIME_DIR/hypr/SIG` (0.40 and later), or
/// `/tmp/hypr/SIG` where only that exists (older releases). `None` when it is not set.
pub fn locate(var: Env) -> Located {
    let signature = var("HYPRLAND_INSTANCE_SIGNATURE").filter(|s| !s.is_empty())?;
    if signature.contains('/') || signature.starts_with('.') {
        return Some(Err("HYPRLAND_INSTANCE_SIGNATURE is not a signature"));
    }
    let runtime = var("XDG_RUNTIME_DIR").filter(|d| !d.is_empty());
    let current = runtime.map(|dir| PathBuf::from(dir).join("hypr").join(&signature));
    let old = PathBuf::from("/tmp/hypr").join(&signature);
    Some(Ok(match current {
        Some(dir) if dir.exists() || !old.exists() => dir,
        _ => old,
    }))
}

/// Hyprland in the registry.
pub(super) const BACKEND: Kind = Kind {
    name: "hyprland",
    locate,
    waybar: &[
        ("hyprland/workspaces", "workspaces"),
        ("hyprland/window", "window"),
        ("hyprland/language", "language"),
        ("hyprland/submap", "mode"),
        ("hyprland/windowcount", "windowcount"),
    ],
    #[cfg(feature = "app")]
    start: client::START,
};
