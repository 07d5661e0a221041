//! What changes the bar besides the sample tick, each on the main loop through gio's
//! async IO: the compositor's IPC ([`compositor`]), the tray's D-Bus ([`tray`]), script
//! modules ([`script`]), rtnetlink ([`network`]), the sound server ([`audio`]), BlueZ
//! ([`bluetooth`]), power-profiles-daemon ([`power_profiles`]), media players
//! ([`media`]), PipeWire's video graph ([`capture`]), the open windows ([`tasks`]) and `ringbar msg`
//! ([`control`]). The parsers and states are core; the clients come with the `app`
//! feature.

pub mod audio;
pub mod backlight;
pub mod bluetooth;
#[cfg(feature = "app")]
pub mod bus_watch;
pub mod capture;
pub mod compositor;
#[cfg(feature = "app")]
pub mod control;
pub mod idle_inhibitor;
pub mod media;
pub mod network;
pub mod plugin;
pub mod power_profiles;
pub mod script;
#[cfg(feature = "app")]
pub mod socket_watch;
pub mod source;
pub mod tasks;
pub mod tray;
#[cfg(feature = "app")]
pub mod wayland_link;
#[cfg(feature = "app")]
pub mod wayland_outputs;

pub use source::{EventSource, EventState, Events, SourceCommand, SourceSettings, NO_EVENTS};
