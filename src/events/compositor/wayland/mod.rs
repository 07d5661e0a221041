//! Workspaces and the focused window from the compositor's standard Wayland protocols,
//! for compositors without an IPC of their own: `ext-workspace-v1` (labwc, COSMIC,
//! Wayfire's plugin…) and `wlr-foreign-toplevel-management-unstable-v1`. Last in the
//! registry: followed when no compositor IPC is named.
//!
//! The parts: what the protocols' events add up to (`desktop.rs`, pure), the objects and
//! their events (`protocols.rs`) and the connection (`client.rs`).

use super::registry::Kind;
use super::{Env, Located};

#[cfg(feature = "app")]
mod client;
mod desktop;
#[cfg(feature = "app")]
mod protocols;

pub use desktop::{Desktop, ACTIVE, HIDDEN, MAX_OBJECTS, TOPLEVEL_ACTIVATED, URGENT};

/// The compositor's Wayland socket, as clients find it: `WAYLAND_DISPLAY` (a name in
/// `XDG_RUNTIME_DIR`, or a path), `wayland-0` when unset. `None` without a runtime folder
/// for a name.
pub fn locate(var: Env) -> Located {
    let display = var("WAYLAND_DISPLAY")
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "wayland-0".to_owned());
    if display.starts_with('/') {
        return Some(Ok(display.into()));
    }
    let runtime = var("XDG_RUNTIME_DIR").filter(|d| !d.is_empty())?;
    Some(Ok(std::path::Path::new(&runtime).join(display)))
}

/// Wayland in the registry.
pub(super) const BACKEND: Kind = Kind {
    name: "wayland",
    locate,
    waybar: &[
        ("ext/workspaces", "workspaces"),
        ("wlr/workspaces", "workspaces"),
    ],
    #[cfg(feature = "app")]
    start: client::START,
};

#[cfg(test)]
mod tests;
