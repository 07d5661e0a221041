//! The bar's side of the plugins: each shared object opened on the first use of a source
//! it serves (and kept open: libpulse and libpipewire are not made to be unloaded), and a
//! [`Watch`] for each source that starts the plugin's client and hears its states.
//!
//! It opens only after the bar dropped its capabilities (modules start after the
//! config is read), and only from beside the bar's own executable.

use std::ffi::{c_void, CStr};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::{
    level_number, Bytes, Host, PluginApi, PluginCommand, PluginSource, BUILD, ENTRY, FILE_NAMES,
};
use crate::events::source::{EventState, OnChange, Watch};

/// Each plugin of [`FILE_NAMES`] once opened, or why it could not be (said once per
/// source that needs it).
static PLUGINS: [OnceLock<Result<Opened, String>>; FILE_NAMES.len()] =
    [const { OnceLock::new() }; FILE_NAMES.len()];

struct Opened {
    api: &'static PluginApi,
    /// Held for good: `api` points into it.
    _library: libloading::Library,
}

/// Where the plugin `file` is looked for, first found first: beside the executable, then
/// in `../lib/ringbar/` from it.
fn candidates(executable: &Path, file: &str) -> Vec<PathBuf> {
    let Some(folder) = executable.parent() else {
        return Vec::new();
    };
    let mut paths = vec![folder.join(file)];
    if let Some(prefix) = folder.parent() {
        paths.push(prefix.join("lib/ringbar").join(file));
    }
    paths
}

fn open(file: &str) -> Result<Opened, String> {
    let executable = std::env::current_exe().map_err(|err| format!("no executable: {err}"))?;
    let paths = candidates(&executable, file);
    let Some(path) = paths.iter().find(|path| path.exists()) else {
        let tried: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!("no {file} (looked for {})", tried.join(", ")));
    };
    let flags = libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL;
    // SAFETY: the plugin is ringbar's own, installed beside the bar; its initialisers
    // are those of libpulse, libpipewire and Rust's, which run no code of the bar's.
    let library = unsafe { libloading::os::unix::Library::open(Some(path), flags) }
        .map_err(|err| format!("{}: {err}", path.display()))?;
    let library = libloading::Library::from(library);
    // SAFETY: ENTRY is the plugin's `extern "C" fn() -> &'static PluginApi`.
    let entry = unsafe { library.get::<extern "C" fn() -> &'static PluginApi>(ENTRY) }
        .map_err(|err| format!("{}: {err}", path.display()))?;
    let api = entry();
    // SAFETY: `build` is the plugin's static NUL-terminated string.
    let build = unsafe { CStr::from_ptr(api.build) };
    if build != BUILD {
        return Err(format!(
            "{} is of another build of ringbar ({}; this bar is {})",
            path.display(),
            build.to_string_lossy(),
            BUILD.to_string_lossy()
        ));
    }
    tracing::debug!("plugin: {}", path.display());
    Ok(Opened {
        api,
        _library: library,
    })
}

/// The plugin `file` of [`FILE_NAMES`], opened on the first call.
fn api(file: &'static str) -> Result<&'static PluginApi, &'static str> {
    let Some(index) = FILE_NAMES.iter().position(|name| *name == file) else {
        return Err("not one of the plugins the bar knows (FILE_NAMES)");
    };
    match PLUGINS[index].get_or_init(|| open(file)) {
        Ok(opened) => Ok(opened.api),
        Err(err) => Err(err),
    }
}

/// A source's client in the plugin; dropping it stops the client.
pub struct PluginWatch<S: EventState> {
    api: &'static PluginApi,
    handle: NonNull<c_void>,
    /// What `on_change` hears, lent to the plugin as its `data`; freed after `stop`.
    listener: *mut OnChange<S>,
    _state: PhantomData<S>,
}

impl<S> Watch<S> for PluginWatch<S>
where
    S: PluginSource + Serialize + DeserializeOwned,
    S::Settings: Serialize,
    S::Command: PluginCommand,
{
    fn start(settings: &S::Settings, on_change: OnChange<S>) -> Option<Self> {
        let api = match api(S::PLUGIN) {
            Ok(api) => api,
            Err(err) => {
                tracing::warn!("{}: its plugin cannot be opened: {err}", S::KEY);
                return None;
            }
        };
        let settings = serde_json::to_vec(settings).ok()?;
        let listener = Box::into_raw(Box::new(on_change));
        let host = Host {
            data: listener.cast(),
            on_change: hear::<S>,
            log: log_line,
            max_level: max_level(),
        };
        // SAFETY: the bytes outlive the call; `host.data` is the boxed listener, freed
        // only after `stop` (Drop) or here when the plugin did not start.
        let handle =
            unsafe { (api.start)(Bytes::of(S::KEY.as_bytes()), Bytes::of(&settings), host) };
        let Some(handle) = NonNull::new(handle) else {
            // SAFETY: made by Box::into_raw above, and the plugin keeps no copy of it.
            drop(unsafe { Box::from_raw(listener) });
            return None;
        };
        Some(PluginWatch {
            api,
            handle,
            listener,
            _state: PhantomData,
        })
    }

    fn command(&self, command: &S::Command) {
        let command = command.encode();
        // SAFETY: a live handle of this plugin's; the bytes outlive the call.
        unsafe { (self.api.command)(self.handle.as_ptr(), Bytes::of(&command)) };
    }
}

impl<S: EventState> Drop for PluginWatch<S> {
    fn drop(&mut self) {
        // SAFETY: a live handle, stopped once; after `stop` the plugin calls `hear` no
        // more, so the listener can go.
        unsafe {
            (self.api.stop)(self.handle.as_ptr());
            drop(Box::from_raw(self.listener));
        }
    }
}

/// A state from the plugin, for the source's listener.
unsafe extern "C" fn hear<S: EventState + DeserializeOwned>(data: *mut c_void, state: Bytes) {
    // SAFETY: `data` is the listener `start` lent, alive until `stop` (the plugin's
    // promise); `state` is valid for the call.
    let (listener, state) = unsafe { (&*data.cast::<OnChange<S>>(), state.get()) };
    match state.map(serde_json::from_slice::<S>) {
        None => listener(None),
        Some(Ok(state)) => listener(Some(&state)),
        Some(Err(err)) => tracing::warn!("{}: a state the bar cannot read: {err}", S::KEY),
    }
}

/// A log line of the plugin's, into the bar's log.
unsafe extern "C" fn log_line(level: u8, line: Bytes) {
    // SAFETY: the plugin lends the line for the call.
    let Some(line) = (unsafe { line.get() }) else {
        return;
    };
    let line = String::from_utf8_lossy(line);
    match level {
        1 => tracing::error!("{line}"),
        2 => tracing::warn!("{line}"),
        3 => tracing::info!("{line}"),
        4 => tracing::debug!("{line}"),
        _ => tracing::trace!("{line}"),
    }
}

/// The most detailed level any of the log's targets keeps.
fn max_level() -> u8 {
    tracing::level_filters::LevelFilter::current()
        .into_level()
        .map_or(0, level_number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_is_looked_for_beside_the_bar_then_in_its_lib_folder() {
        assert_eq!(
            candidates(Path::new("/usr/bin/ringbar"), "libringbar_video.so"),
            [
                PathBuf::from("/usr/bin/libringbar_video.so"),
                PathBuf::from("/usr/lib/ringbar/libringbar_video.so"),
            ]
        );
    }
}
