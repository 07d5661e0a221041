//! The sound server over its PulseAudio protocol, on the GTK main loop through
//! libpulse's glib main loop: PipeWire serves it (`pipewire-pulse`) as PulseAudio does,
//! so one client speaks to both. Everything is asynchronous: a request's reply comes
//! back as a callback on the main loop, which never waits for the server.
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

use libpulse_binding::context::subscribe::InterestMaskSet;
use libpulse_binding::context::{Context, FlagSet, State};
use libpulse_binding::volume::ChannelVolumes;
use libpulse_glib_binding::Mainloop;

mod read;

use super::reading::Reading;
use super::{command, socket};
use read::queue_refresh;
use ringbar::events::audio::{AudioCommand, AudioSettings, AudioState};
use ringbar::events::source::{OnChange, Watch};

/// How long to wait before connecting again to a `PULSE_SERVER` that is not there.
const RETRY: Duration = Duration::from_secs(2);
/// From the socket's creation to the first try: the server binds, then listens.
const SOCKET_SETTLE: Duration = Duration::from_millis(200);
/// Tries again after the first, each after twice the wait of the one before (0.4 s to
/// 6.4 s, 12.6 s in all from the socket): a server slow to listen (a loaded machine)
/// makes no new socket to wake the watch.
const SETTLE_TRIES: u32 = 5;

struct Inner {
    // Before the main loop it runs on: fields drop in this order.
    context: Option<Context>,
    mainloop: Mainloop,
    /// The whole state once read; `None` while not connected.
    state: Option<AudioState>,
    /// The default sink's and source's channel volumes, to keep their balance.
    sink_volumes: Option<ChannelVolumes>,
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
        let Some(mainloop) = Mainloop::new(None) else {
            tracing::warn!("audio: libpulse's glib main loop failed; not shown");
            return None;
        };
        let inner = Rc::new(RefCell::new(Inner {
            context: None,
            mainloop,
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
        let watch = AudioWatch { inner };
        connect(&watch.inner);
        Some(watch)
    }

    /// Carries out a click's or a scroll's command on the default sink or source, and
    /// tells the new state at once: the server's read after it finds it unchanged.
    fn command(&self, command: &AudioCommand) {
        let changed = {
            let mut inner = self.inner.borrow_mut();
            let inner = &mut *inner;
            let context = ready_context(&mut inner.context);
            match (context, inner.state.as_mut()) {
                (Some(context), Some(state)) => {
                    let before = state.clone();
                    command::carry_out(context, state, inner.sink_volumes.as_mut(), *command);
                    *state != before
                }
                _ => false,
            }
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

/// A new context, connecting; its state changes are handled on the next turn of the
/// main loop (libpulse calls back from inside `connect` too).
fn connect(inner_rc: &Rc<RefCell<Inner>>) {
    let mut inner = inner_rc.borrow_mut();
    inner.retry = None;
    let Some(mut context) = Context::new(&inner.mainloop, "ringbar") else {
        drop(inner);
        lost(inner_rc, "libpulse could not make a context");
        return;
    };
    let weak = Rc::downgrade(inner_rc);
    context.set_state_callback(Some(Box::new(move || {
        let weak = weak.clone();
        glib::idle_add_local_once(move || state_changed(&weak));
    })));
    let connected = context.connect(None, FlagSet::NOAUTOSPAWN, None);
    inner.context = Some(context);
    drop(inner);
    if let Err(err) = connected {
        lost(inner_rc, &err.to_string().unwrap_or_default());
    }
}

fn state_changed(weak: &Weak<RefCell<Inner>>) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let state = {
        let inner = inner_rc.borrow();
        match &inner.context {
            Some(context) => context.get_state(),
            None => return,
        }
    };
    match state {
        State::Ready => ready(&inner_rc),
        State::Failed | State::Terminated => {
            let reason = {
                let inner = inner_rc.borrow();
                let errno = inner.context.as_ref().map(|c| c.errno());
                errno.and_then(|e| e.to_string()).unwrap_or_default()
            };
            lost(&inner_rc, &reason);
        }
        _ => {}
    }
}

/// Connected: subscribe, then read everything.
fn ready(inner_rc: &Rc<RefCell<Inner>>) {
    let mut inner = inner_rc.borrow_mut();
    if inner.absence_logged {
        tracing::info!("audio: connected to the sound server");
    }
    inner.absence_logged = false;
    inner.settle_tries = 0;
    inner.unsettled_reads = 0;
    let Some(context) = ready_context(&mut inner.context) else {
        return; // gone again before this turn of the loop: its `Failed` is queued
    };
    let weak = Rc::downgrade(inner_rc);
    context.set_subscribe_callback(Some(Box::new(move |_, _, _| queue_refresh(&weak))));
    let interest = InterestMaskSet::SINK
        | InterestMaskSet::SOURCE
        | InterestMaskSet::SOURCE_OUTPUT
        | InterestMaskSet::SINK_INPUT
        | InterestMaskSet::SERVER;
    context.subscribe(interest, |_| {});
    drop(inner);
    queue_refresh(&Rc::downgrade(inner_rc));
}

/// The context, if it is connected now. libpulse refuses a request on a context in any
/// other state, and its binding panics at the refusal: the server can go between an event
/// and the turn of the loop that handles it, so every request asks this first (on the one
/// thread libpulse runs on, nothing changes the state between this and the request).
fn ready_context(context: &mut Option<Context>) -> Option<&mut Context> {
    context.as_mut().filter(|c| c.get_state() == State::Ready)
}

/// The context closed, its callbacks gone, and nothing of its read left.
fn disconnect(inner: &mut Inner) {
    if let Some(mut context) = inner.context.take() {
        context.set_state_callback(None);
        context.set_subscribe_callback(None);
        context.disconnect();
    }
    inner.reading = None;
    inner.refresh_queued = false;
    inner.sink_volumes = None;
}

/// The server is gone (or never came): no state, one log line, and its socket watched
/// for the next one (or, for a `PULSE_SERVER`, a new try soon).
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
        if inner.socket_monitor.is_none() {
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
    if inner.context.is_some() || inner.retry.is_some() {
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
