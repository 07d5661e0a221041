//! A plugin's side of the interface, for `sound/` and `video/`: each names its sources
//! in a [`Plugin`] and exports [`api`]'s table of it. Each client runs on the bar's main
//! loop, as it would inside the bar; its states go to the bar as JSON.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::guest_log::ToHost;
use super::{Bytes, Host, PluginApi, PluginCommand, BUILD};
use crate::events::source::{EventState, OnChange, Watch};

/// A started client, whatever its source.
pub trait Running {
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

/// How a plugin starts the client of a source, from its settings (JSON).
pub type Starter = fn(settings: &[u8], host: Host) -> Option<Box<dyn Running>>;

/// A plugin's sources: each `EventState::KEY` and its client's start.
pub type Starters = [(&'static str, Starter)];

/// A plugin: the sources it serves.
pub trait Plugin: 'static {
    const STARTERS: &'static Starters;
}

struct Table<P>(PhantomData<P>);

impl<P: Plugin> Table<P> {
    const API: PluginApi = PluginApi {
        build: BUILD.as_ptr(),
        start: start::<P>,
        command,
        stop,
    };
}

/// The table a plugin `P` exports (its `ringbar_plugin` returns it).
pub fn api<P: Plugin>() -> &'static PluginApi {
    &Table::<P>::API
}

/// Starts `W`, its states told to `host` as JSON.
pub fn start_client<S, W>(settings: &[u8], host: Host) -> Option<Box<dyn Running>>
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
        let _ = tracing::subscriber::set_global_default(ToHost::of(host));
    });
}

/// A plugin's `start`: the client of the source `key` among its starters, as a handle for
/// [`command`] and [`stop`]; null where it cannot run (logged).
///
/// # Safety
/// `key` and `settings` are lent for the call (see [`Bytes::get`]).
unsafe extern "C" fn start<P: Plugin>(key: Bytes, settings: Bytes, host: Host) -> *mut c_void {
    forward_log(&host);
    // SAFETY: the bar lends both for the call.
    let (key, settings) = unsafe { (key.get().unwrap_or_default(), settings.get()) };
    let settings = settings.unwrap_or(b"null");
    let started = catch_unwind(AssertUnwindSafe(|| {
        match P::STARTERS.iter().find(|(name, _)| name.as_bytes() == key) {
            Some((_, start)) => start(settings, host),
            None => {
                let key = String::from_utf8_lossy(key);
                tracing::warn!("plugin: no source named {key} here");
                None
            }
        }
    }));
    match started {
        Ok(Some(client)) => Box::into_raw(Box::new(client)).cast(),
        Ok(None) => std::ptr::null_mut(),
        Err(_) => {
            tracing::error!("plugin: a client panicked as it started");
            std::ptr::null_mut()
        }
    }
}

/// A plugin's `command`.
///
/// # Safety
/// `handle` is a live client of [`start`]'s; `command` is lent for the call.
unsafe extern "C" fn command(handle: *mut c_void, command: Bytes) {
    // SAFETY: the caller's promise.
    let (client, command) = unsafe { (&*handle.cast::<Box<dyn Running>>(), command.get()) };
    let command = command.unwrap_or_default();
    if catch_unwind(AssertUnwindSafe(|| client.command(command))).is_err() {
        tracing::error!("plugin: a client panicked on a command");
    }
}

/// A plugin's `stop`.
///
/// # Safety
/// `handle` is a live client of [`start`]'s, stopped once.
unsafe extern "C" fn stop(handle: *mut c_void) {
    // SAFETY: the caller's promise; the handle was made by `start`'s Box::into_raw.
    let client = unsafe { Box::from_raw(handle.cast::<Box<dyn Running>>()) };
    if catch_unwind(AssertUnwindSafe(|| drop(client))).is_err() {
        tracing::error!("plugin: a client panicked as it stopped");
    }
}
