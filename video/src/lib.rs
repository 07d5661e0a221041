//! ringbar's video plugin: PipeWire's video graph (libpipewire) for `privacy`'s cameras
//! and screen shares, in a shared object the bar opens only when a module listed needs
//! it (see `ringbar::events::plugin`); apart from the sound plugin, so a bar with `audio`
//! alone maps no libpipewire.

mod capture;

use std::ffi::c_void;

use ringbar::events::capture::CaptureState;
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
    CaptureState::KEY,
    guest::start_client::<CaptureState, capture::CaptureWatch>,
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
