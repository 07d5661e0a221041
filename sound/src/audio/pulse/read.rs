//! Reading the server's whole state: server info, sinks, sources and streams are asked for
//! at once, their replies arrive in turn, and the last one makes the new state.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::Duration;

use pulseaudio::protocol::{
    Command, ServerInfo, SinkInfoList, SinkInputInfo, SinkInputInfoList, SourceInfoList,
    SourceOutputInfo, SourceOutputInfoList,
};

use super::wire::Packet;
use super::{connect, disconnect, send, Inner, Request};
use crate::audio::reading::{name_of, playback_of, recording_of, sink_of, source_of, Reading};

/// pipewire-pulse (0.3.65) can name no default sink (`@DEFAULT_SINK@`) after it starts,
/// and its view for this client can stay so, with no event, while a new client sees the
/// default: a read whose default sink is not among the sinks is made again, 0.1 s later,
/// then twice as long each time, four times; then the bar connects again, once.
const UNSETTLED_WAIT: Duration = Duration::from_millis(100);
const UNSETTLED_READS: u32 = 4;

/// One read of the state for a burst of events, on the next turn of the main loop.
pub(super) fn queue_refresh(weak: &Weak<RefCell<Inner>>) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let mut inner = inner_rc.borrow_mut();
    if inner.refresh_queued {
        return;
    }
    inner.refresh_queued = true;
    let weak = weak.clone();
    glib::idle_add_local_once(move || refresh(&weak));
}

fn refresh(weak: &Weak<RefCell<Inner>>) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let mut inner = inner_rc.borrow_mut();
    inner.refresh_queued = false;
    if inner.reading.is_some() {
        // A read is under way; its replies will reflect what changed since it began,
        // or the event that queued this one comes again: read once more after it.
        inner.refresh_queued = true;
        let weak = weak.clone();
        glib::timeout_add_local_once(Duration::from_millis(50), move || refresh(&weak));
        return;
    }
    if !inner.ready {
        return; // not connected (yet, or any more): `ready` reads once it is
    }
    let requests = [
        (Command::GetServerInfo, Request::ServerInfo),
        (Command::GetSinkInfoList, Request::Sinks),
        (Command::GetSourceInfoList, Request::Sources),
        (Command::GetSourceOutputInfoList, Request::Recordings),
        (Command::GetSinkInputInfoList, Request::Playbacks),
    ];
    let waiting = requests.len() as u8;
    for (command, request) in requests {
        send(&mut inner, &command, request);
    }
    inner.reading = Some(Reading {
        waiting,
        ..Reading::default()
    });
}

/// One of a read's replies came (an error reply counts as an empty one).
pub(super) fn replied(
    inner_rc: &Rc<RefCell<Inner>>,
    request: Request,
    packet: &Packet,
    version: u16,
) {
    let weak = Rc::downgrade(inner_rc);
    match request {
        Request::ServerInfo => with_reading(&weak, |reading| {
            if let Ok(info) = packet.reply::<ServerInfo>(version) {
                reading.default_sink = info.default_sink_name.as_deref().map(name_of);
                reading.default_source = info.default_source_name.as_deref().map(name_of);
            }
        }),
        Request::Sinks => with_reading(&weak, |reading| {
            for info in packet.reply::<SinkInfoList>(version).unwrap_or_default() {
                let description = info.description.as_deref().map(name_of);
                let description = description.unwrap_or_default();
                reading.sink_descriptions.push((info.index, description));
                reading.sinks.push(sink_of(&info));
            }
        }),
        Request::Sources => with_reading(&weak, |reading| {
            for info in packet.reply::<SourceInfoList>(version).unwrap_or_default() {
                let description = info.description.as_deref().map(name_of);
                let description = description.unwrap_or_default();
                reading.descriptions.push((info.index, description));
                match source_of(&info) {
                    Some(source) => reading.sources.push(source),
                    None => reading.monitors.push(info.index),
                }
            }
        }),
        Request::Recordings => with_reading(&weak, |reading| {
            let list = packet.reply::<SourceOutputInfoList>(version);
            let recording =
                |info: &SourceOutputInfo| Some((info.source_index, recording_of(info)?));
            reading
                .recordings
                .extend(list.iter().flatten().filter_map(recording));
        }),
        Request::Playbacks => with_reading(&weak, |reading| {
            let list = packet.reply::<SinkInputInfoList>(version);
            let playback = |info: &SinkInputInfo| Some((info.sink_index, playback_of(info)?));
            reading
                .playbacks
                .extend(list.iter().flatten().filter_map(playback));
        }),
        _ => {}
    }
}

/// The default sink is not among the sinks: read again soon, and after a few reads,
/// connect again (once until it settles).
fn unsettled(inner: &mut Inner, weak: &Weak<RefCell<Inner>>) {
    let weak = weak.clone();
    if inner.unsettled_reads < UNSETTLED_READS {
        let wait = UNSETTLED_WAIT * 2u32.pow(inner.unsettled_reads);
        inner.unsettled_reads += 1;
        glib::timeout_add_local_once(wait, move || queue_refresh(&weak));
    } else if !inner.reconnected {
        inner.reconnected = true;
        glib::idle_add_local_once(move || {
            if let Some(inner_rc) = weak.upgrade() {
                disconnect(&mut inner_rc.borrow_mut());
                connect(&inner_rc);
            }
        });
    }
}

/// Applies a reply to the read under way; the last one makes the new state.
fn with_reading(weak: &Weak<RefCell<Inner>>, reply: impl FnOnce(&mut Reading)) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let changed = {
        let mut inner = inner_rc.borrow_mut();
        let Some(reading) = inner.reading.as_mut() else {
            return;
        };
        reply(reading);
        reading.waiting = reading.waiting.saturating_sub(1);
        if reading.waiting > 0 {
            return;
        }
        let reading = inner.reading.take().expect("a read under way");
        let (state, volumes, settled) = reading.into_state(&inner.settings);
        inner.sink_volumes = volumes;
        match settled {
            true => (inner.unsettled_reads, inner.reconnected) = (0, false),
            false => unsettled(&mut inner, weak),
        }
        let changed = inner.state.as_ref() != Some(&state);
        inner.state = Some(state);
        changed
    };
    if changed {
        let inner = inner_rc.borrow();
        (inner.on_change)(inner.state.as_ref());
    }
}
