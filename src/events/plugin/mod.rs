//! The plugins' interface: the C functions by which the bar starts, commands and stops
//! the clients a plugin holds. Two plugins, shared objects the bar opens only when a
//! module listed needs one: `sound/` (the sound server over libpulse, for `audio` and
//! `privacy`'s microphones) and `video/` (PipeWire's video graph over libpipewire, for
//! `privacy`'s cameras and screen shares). A bar without those modules maps neither
//! library, and one with `audio` alone maps no libpipewire.
//!
//! Both sides are built from this file ([`guest`] is the plugins' side). States,
//! settings and commands cross as JSON of the core's own types: they change a few times
//! a minute, never each tick.

#[cfg(feature = "app")]
pub mod guest;
#[cfg(feature = "app")]
mod guest_log;
#[cfg(feature = "app")]
mod host;

use std::ffi::{c_void, CStr};

#[cfg(feature = "app")]
pub use host::PluginWatch;

use crate::events::source::EventState;

/// The plugins' file names, next to the bar's executable (a build's `target/release/`)
/// or in `../lib/ringbar/` from it (a package's `/usr/lib/ringbar/`).
pub const SOUND_FILE: &str = "libringbar_sound.so";
pub const VIDEO_FILE: &str = "libringbar_video.so";
/// Every plugin, one line each: what the bar may open and a build installs.
pub const FILE_NAMES: [&str; 2] = [SOUND_FILE, VIDEO_FILE];

/// A source served by a plugin: the state says which (one of [`FILE_NAMES`]) beside its
/// `type Watch = PluginWatch<Self>`.
pub trait PluginSource: EventState {
    const PLUGIN: &'static str;
}

/// The symbol a plugin exports: `extern "C" fn() -> &'static PluginApi`.
pub const ENTRY: &[u8] = b"ringbar_plugin\0";

/// Which build of this interface and of the types crossing it the plugin was made
/// with; the bar opens only its own (an upgrade can replace the file under a running
/// bar).
pub const BUILD: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "/plugin-2\0").as_bytes()) {
        Ok(build) => build,
        Err(_) => panic!("BUILD ends in its only NUL"),
    };

/// Bytes lent for the length of a call; a null `ptr` is "none".
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Bytes {
    pub ptr: *const u8,
    pub len: usize,
}

impl Bytes {
    pub const NONE: Bytes = Bytes {
        ptr: std::ptr::null(),
        len: 0,
    };

    pub fn of(bytes: &[u8]) -> Bytes {
        Bytes {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }

    /// The bytes, `None` for [`Bytes::NONE`].
    ///
    /// # Safety
    /// `ptr` is null or points at `len` bytes that stay valid and unchanged for `'a`.
    pub unsafe fn get<'a>(self) -> Option<&'a [u8]> {
        if self.ptr.is_null() {
            return None;
        }
        // SAFETY: the caller's promise: `len` valid bytes at a non-null `ptr`.
        Some(unsafe { std::slice::from_raw_parts(self.ptr, self.len) })
    }
}

/// What the bar lends a client it starts. The plugin calls it on the main loop only,
/// and never after `stop` returned.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Host {
    /// The bar's own, passed back with each state.
    pub data: *mut c_void,
    /// A new state as JSON, or [`Bytes::NONE`] while the service is absent.
    pub on_change: unsafe extern "C" fn(data: *mut c_void, state: Bytes),
    /// A log line of the plugin's at `level` (1 error … 5 trace), for the bar's log.
    pub log: unsafe extern "C" fn(level: u8, line: Bytes),
    /// The most detailed level the bar's log keeps (0: none).
    pub max_level: u8,
}

/// The plugin's functions.
#[repr(C)]
pub struct PluginApi {
    /// [`BUILD`] as the plugin was built.
    pub build: *const std::ffi::c_char,
    /// Starts the client of the source named `key` (its `EventState::KEY`) with its
    /// settings (JSON): a handle, or null where it cannot run (logged).
    pub start: unsafe extern "C" fn(key: Bytes, settings: Bytes, host: Host) -> *mut c_void,
    /// A click's command (JSON) for the client `handle`.
    pub command: unsafe extern "C" fn(handle: *mut c_void, command: Bytes),
    /// Stops the client `handle`; it calls its host no more.
    pub stop: unsafe extern "C" fn(handle: *mut c_void),
}

// SAFETY: the table is immutable and `build` points at a static string.
unsafe impl Sync for PluginApi {}

/// Log levels as they cross: 1 error … 5 trace.
pub fn level_number(level: tracing::Level) -> u8 {
    match level {
        tracing::Level::ERROR => 1,
        tracing::Level::WARN => 2,
        tracing::Level::INFO => 3,
        tracing::Level::DEBUG => 4,
        tracing::Level::TRACE => 5,
    }
}

/// A command that can cross: JSON of the core's type, or none at all.
pub trait PluginCommand: Sized {
    fn encode(&self) -> Vec<u8>;
    fn decode(bytes: &[u8]) -> Option<Self>;
}

impl PluginCommand for std::convert::Infallible {
    fn encode(&self) -> Vec<u8> {
        match *self {}
    }

    fn decode(_: &[u8]) -> Option<Self> {
        None
    }
}

impl PluginCommand for crate::events::audio::AudioCommand {
    fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::audio::{AudioCommand, AudioState, Sink};

    #[test]
    fn states_and_commands_cross_unchanged() {
        let state = AudioState {
            sinks: vec![Sink {
                name: "alsa_output.pci".into(),
                description: "Built-in \"Audio\" ✓".into(),
                volume: 37.5,
                muted: true,
                port: Some("analog-output-headphones".into()),
                ..Sink::default()
            }],
            default_sink: Some("alsa_output.pci".into()),
            ..AudioState::default()
        };
        let json = serde_json::to_vec(&state).expect("encode");
        let back: AudioState = serde_json::from_slice(&json).expect("decode");
        assert_eq!(back, state);
        let command = AudioCommand::ChangeVolume {
            percent: -5.0,
            max_percent: 150.0,
        };
        assert_eq!(AudioCommand::decode(&command.encode()), Some(command));
        assert_eq!(AudioCommand::decode(b"{\"Unknown\":1}"), None);
    }

    #[test]
    fn the_video_graph_has_a_plugin_of_its_own() {
        use crate::events::capture::CaptureState;
        assert_eq!(CaptureState::PLUGIN, VIDEO_FILE);
        assert_eq!(AudioState::PLUGIN, SOUND_FILE);
        assert!(
            FILE_NAMES.contains(&CaptureState::PLUGIN) && FILE_NAMES.contains(&AudioState::PLUGIN)
        );
    }

    #[test]
    fn bytes_lend_what_they_point_at() {
        let text = b"abc";
        // SAFETY: `text` outlives the call.
        assert_eq!(unsafe { Bytes::of(text).get() }, Some(&text[..]));
        // SAFETY: null is "none".
        assert_eq!(unsafe { Bytes::NONE.get() }, None);
    }
}
