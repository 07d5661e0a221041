//! The format fields, as Waybar's mpd module names them: the song's tags (`{artist}`,
//! `{title}`… or `unknown-tag` where the song has none), its times (`{elapsedTime}`,
//! `{totalTime}`, `m:ss` by default or as a `strftime`-like spec:
//! `{elapsedTime:%M:%S}`), its place in the queue, the volume, and the icons for the
//! play state and the four options. The formats and icons are Pango markup, as in
//! Waybar; what comes from MPD (tags, paths) is escaped into them.

use std::fmt::Write;

use crate::text::push_escaped;

use super::settings::{OnOff, Settings};
use super::syntax::split;
use super::{MpdState, Playback, Song};

/// Appends `format` (markup) with its fields filled from `state`, escaped; the settings'
/// lengths cap the tags (`title-len`…). A tag the song lacks is `unknown-tag`; without a
/// song, none.
pub fn fill(format: &str, state: &MpdState, settings: &Settings, out: &mut String) {
    let song = state.song.as_ref();
    let tag = |out: &mut String, value: Option<&String>, cap: Option<usize>| {
        if song.is_none() {
            return;
        }
        let value = match value {
            Some(value) if !value.is_empty() => value.as_str(),
            _ => settings.unknown_tag.as_str(),
        };
        push_capped(out, value, cap, &settings.ellipsis);
    };
    crate::modules::format::fill(format, out, |key, out| {
        let (name, spec) = split(key);
        match name {
            "artist" => tag(
                out,
                song.and_then(|s| s.artist.as_ref()),
                settings.artist_len,
            ),
            "albumArtist" => tag(
                out,
                song.and_then(|s| s.album_artist.as_ref()),
                settings.album_artist_len,
            ),
            "album" => tag(out, song.and_then(|s| s.album.as_ref()), settings.album_len),
            "title" => tag(out, song.and_then(Song::title), settings.title_len),
            "date" => tag(out, song.and_then(|s| s.date.as_ref()), None),
            "volume" => {
                let _ = write!(out, "{}", state.volume.unwrap_or(0));
            }
            "elapsedTime" => time(out, state.elapsed_s, spec),
            "totalTime" => time(out, state.total_s, spec),
            "songPosition" => {
                let _ = write!(out, "{}", state.position);
            }
            "queueLength" => {
                let _ = write!(out, "{}", state.queue_length);
            }
            "uri" => push_escaped(out, song.map_or("", |s| s.uri.as_str())),
            "filename" => {
                let uri = song.map_or("", |s| s.uri.as_str());
                push_escaped(out, uri.rsplit('/').next().unwrap_or(uri));
            }
            "stateIcon" => out.push_str(match state.playback {
                Playback::Playing => &settings.state_icons.playing,
                Playback::Paused => &settings.state_icons.paused,
                Playback::Stopped => "",
            }),
            "consumeIcon" => out.push_str(settings.consume_icons.of(state.consume)),
            "randomIcon" => out.push_str(settings.random_icons.of(state.random)),
            "repeatIcon" => out.push_str(settings.repeat_icons.of(state.repeat)),
            "singleIcon" => out.push_str(settings.single_icons.of(state.single)),
            _ => return false,
        }
        true
    });
}

impl OnOff {
    fn of(&self, on: bool) -> &str {
        if on {
            &self.on
        } else {
            &self.off
        }
    }
}

/// `value`, escaped, cut to `cap` characters with `ellipsis` after a cut.
fn push_capped(out: &mut String, value: &str, cap: Option<usize>, ellipsis: &str) {
    match cap.and_then(|cap| value.char_indices().nth(cap)) {
        Some((end, _)) => {
            push_escaped(out, &value[..end]);
            push_escaped(out, ellipsis);
        }
        None => push_escaped(out, value),
    }
}

/// Seconds as `m:ss` (`h:mm:ss` from an hour), or by `spec`: `%H` hours, `%M` minutes
/// and `%S` seconds of the hour and minute (two digits each), `%T` for `%H:%M:%S`, `%R`
/// for `%H:%M`, `%%`; anything else as written.
fn time(out: &mut String, seconds: u32, spec: Option<&str>) {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let Some(spec) = spec else {
        let _ = match h {
            0 => write!(out, "{m}:{s:02}"),
            _ => write!(out, "{h}:{m:02}:{s:02}"),
        };
        return;
    };
    let mut chars = spec.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let _ = match chars.next() {
            Some('H') => write!(out, "{h:02}"),
            Some('M') => write!(out, "{m:02}"),
            Some('S') => write!(out, "{s:02}"),
            Some('T') => write!(out, "{h:02}:{m:02}:{s:02}"),
            Some('R') => write!(out, "{h:02}:{m:02}"),
            Some('%') => write!(out, "%"),
            Some(other) => write!(out, "%{other}"),
            None => write!(out, "%"),
        };
    }
}
