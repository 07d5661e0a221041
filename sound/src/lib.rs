//! ringbar's sound plugin: the sound server's client (libpulse) for the `audio` module
//! and `privacy`'s microphones, in a shared object the bar opens only when a module
//! listed needs it (see `ringbar::events::plugin`).

mod audio;

use ringbar::events::audio::AudioState;
use ringbar::events::plugin::guest::{self, Plugin, Starters};
use ringbar::events::plugin::PluginApi;
use ringbar::events::source::EventState;

struct Sound;

impl Plugin for Sound {
    const STARTERS: &'static Starters = &[(
        AudioState::KEY,
        guest::start_client::<AudioState, audio::pulse::AudioWatch>,
    )];
}

/// The plugin's functions, for the bar.
#[no_mangle]
pub extern "C" fn ringbar_plugin() -> &'static PluginApi {
    guest::api::<Sound>()
}
