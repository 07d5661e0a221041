//! What a compositor backend is to [`Compositor`](super::Compositor): something that
//! keeps the shared state up to date and carries out the bar's requests. Each backend
//! lives in its own folder and names itself with a `Kind`; `registry.rs` lists them.

use std::path::PathBuf;
use std::rc::Rc;

use super::shared::Shared;
use super::Workspace;

/// A running connection to one compositor. It publishes to the [`Shared`] it was
/// started with, on the thread-default main context, and never blocks.
pub(super) trait Backend {
    /// Asks the compositor to show `workspace`; returns at once (a failure is logged).
    fn focus(&self, workspace: &Workspace);
    /// The same, the pointer left where it is where the compositor would warp it.
    fn focus_without_warping(&self, workspace: &Workspace) {
        self.focus(workspace);
    }
    /// Switches the keyboard to its next layout.
    fn next_layout(&self);
    /// Drops the connection and every timer; nothing is published afterwards.
    fn stop(&self);
}

/// Connects (or keeps trying to) at the place a backend's `locate` found.
pub(super) type Start = fn(PathBuf, Rc<Shared>) -> Rc<dyn Backend>;
