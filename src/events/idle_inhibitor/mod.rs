//! The bar's own idle inhibitor (Wayland's idle-inhibit protocol) as an event source:
//! its state is whether it is on, and a click toggles it.

#[cfg(feature = "app")]
pub mod inhibitor;

use super::EventState;

/// Whether the idle inhibitor is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleInhibition {
    pub on: bool,
}

/// What a click asks of the idle inhibitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleCommand {
    /// On if it was off, off if it was on.
    Toggle,
}

impl EventState for IdleInhibition {
    const KEY: &'static str = "IdleInhibitor";
    type Command = IdleCommand;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = inhibitor::IdleInhibitor;
}
