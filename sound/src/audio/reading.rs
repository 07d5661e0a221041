//! One read of the sound server's state: the replies to the five requests a read makes
//! (server info, sinks, sources, recording streams, playing streams), and the state they
//! make together.

use std::ffi::CStr;

use pulseaudio::protocol::{
    ChannelVolume, Props, SinkInfo, SinkInputInfo, SinkState, SourceInfo, SourceOutputInfo, Volume,
};

use ringbar::events::audio::{shown_sink, AppStream, AudioSettings, AudioState, Sink, Source};

/// The replies of one read of the state.
#[derive(Default)]
pub(super) struct Reading {
    pub(super) default_sink: Option<String>,
    pub(super) default_source: Option<String>,
    pub(super) sinks: Vec<(Sink, ChannelVolume)>,
    /// Every sink's description, by its index.
    pub(super) sink_descriptions: Vec<(u32, String)>,
    pub(super) sources: Vec<Source>,
    /// The sources that are a sink's monitor (by index), and every source's description.
    pub(super) monitors: Vec<u32>,
    pub(super) descriptions: Vec<(u32, String)>,
    /// Recording streams, by the index of the source they record from.
    pub(super) recordings: Vec<(u32, AppStream)>,
    /// Playing streams, by the index of the sink they play to.
    pub(super) playbacks: Vec<(u32, AppStream)>,
    /// Replies still to come: server info, sink list, source list, recording streams,
    /// playing streams.
    pub(super) waiting: u8,
}

impl Reading {
    /// The state, the shown sink's channel volumes, and whether the server's default
    /// sink was among the sinks (a read between its change and its list's is not).
    pub(super) fn into_state(
        self,
        settings: &AudioSettings,
    ) -> (AudioState, Option<ChannelVolume>, bool) {
        let (listed, channels): (Vec<Sink>, Vec<ChannelVolume>) = self.sinks.into_iter().unzip();
        let server_default = self.default_sink.as_deref();
        let settled = listed.is_empty() || listed.iter().any(|s| Some(&*s.name) == server_default);
        let shown = shown_sink(&listed, server_default, &settings.ignored_sinks);
        let default = shown.map(|sink| sink.name.clone());
        let volumes = shown
            .and_then(|sink| listed.iter().position(|s| std::ptr::eq(s, sink)))
            .map(|at| channels[at]);
        let source = self
            .sources
            .into_iter()
            .find(|source| Some(&source.name) == self.default_source.as_ref());
        let monitors = &self.monitors;
        let recordings = self.recordings.into_iter();
        let recordings = recordings.filter(|(from, _)| !monitors.contains(from));
        let state = AudioState {
            sinks: listed,
            default_sink: default,
            source,
            recordings: described(recordings, &self.descriptions),
            playbacks: described(self.playbacks.into_iter(), &self.sink_descriptions),
        };
        (state, volumes, settled)
    }
}

/// The streams, each with its device's description (by the device's index).
fn described(
    streams: impl Iterator<Item = (u32, AppStream)>,
    descriptions: &[(u32, String)],
) -> Vec<AppStream> {
    let with_device = |(device, mut stream): (u32, AppStream)| {
        let found = descriptions.iter().find(|(index, _)| *index == device);
        stream.device = found.map(|(_, d)| d.clone()).unwrap_or_default();
        stream
    };
    streams.map(with_device).collect()
}

/// A name or description as the server gave it (its bytes need not be UTF-8).
pub(super) fn name_of(name: &CStr) -> String {
    name.to_string_lossy().into_owned()
}

/// A property's text: the server sends it with its closing NUL.
fn property(props: &Props, key: &CStr) -> Option<String> {
    let bytes = props.get_bytes(key)?;
    let text = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    Some(String::from_utf8_lossy(text).into_owned())
}

/// The channels' average, in percent of the normal volume (100 % = unamplified).
fn percent(volumes: &ChannelVolume) -> f64 {
    let channels = volumes.channels();
    if channels.is_empty() {
        return 0.0;
    }
    let sum: u64 = channels.iter().map(|v| u64::from(v.as_u32())).sum();
    let average = sum / channels.len() as u64;
    average as f64 * 100.0 / f64::from(Volume::NORM.as_u32())
}

pub(super) fn sink_of(info: &SinkInfo) -> (Sink, ChannelVolume) {
    let port = info.ports.get(info.active_port);
    let sink = Sink {
        name: name_of(&info.name),
        description: info.description.as_deref().map(name_of).unwrap_or_default(),
        volume: percent(&info.cvolume),
        muted: info.muted,
        port: port.map(|p| name_of(&p.name)),
        port_description: port.and_then(|p| p.description.as_deref()).map(name_of),
        bluetooth: property(&info.props, c"device.bus").as_deref() == Some("bluetooth"),
        running: matches!(info.state, SinkState::Running | SinkState::Idle),
    };
    (sink, info.cvolume)
}

/// A stream that records now: not paused (corked), and not one of ringbar's own.
pub(super) fn recording_of(info: &SourceOutputInfo) -> Option<AppStream> {
    app_stream(info.corked, &info.props, &info.name)
}

/// A stream that plays now: not paused (corked), and not one of ringbar's own.
pub(super) fn playback_of(info: &SinkInputInfo) -> Option<AppStream> {
    app_stream(info.corked, &info.props, &info.name)
}

fn app_stream(corked: bool, props: &Props, name: &CStr) -> Option<AppStream> {
    if corked {
        return None;
    }
    let pid = property(props, c"application.process.id").and_then(|pid| pid.parse::<u32>().ok());
    if pid == Some(std::process::id()) {
        return None;
    }
    let app = property(props, c"application.name").unwrap_or_else(|| name_of(name));
    Some(AppStream {
        app: clean_name(&app),
        pid,
        device: String::new(),
    })
}

/// Control characters out and the length bounded: a name as a client gave it.
fn clean_name(name: &str) -> String {
    ringbar::text::shown(name, ' ').take(128).collect()
}

/// A source that is not a sink's monitor.
pub(super) fn source_of(info: &SourceInfo) -> Option<Source> {
    if info.monitor_of_sink_index.is_some() {
        return None;
    }
    Some(Source {
        name: name_of(&info.name),
        description: info.description.as_deref().map(name_of).unwrap_or_default(),
        volume: percent(&info.cvolume),
        muted: info.muted,
    })
}
