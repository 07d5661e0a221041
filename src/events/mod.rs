//! What changes the bar besides the sample tick, each on the main loop through gio's
//! async IO: the compositor's IPC ([`compositor`]), the tray's D-Bus ([`tray`]), script
//! modules ([`script`]), rtnetlink ([`network`]), the sound server ([`audio`]), BlueZ
//! ([`bluetooth`]), power-profiles-daemon ([`power_profiles`]), media players
//! ([`media`]), PipeWire's video graph ([`capture`]) and `ringbar msg`
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
#[cfg(feature = "app")]
pub mod idle_inhibitor;
pub mod media;
pub mod network;
pub mod power_profiles;
pub mod script;
#[cfg(feature = "app")]
pub mod session_bus;
#[cfg(feature = "app")]
pub mod socket_watch;
#[cfg(feature = "app")]
pub mod system_bus;
pub mod tray;

/// An event source a module follows through the modules' `Events` (the compositor and
/// the scripts have their own ways). Adding one: its folder here, a variant, its field
/// in `Events`, and its start in `app/event_sources.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// rtnetlink's links, addresses and routes.
    Network,
    /// The sound server's sinks and sources.
    Audio,
    /// BlueZ on the system bus.
    Bluetooth,
    /// power-profiles-daemon on the system bus.
    PowerProfiles,
    /// MPRIS media players on the session bus.
    Media,
    /// The bar's own idle inhibitor (Wayland's idle-inhibit protocol).
    IdleInhibitor,
    /// The backlights in sysfs, and the kernel's uevents.
    Backlight,
    /// PipeWire's video graph: cameras and screen shares in use.
    Capture,
}

impl Source {
    pub const ALL: [Source; 8] = [
        Source::Network,
        Source::Audio,
        Source::Bluetooth,
        Source::PowerProfiles,
        Source::Media,
        Source::IdleInhibitor,
        Source::Backlight,
        Source::Capture,
    ];
}

/// What a click or a scroll asks of an event source.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Audio(audio::AudioCommand),
    Bluetooth(bluetooth::BluetoothCommand),
    PowerProfile(power_profiles::PowerProfileCommand),
    Media(media::MediaCommand),
    /// Turns the idle inhibitor on, or off.
    ToggleIdleInhibitor,
    Backlight(backlight::BacklightCommand),
}

impl Command {
    /// The source that carries the command out.
    pub fn source(&self) -> Source {
        match self {
            Command::Audio(_) => Source::Audio,
            Command::Bluetooth(_) => Source::Bluetooth,
            Command::PowerProfile(_) => Source::PowerProfiles,
            Command::Media(_) => Source::Media,
            Command::ToggleIdleInhibitor => Source::IdleInhibitor,
            Command::Backlight(_) => Source::Backlight,
        }
    }
}
