//! One read of the sound server's state: the replies to the four requests a read makes
//! (server info, sinks, sources, recording streams), and the state they make together.

use libpulse_binding::context::introspect::{SinkInfo, SourceInfo, SourceOutputInfo};
use libpulse_binding::volume::{ChannelVolumes, Volume};

use super::{AudioState, Recording, Sink, Source};

/// The replies of one read of the state.
#[derive(Default)]
pub(super) struct Reading {
    pub(super) default_sink: Option<String>,
    pub(super) default_source: Option<String>,
    pub(super) sinks: Vec<(Sink, ChannelVolumes)>,
    pub(super) sources: Vec<Source>,
    /// The sources that are a sink's monitor (by index), and every source's description.
    pub(super) monitors: Vec<u32>,
    pub(super) descriptions: Vec<(u32, String)>,
    /// Recording streams, by the index of the source they record from.
    pub(super) recordings: Vec<(u32, Recording)>,
    /// Replies still to come: server info, sink list, source list, recording streams.
    pub(super) waiting: u8,
}

impl Reading {
    pub(super) fn into_state(self) -> (AudioState, Option<ChannelVolumes>) {
        let default = self.default_sink;
        let volumes = self
            .sinks
            .iter()
            .find(|(sink, _)| Some(&sink.name) == default.as_ref())
            .map(|(_, volumes)| *volumes);
        let source = self
            .sources
            .into_iter()
            .find(|source| Some(&source.name) == self.default_source.as_ref());
        let (monitors, descriptions) = (&self.monitors, &self.descriptions);
        let recordings = self
            .recordings
            .into_iter()
            .filter(|(from, _)| !monitors.contains(from))
            .map(|(from, mut recording)| {
                let described = descriptions.iter().find(|(index, _)| *index == from);
                recording.source = described.map(|(_, d)| d.clone()).unwrap_or_default();
                recording
            })
            .collect();
        let state = AudioState {
            sinks: self.sinks.into_iter().map(|(sink, _)| sink).collect(),
            default_sink: default,
            source,
            recordings,
        };
        (state, volumes)
    }
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
    };
    (sink, info.volume)
}

/// A stream that records now: not paused (corked), and not one of ringbar's own.
pub(super) fn recording_of(info: &SourceOutputInfo<'_>) -> Option<Recording> {
    if info.corked {
        return None;
    }
    let pid = info
        .proplist
        .get_str("application.process.id")
        .and_then(|pid| pid.parse::<u32>().ok());
    if pid == Some(std::process::id()) {
        return None;
    }
    let name = info.proplist.get_str("application.name");
    let app = name.or_else(|| info.name.as_deref().map(str::to_owned));
    Some(Recording {
        app: clean_name(&app.unwrap_or_default()),
        pid,
        source: String::new(),
    })
}

/// Control characters out and the length bounded: a name as a client gave it.
fn clean_name(name: &str) -> String {
    crate::text::shown(name, ' ').take(128).collect()
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
