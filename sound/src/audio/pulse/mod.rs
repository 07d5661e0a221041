//! The sound server over its PulseAudio protocol, on the GTK main loop: PipeWire serves it
//! (`pipewire-pulse`) as PulseAudio does, so one client speaks to both. The protocol is
//! spoken here (its packets by the `pulseaudio` crate), not through libpulse, which would
//! bring its codec libraries into the bar. Everything is asynchronous: a request's reply
//! arrives on the main loop, which never waits for the server.
//!
//! Connected, it subscribes to sink, source, stream and server changes and reads the state again
//! after each burst of them (one read per burst, however many events). Without a server,
//! or when it goes away, the state is `None` (logged once), and the server's socket
//! (`$XDG_RUNTIME_DIR/pulse/native`) is watched with inotify: a connection is tried
//! again when a server makes it (a few times, further apart, while it does not listen
//! yet), so an absent server costs no wake-ups. Only a server
//! named by `PULSE_SERVER`, whose socket cannot be watched, is tried every few seconds.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::Duration;

use pulseaudio::protocol::{self, ChannelVolume, Command};

mod packets;
mod read;
mod wire;

use super::reading::Reading;
use super::{command, socket};
use read::queue_refresh;
use ringbar::events::audio::{AudioCommand, AudioSettings, AudioState};
use ringbar::events::source::{OnChange, Watch};
use wire::Wire;

/// How long to wait before connecting again to a `PULSE_SERVER` that is not there.
const RETRY: Duration = Duration::from_secs(2);
/// From the socket's creation to the first try: the server binds, then listens.
const SOCKET_SETTLE: Duration = Duration::from_millis(200);
/// Tries again after the first, each after twice the wait of the one before (0.4 s to
/// 6.4 s, 12.6 s in all from the socket): a server slow to listen (a loaded machine)
/// makes no new socket to wake the watch.
const SETTLE_TRIES: u32 = 5;

/// What a request sent waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Auth,
    ClientName,
    Subscribe,
    /// One of the five replies of a read of the state.
    ServerInfo,
    Sinks,
    Sources,
    Recordings,
    Playbacks,
    /// A click's change: its reply says only whether it was done.
    Change,
}

struct Inner {
    /// The connection, from its first byte to its end.
    wire: Option<Wire>,
    /// Requests sent, by sequence number, whose replies have not come.
    pending: Vec<(u32, Request)>,
    /// Authenticated and subscribed: requests may be made.
    ready: bool,
    /// The whole state once read; `None` while not connected.
    state: Option<AudioState>,
    /// The default sink's channel volumes, to keep their balance.
    sink_volumes: Option<ChannelVolume>,
    /// A read of the state is queued (events come in bursts).
    refresh_queued: bool,
    /// The state being read: server info, sinks and sources arrive in turn.
    reading: Option<Reading>,
    /// Reads made again in a row because the default sink was not among the sinks.
    unsettled_reads: u32,
    /// Connected again for that, and not settled since.
    reconnected: bool,
    /// "No sound server" was said, and not since a connection.
    absence_logged: bool,
    retry: Option<glib::SourceId>,
    /// Tries left for the server whose socket appeared last.
    settle_tries: u32,
    /// The server's socket, watched while there is no server; `None` when it cannot be.
    socket_monitor: Option<gio::FileMonitor>,
    /// The sinks the listed modules ignore.
    settings: AudioSettings,
    on_change: OnChange<AudioState>,
}

/// Follows the sound server; dropping it disconnects. The callbacks hold it weakly, so
/// one that fires after the drop does nothing.
pub struct AudioWatch {
    inner: Rc<RefCell<Inner>>,
}

impl Watch<AudioState> for AudioWatch {
    fn start(settings: &AudioSettings, on_change: OnChange<AudioState>) -> Option<AudioWatch> {
        let inner = Rc::new(RefCell::new(Inner {
            wire: None,
            pending: Vec::new(),
            ready: false,
            state: None,
            sink_volumes: None,
            refresh_queued: false,
            reading: None,
            unsettled_reads: 0,
            reconnected: false,
            absence_logged: false,
            retry: None,
            settle_tries: 0,
            socket_monitor: None,
            settings: settings.clone(),
            on_change,
        }));
        // On the next turn of the main loop, as the other sources tell their first state.
        let weak = Rc::downgrade(&inner);
        glib::idle_add_local_once(move || {
            if let Some(inner_rc) = weak.upgrade() {
                connect(&inner_rc);
            }
        });
        Some(AudioWatch { inner })
    }

    /// Carries out a click's or a scroll's command on the default sink or source, and
    /// tells the new state at once: the server's read after it finds it unchanged.
    fn command(&self, command: &AudioCommand) {
        let changed = {
            let mut inner = self.inner.borrow_mut();
            let inner = &mut *inner;
            let (Some(state), true) = (inner.state.as_mut(), inner.ready) else {
                return;
            };
            let before = state.clone();
            let changes = command::carry_out(state, inner.sink_volumes.as_mut(), *command);
            let changed = *state != before;
            for change in changes {
                send(inner, &change, Request::Change);
            }
            changed
        };
        if changed {
            let inner = self.inner.borrow();
            (inner.on_change)(inner.state.as_ref());
        }
    }
}

impl Drop for AudioWatch {
    fn drop(&mut self) {
        let mut inner = self.inner.borrow_mut();
        if let Some(retry) = inner.retry.take() {
            retry.remove();
        }
        disconnect(&mut inner);
    }
}

/// Connects to the server and asks to be let in; the rest of the handshake follows its
/// replies ([`packets`]).
fn connect(inner_rc: &Rc<RefCell<Inner>>) {
    inner_rc.borrow_mut().retry = None;
    let path = match socket::server() {
        Ok(path) => path,
        Err(why) => return lost(inner_rc, &why),
    };
    let weak = Rc::downgrade(inner_rc);
    let wire = match Wire::connect(&path, move || packets::on_readable(&weak)) {
        Ok(wire) => wire,
        Err(err) => return lost(inner_rc, &format!("{}: {err}", path.display())),
    };
    let mut inner = inner_rc.borrow_mut();
    inner.wire = Some(wire);
    let auth = protocol::AuthParams {
        version: protocol::MAX_VERSION,
        supports_shm: false,
        supports_memfd: false,
        cookie: socket::cookie(),
    };
    if !send(&mut inner, &Command::Auth(auth), Request::Auth) {
        drop(inner);
        lost(inner_rc, "the server's socket took no request");
    }
}

/// Sends `command`, whose reply is `request`'s; whether it went (a connection that
/// failed hangs up, which the reader hears).
fn send(inner: &mut Inner, command: &Command, request: Request) -> bool {
    let Some(wire) = inner.wire.as_mut() else {
        return false;
    };
    match wire.send(command) {
        Ok(seq) => {
            inner.pending.push((seq, request));
            true
        }
        Err(err) => {
            tracing::debug!("audio: a request to the sound server failed: {err}");
            false
        }
    }
}

/// Authenticated and subscribed: read everything.
fn ready(inner_rc: &Rc<RefCell<Inner>>) {
    {
        let mut inner = inner_rc.borrow_mut();
        if inner.absence_logged {
            tracing::info!("audio: connected to the sound server");
        }
        inner.absence_logged = false;
        inner.settle_tries = 0;
        inner.unsettled_reads = 0;
        inner.ready = true;
    }
    queue_refresh(&Rc::downgrade(inner_rc));
}

/// The connection closed, and nothing of its requests or read left.
fn disconnect(inner: &mut Inner) {
    inner.wire = None;
    inner.pending.clear();
    inner.ready = false;
    inner.reading = None;
    inner.refresh_queued = false;
    inner.sink_volumes = None;
}

/// The server is gone (or never came): no state, one log line, and its socket watched
/// for the next one (or, for a `PULSE_SERVER`, a new try soon; none for one that names
/// no Unix socket).
fn lost(inner_rc: &Rc<RefCell<Inner>>, reason: &str) {
    let say_none = {
        let mut inner = inner_rc.borrow_mut();
        let first_absence = !inner.absence_logged;
        if first_absence {
            // Info, not a warning: many machines have no sound, and the default layout
            // lists the module.
            tracing::info!(
                "audio: no sound server (PulseAudio protocol: pipewire-pulse or pulseaudio): {reason}; hidden until one answers"
            );
            inner.absence_logged = true;
        }
        disconnect(&mut inner);
        let weak = Rc::downgrade(inner_rc);
        if inner.socket_monitor.is_none() {
            let weak = weak.clone();
            inner.socket_monitor = socket::watch(move || server_appeared(&weak));
        }
        if inner.socket_monitor.is_none() && socket::server().is_ok() {
            inner.retry = Some(glib::timeout_add_local_once(RETRY, move || {
                if let Some(inner_rc) = weak.upgrade() {
                    connect(&inner_rc);
                }
            }));
        } else if inner.settle_tries > 0 {
            inner.settle_tries -= 1;
            let wait = SOCKET_SETTLE * 2u32.pow(SETTLE_TRIES - inner.settle_tries);
            inner.retry = Some(glib::timeout_add_local_once(wait, move || {
                if let Some(inner_rc) = weak.upgrade() {
                    connect(&inner_rc);
                }
            }));
        }
        // Said when the state goes, and at the first absence (`--once` waits for it).
        inner.state.take().is_some() || first_absence
    };
    if say_none {
        (inner_rc.borrow().on_change)(None);
    }
}

/// A server made its socket: connect once it listens.
fn server_appeared(weak: &Weak<RefCell<Inner>>) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let mut inner = inner_rc.borrow_mut();
    if inner.wire.is_some() || inner.retry.is_some() {
        return;
    }
    inner.settle_tries = SETTLE_TRIES;
    let weak = weak.clone();
    inner.retry = Some(glib::timeout_add_local_once(SOCKET_SETTLE, move || {
        if let Some(inner_rc) = weak.upgrade() {
            connect(&inner_rc);
        }
    }));
}
