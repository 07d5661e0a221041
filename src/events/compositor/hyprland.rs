//! Hyprland's IPC: the event lines of `.socket2.sock`, the JSON replies of `.socket.sock`
//! (`j/workspaces`, `j/monitors`, `j/activewindow`, `j/clients`, `j/version`), and the
//! requests that switch workspaces in either dispatch dialect.
//!
//! The parts: [`Event`] and [`address`] (`events.rs`), the replies read into a
//! [`CompositorState`](super::CompositorState) (`replies.rs`), [`Dialect`] and the
//! requests (`dialect.rs`), and [`LineReader`] (`lines.rs`).

mod dialect;
mod events;
mod lines;
mod replies;

pub use dialect::{lua_string, version, Dialect};
pub use events::{address, Action, Event, WorkspaceRef};
pub use lines::{LineReader, MAX_LINE};
pub use replies::{active_window_address, apply_urgent, is_special, main_keyboard, parse_state};
