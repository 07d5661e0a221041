//! MPD's text protocol, the parts the module speaks: the greeting, a reply's `key: value`
//! lines ending in `OK` (or an `ACK` error), and the state that `status` and
//! `currentsong` tell together. Pure: the client (`client.rs`) moves the bytes.

use super::{MpdState, Playback, Song};

/// A tag value shown at most this long (characters); control characters become spaces.
const TAG_CHARS: usize = 512;

/// What one line of a reply is.
#[derive(Debug, PartialEq)]
pub enum Line<'a> {
    /// `key: value`.
    Pair(&'a str, &'a str),
    /// `OK`: the reply is complete.
    Ok,
    /// `ACK [50@0] {play} No such song`: the command failed (its message).
    Ack(&'a str),
    /// A line of none of these shapes (`list_OK` inside a command list, noise).
    Other,
}

pub fn line(text: &str) -> Line<'_> {
    let text = text.trim_end_matches(['\r', '\n']);
    if text == "OK" {
        return Line::Ok;
    }
    if let Some(error) = text.strip_prefix("ACK ") {
        let message = error.split_once("} ").map_or(error, |(_, m)| m);
        return Line::Ack(message);
    }
    match text.split_once(": ") {
        Some((key, value)) => Line::Pair(key, value),
        None => Line::Other,
    }
}

/// The server's version from its greeting (`OK MPD 0.23.5`), if it is MPD's.
pub fn greeting(text: &str) -> Option<&str> {
    text.trim_end().strip_prefix("OK MPD ")
}

/// An argument in double quotes, with `"` and `\` escaped (a password with spaces).
pub fn quoted(argument: &str) -> String {
    let mut out = String::with_capacity(argument.len() + 2);
    out.push('"');
    for c in argument.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The state from the pairs of `status` and `currentsong` (in one command list).
pub fn state_of<'a>(pairs: impl Iterator<Item = (&'a str, &'a str)>) -> (MpdState, f64) {
    let mut state = MpdState::default();
    let mut song = Song::default();
    let mut has_song = false;
    let mut elapsed = 0.0;
    let on = |value: &str| value != "0";
    for (key, value) in pairs {
        match key {
            "state" => {
                state.playback = match value {
                    "play" => Playback::Playing,
                    "pause" => Playback::Paused,
                    _ => Playback::Stopped,
                }
            }
            "volume" => state.volume = value.parse::<i32>().ok().and_then(|v| u8::try_from(v).ok()),
            "repeat" => state.repeat = on(value),
            "random" => state.random = on(value),
            "single" => state.single = on(value),
            "consume" => state.consume = on(value),
            "song" => state.position = value.parse::<u32>().map_or(0, |p| p.saturating_add(1)),
            "playlistlength" => state.queue_length = value.parse().unwrap_or(0),
            "elapsed" => elapsed = value.parse::<f64>().unwrap_or(0.0).max(0.0),
            // `duration` (0.20+) is exact; `Time` (currentsong) and `time` are whole seconds.
            "duration" => state.total_s = value.parse::<f64>().map_or(0, |d| d.max(0.0) as u32),
            "file" => {
                has_song = true;
                song.uri = tag(value);
            }
            "Artist" => first(&mut song.artist, value),
            "AlbumArtist" => first(&mut song.album_artist, value),
            "Album" => first(&mut song.album, value),
            "Title" => first(&mut song.title, value),
            "Date" => first(&mut song.date, value),
            // A stream's name stands in for a missing title.
            "Name" => first(&mut song.name, value),
            _ => {}
        }
    }
    if has_song {
        state.song = Some(song);
    }
    state.elapsed_s = elapsed as u32;
    (state, elapsed)
}

/// The first value of a tag given several times (two `Artist` lines).
fn first(slot: &mut Option<String>, value: &str) {
    if slot.is_none() {
        *slot = Some(tag(value));
    }
}

/// A tag as it may be shown: control characters as spaces, bounded.
fn tag(value: &str) -> String {
    crate::text::shown(value, ' ').take(TAG_CHARS).collect()
}
