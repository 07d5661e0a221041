//! The sound server as its PulseAudio protocol tells it (PipeWire's `pipewire-pulse`, or
//! PulseAudio itself): the sinks, the default sink and the default source, kept up to
//! date from its subscription events. The state is core and knows nothing of libpulse:
//! the client that talks to the server is in the sound plugin (`sound/src/audio`), which
//! the bar opens only when a module listed needs it.

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

/// One output device (`alsa_output.pci-0000_00_1f.3.analog-stereo`, a Bluetooth headset).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sink {
    pub name: String,
    /// What the server calls it for people: `Built-in Audio Analog Stereo`.
    pub description: String,
    /// The average of its channels, in percent of the normal volume (100 % = 0 dB).
    pub volume: f64,
    pub muted: bool,
    /// Its active port (`analog-output-headphones`) and that port's description.
    pub port: Option<String>,
    pub port_description: Option<String>,
    /// A Bluetooth device (`device.bus` is `bluetooth`).
    pub bluetooth: bool,
    /// Playing or ready to (the server's running or idle), not suspended.
    pub running: bool,
}

/// The default input device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub name: String,
    pub description: String,
    pub volume: f64,
    pub muted: bool,
}

/// An application's stream, for the `privacy` module: one recording from an input device
/// (not a sink's monitor), a microphone in use; or one playing to an output device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AppStream {
    /// `application.name` (`pw-record`, `Firefox`), else the stream's own name.
    pub app: String,
    /// `application.process.id`, where the client said.
    pub pid: Option<u32>,
    /// The device's description (`Built-in Audio Analog Stereo`).
    pub device: String,
}

/// What the modules show and act on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AudioState {
    /// Every sink, in the server's order.
    pub sinks: Vec<Sink>,
    /// The name of the sink the modules show and act on: the server's default, unless
    /// its description is among the ignored sinks ([`AudioSettings`]); then the first
    /// other sink that runs, else the first other one.
    pub default_sink: Option<String>,
    /// The default source (not a sink's monitor), if there is one.
    pub source: Option<Source>,
    /// The streams recording from an input device now (not paused, not ringbar's own).
    pub recordings: Vec<AppStream>,
    /// The streams playing to an output device now (not paused).
    pub playbacks: Vec<AppStream>,
}

impl AudioState {
    pub fn default_sink(&self) -> Option<&Sink> {
        let name = self.default_sink.as_deref()?;
        self.sinks.iter().find(|s| s.name == name)
    }
}

/// What a click or a scroll on the module asks of the sound server.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum AudioCommand {
    /// Changes the default sink's volume by `percent` points, never above `max_percent`
    /// (nor below 0), keeping the balance of its channels.
    ChangeVolume {
        percent: f64,
        max_percent: f64,
    },
    ToggleMute,
    ToggleSourceMute,
}

/// The port kinds `format-icons` may name, as Waybar picks them from the port's name
/// (`analog-output-headphones` → `headphone`); `default` for anything else.
pub const PORT_KINDS: [&str; 9] = [
    "headphone",
    "speaker",
    "hdmi",
    "headset",
    "hands-free",
    "portable",
    "car",
    "hifi",
    "phone",
];

impl Sink {
    /// The kind of its active port, for `format-icons`.
    pub fn port_kind(&self) -> &'static str {
        let port = self.port.as_deref().unwrap_or("").to_ascii_lowercase();
        PORT_KINDS
            .into_iter()
            .find(|kind| port.contains(kind))
            .unwrap_or("default")
    }
}

/// The volume a step leads to: `current + percent`, within `0..=max_percent`; a scroll
/// up leaves a volume already at or above the cap (set higher elsewhere) as it is.
pub fn stepped(current: f64, percent: f64, max_percent: f64) -> f64 {
    if percent > 0.0 {
        match current >= max_percent {
            true => current,
            false => (current + percent).min(max_percent),
        }
    } else {
        (current + percent).max(0.0)
    }
}

/// What the modules tell the source: Waybar's `ignored-sinks`, sinks by their
/// description never to be the one shown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AudioSettings {
    pub ignored_sinks: Vec<String>,
}

/// The sink to show among `sinks`: `default` unless ignored, else one not ignored,
/// running ones first.
pub fn shown_sink<'a>(
    sinks: &'a [Sink],
    default: Option<&str>,
    ignored: &[String],
) -> Option<&'a Sink> {
    let kept = |s: &&Sink| !ignored.contains(&s.description);
    let default = sinks.iter().find(|s| Some(s.name.as_str()) == default);
    if ignored.is_empty() {
        // A default the list lacks (yet) shows nothing.
        return default;
    }
    default
        .filter(kept)
        .or_else(|| sinks.iter().filter(kept).find(|s| s.running))
        .or_else(|| sinks.iter().find(kept))
}

impl super::EventState for AudioState {
    const KEY: &'static str = "Audio";
    type Command = AudioCommand;
    type Settings = AudioSettings;
    #[cfg(feature = "app")]
    type Watch = crate::events::plugin::PluginWatch<Self>;
}

impl crate::events::plugin::PluginSource for AudioState {
    const PLUGIN: &'static str = crate::events::plugin::SOUND_FILE;
}
