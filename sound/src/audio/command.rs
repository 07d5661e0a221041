//! A click's or a scroll's command, carried out on the sound server's default sink or
//! source. The state takes the change at once, so that a second step before the server's
//! event builds on the first.

use libpulse_binding::context::Context;
use libpulse_binding::volume::{ChannelVolumes, Volume};

use ringbar::events::audio::{stepped, AudioCommand, AudioState};

/// `volumes` are the default sink's channel volumes, kept to keep their balance.
pub(super) fn carry_out(
    context: &mut Context,
    state: &mut AudioState,
    volumes: Option<&mut ChannelVolumes>,
    command: AudioCommand,
) {
    let mut introspect = context.introspect();
    let default = state.default_sink.clone();
    let sink = state
        .sinks
        .iter_mut()
        .find(|s| Some(&s.name) == default.as_ref());
    match (command, sink) {
        (
            AudioCommand::ChangeVolume {
                percent,
                max_percent,
            },
            Some(sink),
        ) => {
            let Some(volumes) = volumes else {
                return;
            };
            let target = stepped(sink.volume, percent, max_percent);
            let raw = (target / 100.0 * f64::from(Volume::NORMAL.0)).round();
            let raw = raw.clamp(0.0, f64::from(Volume::MAX.0)) as u32;
            // The loudest channel to the target, the others in proportion.
            if volumes.scale(Volume(raw)).is_some() {
                introspect.set_sink_volume_by_name(&sink.name, volumes, None);
                sink.volume = target;
            }
        }
        (AudioCommand::ToggleMute, Some(sink)) => {
            sink.muted = !sink.muted;
            introspect.set_sink_mute_by_name(&sink.name, sink.muted, None);
        }
        (AudioCommand::ToggleSourceMute, _) => {
            if let Some(source) = state.source.as_mut() {
                source.muted = !source.muted;
                introspect.set_source_mute_by_name(&source.name, source.muted, None);
            }
        }
        _ => {}
    }
}
