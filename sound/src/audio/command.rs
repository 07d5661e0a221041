//! A click's or a scroll's command, for the sound server's default sink or source. The
//! state takes the change at once, so that a second step before the server's event
//! builds on the first.

use std::ffi::CString;

use pulseaudio::protocol::Volume;
use pulseaudio::protocol::{ChannelVolume, Command, SetDeviceMuteParams, SetDeviceVolumeParams};

use ringbar::events::audio::{stepped, AudioCommand, AudioState};

/// The requests that carry out `command`. `volumes` are the default sink's channel
/// volumes, kept to keep their balance.
pub(super) fn carry_out(
    state: &mut AudioState,
    volumes: Option<&mut ChannelVolume>,
    command: AudioCommand,
) -> Vec<Command> {
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
                return Vec::new();
            };
            let target = stepped(sink.volume, percent, max_percent);
            let raw = (target / 100.0 * f64::from(Volume::NORM.as_u32())).round();
            let raw = raw.clamp(0.0, f64::from(MAX_VOLUME)) as u32;
            let Some(scaled) = scaled(volumes, raw) else {
                return Vec::new();
            };
            *volumes = scaled;
            sink.volume = target;
            vec![Command::SetSinkVolume(SetDeviceVolumeParams {
                device_index: None,
                device_name: device(&sink.name),
                volume: scaled,
            })]
        }
        (AudioCommand::ToggleMute, Some(sink)) => {
            sink.muted = !sink.muted;
            vec![Command::SetSinkMute(SetDeviceMuteParams {
                device_index: None,
                device_name: device(&sink.name),
                mute: sink.muted,
            })]
        }
        (AudioCommand::ToggleSourceMute, _) => match state.source.as_mut() {
            Some(source) => {
                source.muted = !source.muted;
                vec![Command::SetSourceMute(SetDeviceMuteParams {
                    device_index: None,
                    device_name: device(&source.name),
                    mute: source.muted,
                })]
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The highest volume the protocol carries (PA_VOLUME_MAX).
const MAX_VOLUME: u32 = u32::MAX / 2;

/// A device named as the server named it.
fn device(name: &str) -> Option<CString> {
    CString::new(name).ok()
}

/// The channel volumes with the loudest at `target` and the others in proportion (all at
/// `target` when all were silent); `None` without channels.
fn scaled(volumes: &ChannelVolume, target: u32) -> Option<ChannelVolume> {
    let channels = volumes.channels();
    let loudest = u64::from(channels.iter().map(Volume::as_u32).max()?);
    let mut scaled = ChannelVolume::empty();
    for volume in channels {
        let raw = match loudest {
            0 => target,
            _ => (u64::from(volume.as_u32()) * u64::from(target) / loudest) as u32,
        };
        scaled.push(Volume::from_u32_clamped(raw));
    }
    Some(scaled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn volumes(raw: &[u32]) -> ChannelVolume {
        let mut volumes = ChannelVolume::empty();
        for &v in raw {
            volumes.push(Volume::from_u32_clamped(v));
        }
        volumes
    }

    fn raw(volumes: &ChannelVolume) -> Vec<u32> {
        volumes.channels().iter().map(Volume::as_u32).collect()
    }

    #[test]
    fn the_loudest_channel_takes_the_target_and_the_others_keep_their_balance() {
        let scaled = scaled(&volumes(&[0x8000, 0x4000]), 0x10000).expect("in the test");
        assert_eq!(raw(&scaled), [0x10000, 0x8000]);
    }

    #[test]
    fn silent_channels_all_take_the_target() {
        let scaled = scaled(&volumes(&[0, 0]), 0x6000).expect("in the test");
        assert_eq!(raw(&scaled), [0x6000, 0x6000]);
    }

    #[test]
    fn no_channels_no_volume() {
        assert!(scaled(&ChannelVolume::empty(), 0x10000).is_none());
    }
}
