//! ringbar's sound plugin: the sound server's client (libpulse) for the `audio` module
//! and `privacy`'s microphones, in a shared object the bar opens only when a module
//! listed needs it (see `ringbar::events::plugin`).

mod audio;

use std::ffi::c_void;

use ringbar::events::audio::AudioState;
use ringbar::events::plugin::guest::{self, Starters};
use ringbar::events::plugin::{Bytes, Host, PluginApi, BUILD};
use ringbar::events::source::EventState;

static API: PluginApi = PluginApi {
    build: BUILD.as_ptr(),
    start,
    command: guest::command,
    stop: guest::stop,
};

static STARTERS: &Starters = &[(
    AudioState::KEY,
    guest::start_client::<AudioState, audio::pulse::AudioWatch>,
)];

/// The plugin's functions, for the bar.
#[no_mangle]
pub extern "C" fn ringbar_plugin() -> &'static PluginApi {
    &API
}

unsafe extern "C" fn start(key: Bytes, settings: Bytes, host: Host) -> *mut c_void {
    // SAFETY: the bar lends `key` and `settings` for the call.
    unsafe { guest::start(STARTERS, key, settings, host) }
}
