//! niri's IPC: JSON lines over the Unix socket at `$NIRI_SOCKET`. One connection asks for
//! the event stream and then only reads; each action (show a workspace, switch the
//! layout) goes on a connection of its own.
//!
//! The parts: the wire format (`wire.rs`), and what the events add up to (`state.rs`).

use super::registry::Kind;
use super::{Env, Located};

#[cfg(feature = "app")]
mod client;
mod state;
mod wire;

pub use state::{Niri, MAX_WINDOWS, MAX_WORKSPACES, OVERVIEW_MODE};
pub use wire::{focus_workspace, reply_ok, Event, EVENT_STREAM, NEXT_LAYOUT};

/// The longest line of the event stream kept: `WindowsChanged` lists every window with
/// its title, a few hundred bytes each.
pub const MAX_LINE: usize = 16 << 20;

/// niri's socket, from `NIRI_SOCKET`; `None` when it is not set.
pub fn locate(var: Env) -> Located {
    var("NIRI_SOCKET")
        .filter(|p| !p.is_empty())
        .map(|path| Ok(path.into()))
}

/// Niri in the registry.
pub(super) const BACKEND: Kind = Kind {
    name: "niri",
    locate,
    waybar: &[
        ("niri/workspaces", "workspaces"),
        ("niri/window", "window"),
        ("niri/language", "language"),
    ],
    #[cfg(feature = "app")]
    start: client::START,
};

#[cfg(test)]
mod tests;
