//! ringbar's video plugin: PipeWire's video graph (libpipewire) for `privacy`'s cameras
//! and screen shares, in a shared object the bar opens only when a module listed needs
//! it (see `ringbar::events::plugin`); apart from the sound plugin, so a bar with `audio`
//! alone maps no libpipewire.

mod capture;

use ringbar::events::capture::CaptureState;
use ringbar::events::plugin::guest::{self, Plugin, Starters};
use ringbar::events::plugin::PluginApi;
use ringbar::events::source::EventState;

struct Video;

impl Plugin for Video {
    const STARTERS: &'static Starters = &[(
        CaptureState::KEY,
        guest::start_client::<CaptureState, capture::CaptureWatch>,
    )];
}

/// The plugin's functions, for the bar.
#[no_mangle]
pub extern "C" fn ringbar_plugin() -> &'static PluginApi {
    guest::api::<Video>()
}
