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
pub mod tray;

/// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` where set (GLib ignores it in a program
/// with file capabilities, so it is read here), else the standard socket.
pub fn system_bus_address() -> String {
    std::env::var("DBUS_SYSTEM_BUS_ADDRESS")
        .ok()
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| "unix:path=/run/dbus/system_bus_socket".to_owned())
}
