//! Wayfire's IPC (its `ipc` and `ipc-rules` plugins): JSON messages, each after its
//! length in four little-endian bytes, over the Unix socket at `$WAYFIRE_SOCKET`. One
//! connection asks for the outputs, the views and the focus, then for the events, and
//! carries the bar's requests (show a workspace, through the `vswitch` plugin).
//!
//! Wayfire's workspaces are a grid on each output; they are shown as numbered from 1,
//! row by row. The parts: the framing (`wire.rs`), and what the replies and events add up
//! to (`state.rs`).

use super::registry::Kind;
use super::{Env, Located};

#[cfg(feature = "app")]
mod client;
mod state;
mod wire;

pub use state::{Wayfire, MAX_GRID, MAX_VIEWS};
pub use wire::{message, Frames, MAX_MESSAGE};

/// Wayfire's socket, from `WAYFIRE_SOCKET`; `None` when it is not set.
pub fn locate(var: Env) -> Located {
    var("WAYFIRE_SOCKET")
        .filter(|p| !p.is_empty())
        .map(|path| Ok(path.into()))
}

/// Wayfire in the registry.
pub(super) const BACKEND: Kind = Kind {
    name: "wayfire",
    locate,
    waybar: &[
        ("wayfire/workspaces", "workspaces"),
        ("wayfire/window", "window"),
    ],
    #[cfg(feature = "app")]
    start: client::START,
};

#[cfg(test)]
mod tests;
