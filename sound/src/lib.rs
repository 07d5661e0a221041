//! ringbar's sound plugin: the clients that need libpulse or libpipewire, in a shared
//! object the bar opens only when a module listed needs one (see
//! `ringbar::events::plugin`). Each runs on the bar's main loop, as it would inside the
//! bar; states and commands cross as JSON of the core's types.

mod audio;
mod capture;
mod log;

use std::ffi::c_void;
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use ringbar::events::audio::AudioState;
use ringbar::events::capture::CaptureState;
use ringbar::events::plugin::{Bytes, Host, PluginApi, PluginCommand, BUILD};
use ringbar::events::source::{EventState, OnChange, Watch};
use serde::de::DeserializeOwned;
use serde::Serialize;

static API: PluginApi = PluginApi {
    build: BUILD.as_ptr(),
    start,
    command,
    stop,
};

/// The plugin's functions, for the bar.
#[no_mangle]
pub extern "C" fn ringbar_sound_plugin() -> &'static PluginApi {
    &API
}

/// A started client, whatever its source.
trait Running {
    fn command(&self, command: &[u8]);
}

struct Client<S, W> {
    watch: W,
    _state: PhantomData<S>,
}

impl<S, W> Running for Client<S, W>
where
    S: EventState,
    S::Command: PluginCommand,
    W: Watch<S>,
{
    fn command(&self, command: &[u8]) {
        match S::Command::decode(command) {
            Some(command) => self.watch.command(&command),
            None => tracing::warn!("{}: a command the plugin cannot read", S::KEY),
        }
    }
}

/// Starts `W`, its states told to `host` as JSON.
fn start_client<S, W>(settings: &[u8], host: Host) -> Option<Box<dyn Running>>
where
    S: EventState + Serialize,
    S::Settings: DeserializeOwned,
    S::Command: PluginCommand,
    W: Watch<S>,
{
    let settings: S::Settings = match serde_json::from_slice(settings) {
        Ok(settings) => settings,
        Err(err) => {
            tracing::warn!("{}: settings the plugin cannot read: {err}", S::KEY);
            return None;
        }
    };
    let on_change: OnChange<S> = Box::new(move |state: Option<&S>| {
        let json = state.map(|state| serde_json::to_vec(state).unwrap_or_default());
        let bytes = json.as_deref().map_or(Bytes::NONE, Bytes::of);
        // SAFETY: the bar's function and data, valid until `stop`, after which this
        // client (and so this closure) is gone; the bytes outlive the call.
        unsafe { (host.on_change)(host.data, bytes) };
    });
    let watch = W::start(&settings, on_change)?;
    Some(Box::new(Client::<S, W> {
        watch,
        _state: PhantomData,
    }))
}

/// The plugin's log lines go to the bar's log from the first start on.
fn forward_log(host: &Host) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = tracing::subscriber::set_global_default(log::ToHost::of(host));
    });
}

unsafe extern "C" fn start(key: Bytes, settings: Bytes, host: Host) -> *mut c_void {
    forward_log(&host);
    // SAFETY: the bar lends both for the call.
    let (key, settings) = unsafe { (key.get().unwrap_or_default(), settings.get()) };
    let settings = settings.unwrap_or(b"null");
    let started = catch_unwind(AssertUnwindSafe(|| match key {
        k if k == AudioState::KEY.as_bytes() => {
            start_client::<AudioState, audio::pulse::AudioWatch>(settings, host)
        }
        k if k == CaptureState::KEY.as_bytes() => {
            start_client::<CaptureState, capture::CaptureWatch>(settings, host)
        }
        other => {
            let other = String::from_utf8_lossy(other);
            tracing::warn!("sound plugin: no source named {other}");
            None
        }
    }));
    match started {
        Ok(Some(client)) => Box::into_raw(Box::new(client)).cast(),
        Ok(None) => std::ptr::null_mut(),
        Err(_) => {
            tracing::error!("sound plugin: a client panicked as it started");
            std::ptr::null_mut()
        }
    }
}

unsafe extern "C" fn command(handle: *mut c_void, command: Bytes) {
    // SAFETY: `handle` is a live client of `start`'s, `command` lent for the call.
    let (client, command) = unsafe { (&*handle.cast::<Box<dyn Running>>(), command.get()) };
    let command = command.unwrap_or_default();
    if catch_unwind(AssertUnwindSafe(|| client.command(command))).is_err() {
        tracing::error!("sound plugin: a client panicked on a command");
    }
}

unsafe extern "C" fn stop(handle: *mut c_void) {
    // SAFETY: `handle` is a live client of `start`'s, stopped once.
    let client = unsafe { Box::from_raw(handle.cast::<Box<dyn Running>>()) };
    if catch_unwind(AssertUnwindSafe(|| drop(client))).is_err() {
        tracing::error!("sound plugin: a client panicked as it stopped");
    }
}
