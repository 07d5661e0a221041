//! What a compositor backend is to [`Compositor`](super::Compositor): something that
//! keeps the shared state up to date and carries out the bar's requests. Each backend
//! lives in its own folder and names itself with a [`Kind`]; `registry.rs` lists them.

use std::path::PathBuf;
use std::rc::Rc;

use super::shared::Shared;
use super::{Env, Located, Workspace};

/// A running connection to one compositor. It publishes to the [`Shared`] it was
/// started with, on the thread-default main context, and never blocks.
pub(super) trait Backend {
    /// Asks the compositor to show `workspace`; returns at once (a failure is logged).
    fn focus(&self, workspace: &Workspace);
    /// Switches the keyboard to its next layout.
    fn next_layout(&self);
    /// Drops the connection and every timer; nothing is published afterwards.
    fn stop(&self);
}

/// One kind of compositor: how to tell it runs, and how to start its backend.
pub(super) struct Kind {
    /// Its name for the config's `compositor` key and the logs: "sway", "niri".
    pub name: &'static str,
    /// Where it is reached, from the environment.
    pub locate: fn(Env) -> Located,
    /// Connects (or keeps trying to) at the place `locate` found.
    pub start: fn(PathBuf, Rc<Shared>) -> Rc<dyn Backend>,
}
