//! What changes the bar besides the sample tick, each on the main loop through gio's
//! async IO: the compositor's IPC ([`compositor`]), the tray's D-Bus ([`tray`]), script
//! modules ([`script`]), rtnetlink ([`network`]), the sound server ([`audio`]), BlueZ
//! ([`bluetooth`]), power-profiles-daemon ([`power_profiles`]) and `ringbar msg`
//! ([`control`]). The parsers and states are core; the clients come with the `app`
//! feature.

pub mod audio;
pub mod bluetooth;
pub mod compositor;
#[cfg(feature = "app")]
pub mod control;
pub mod network;
pub mod power_profiles;
pub mod script;
#[cfg(feature = "app")]
pub mod system_bus;
pub mod tray;
