//! One read of the sound server's state: the replies to the five requests a read makes
//! (server info, sinks, sources, recording streams, playing streams), and the state they
//! make together.

use libpulse_binding::context::introspect::{
    SinkInfo, SinkInputInfo, SourceInfo, SourceOutputInfo,
};
use libpulse_binding::def::SinkState;
use libpulse_binding::volume::{ChannelVolumes, Volume};

use ringbar::events::audio::{shown_sink, AppStream, AudioSettings, AudioState, Sink, Source};

/// The replies of one read of the state.
#[derive(Default)]
pub(super) struct Reading {
    pub(super) default_sink: Option<String>,
    pub(super) default_source: Option<String>,
    pub(super) sinks: Vec<(Sink, ChannelVolumes)>,
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
    ) -> (AudioState, Option<ChannelVolumes>, bool) {
        let (listed, channels): (Vec<Sink>, Vec<ChannelVolumes>) = self.sinks.into_iter().unzip();
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

fn percent(volumes: &ChannelVolumes) -> f64 {
    f64::from(volumes.avg().0) * 100.0 / f64::from(Volume::NORMAL.0)
}

pub(super) fn sink_of(info: &SinkInfo<'_>) -> (Sink, ChannelVolumes) {
    let port = info.active_port.as_ref();
    let sink = Sink {
        name: info.name.as_deref().unwrap_or_default().to_owned(),
        description: info.description.as_deref().unwrap_or_default().to_owned(),
        volume: percent(&info.volume),
        muted: info.mute,
        port: port.and_then(|p| p.name.as_deref()).map(str::to_owned),
        port_description: port
            .and_then(|p| p.description.as_deref())
            .map(str::to_owned),
        bluetooth: info.proplist.get_str("device.bus").as_deref() == Some("bluetooth"),
        running: matches!(info.state, SinkState::Running | SinkState::Idle),
    };
    (sink, info.volume)
}

/// A stream that records now: not paused (corked), and not one of ringbar's own.
pub(super) fn recording_of(info: &SourceOutputInfo<'_>) -> Option<AppStream> {
    let name = info.name.as_deref();
    app_stream(info.corked, &info.proplist, name)
}

/// A stream that plays now: not paused (corked), and not one of ringbar's own.
pub(super) fn playback_of(info: &SinkInputInfo<'_>) -> Option<AppStream> {
    let name = info.name.as_deref();
    app_stream(info.corked, &info.proplist, name)
}

fn app_stream(
    corked: bool,
    properties: &libpulse_binding::proplist::Proplist,
    name: Option<&str>,
) -> Option<AppStream> {
    if corked {
        return None;
    }
    let pid = properties
        .get_str("application.process.id")
        .and_then(|pid| pid.parse::<u32>().ok());
    if pid == Some(std::process::id()) {
        return None;
    }
    let app = properties.get_str("application.name");
    let app = app.or_else(|| name.map(str::to_owned));
    Some(AppStream {
        app: clean_name(&app.unwrap_or_default()),
        pid,
        device: String::new(),
    })
}

/// Control characters out and the length bounded: a name as a client gave it.
fn clean_name(name: &str) -> String {
    ringbar::text::shown(name, ' ').take(128).collect()
}

/// A source that is not a sink's monitor.
pub(super) fn source_of(info: &SourceInfo<'_>) -> Option<Source> {
    if info.monitor_of_sink.is_some() {
        return None;
    }
    Some(Source {
        name: info.name.as_deref().unwrap_or_default().to_owned(),
        description: info.description.as_deref().unwrap_or_default().to_owned(),
        volume: percent(&info.volume),
        muted: info.mute,
    })
}
