//! What changes the bar besides the sample tick, each on the main loop through gio's
//! async IO: the compositor's IPC ([`compositor`]), the tray's D-Bus ([`tray`]), script
//! modules ([`script`]), rtnetlink ([`network`]), the sound server ([`audio`]), BlueZ
//! ([`bluetooth`]) and `ringbar msg` ([`control`]). The
//! parsers and states are core; the clients come with the `app` feature.

pub mod audio;
pub mod bluetooth;
pub mod compositor;
#[cfg(feature = "app")]
pub mod control;
pub mod network;
pub mod script;
pub mod tray;
