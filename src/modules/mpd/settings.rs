//! The module's settings, by the names Waybar's mpd module gives them: where the server
//! is and how to follow it (the event source's part, [`MpdServer`]), the formats, the
//! icons and the tag lengths.

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::syntax;

/// What the module tells its event source: where MPD is and how to follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MpdServer {
    /// A host name, a socket path or `@name` (an abstract socket); `None`: `MPD_HOST`,
    /// then the usual sockets, then `localhost`.
    pub server: Option<String>,
    pub port: Option<u16>,
    pub password: Option<String>,
    /// Seconds between tries while MPD does not answer (Waybar's `interval`).
    pub reconnect_s: u32,
    /// How often the elapsed time moves on while a song plays.
    pub playing_interval_ms: u32,
    /// Seconds to wait for a connection or a reply.
    pub timeout_s: u32,
}

impl Default for MpdServer {
    fn default() -> Self {
        MpdServer {
            server: None,
            port: None,
            password: None,
            reconnect_s: 5,
            playing_interval_ms: 1000,
            timeout_s: 30,
        }
    }
}

/// `{ "on": …, "off": … }`: an option's icons (markup).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct OnOff {
    #[serde(deserialize_with = "markup")]
    pub on: String,
    #[serde(deserialize_with = "markup")]
    pub off: String,
}

/// `{ "playing": …, "paused": … }` (markup).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StateIcons {
    #[serde(deserialize_with = "markup")]
    pub playing: String,
    #[serde(deserialize_with = "markup")]
    pub paused: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub server: Option<String>,
    pub port: Option<u16>,
    pub password: Option<String>,
    #[serde(deserialize_with = "seconds")]
    pub interval: u32,
    #[serde(rename = "playing-interval", deserialize_with = "playing_interval")]
    pub playing_interval: u32,
    #[serde(deserialize_with = "seconds")]
    pub timeout: u32,
    #[serde(rename = "unknown-tag")]
    pub unknown_tag: String,
    #[serde(deserialize_with = "format")]
    pub format: String,
    #[serde(rename = "format-paused", deserialize_with = "optional_format")]
    pub format_paused: Option<String>,
    #[serde(rename = "format-stopped", deserialize_with = "format")]
    pub format_stopped: String,
    /// Empty: the module hides while MPD does not answer.
    #[serde(rename = "format-disconnected", deserialize_with = "markup")]
    pub format_disconnected: String,
    pub tooltip: bool,
    #[serde(rename = "tooltip-format", deserialize_with = "tooltip_format")]
    pub tooltip_format: Option<String>,
    #[serde(
        rename = "tooltip-format-disconnected",
        deserialize_with = "tooltip_markup"
    )]
    pub tooltip_format_disconnected: String,
    /// The longest each tag is shown, in characters.
    #[serde(rename = "artist-len")]
    pub artist_len: Option<usize>,
    #[serde(rename = "album-len")]
    pub album_len: Option<usize>,
    #[serde(rename = "album-artist-len")]
    pub album_artist_len: Option<usize>,
    #[serde(rename = "title-len")]
    pub title_len: Option<usize>,
    /// Appended to a tag cut by its length.
    pub ellipsis: String,
    #[serde(rename = "state-icons")]
    pub state_icons: StateIcons,
    #[serde(rename = "consume-icons")]
    pub consume_icons: OnOff,
    #[serde(rename = "random-icons")]
    pub random_icons: OnOff,
    #[serde(rename = "repeat-icons")]
    pub repeat_icons: OnOff,
    #[serde(rename = "single-icons")]
    pub single_icons: OnOff,
}

impl Default for Settings {
    fn default() -> Self {
        let server = MpdServer::default();
        Settings {
            server: None,
            port: None,
            password: None,
            interval: server.reconnect_s,
            playing_interval: server.playing_interval_ms,
            timeout: server.timeout_s,
            unknown_tag: "N/A".to_owned(),
            format: "{artist} - {title}".to_owned(),
            format_paused: None,
            format_stopped: "stopped".to_owned(),
            format_disconnected: String::new(),
            tooltip: true,
            tooltip_format: None,
            tooltip_format_disconnected: "MPD (disconnected)".to_owned(),
            artist_len: None,
            album_len: None,
            album_artist_len: None,
            title_len: None,
            ellipsis: "…".to_owned(),
            state_icons: StateIcons::default(),
            consume_icons: OnOff::default(),
            random_icons: OnOff::default(),
            repeat_icons: OnOff::default(),
            single_icons: OnOff::default(),
        }
    }
}

impl Settings {
    pub fn server(&self) -> MpdServer {
        MpdServer {
            server: self.server.clone().filter(|s| !s.is_empty()),
            port: self.port,
            password: self.password.clone().filter(|p| !p.is_empty()),
            reconnect_s: self.interval,
            playing_interval_ms: self.playing_interval,
            timeout_s: self.timeout,
        }
    }
}

fn format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    syntax::check(&text, false).map_err(de::Error::custom)?;
    Ok(text)
}

fn optional_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format(d).map(Some)
}

fn tooltip_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    syntax::check(&text, true).map_err(de::Error::custom)?;
    Ok(Some(text))
}

fn markup<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    syntax::check_markup(&text, false).map_err(de::Error::custom)?;
    Ok(text)
}

fn tooltip_markup<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    syntax::check_markup(&text, true).map_err(de::Error::custom)?;
    Ok(text)
}

fn seconds<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let seconds = u32::deserialize(d)?;
    match (1..=3600).contains(&seconds) {
        true => Ok(seconds),
        false => Err(de::Error::custom(format!(
            "{seconds} seconds is not between 1 and 3600"
        ))),
    }
}

fn playing_interval<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let ms = u32::deserialize(d)?;
    match (100..=60_000).contains(&ms) {
        true => Ok(ms),
        false => Err(de::Error::custom(format!(
            "a playing interval of {ms} ms is not between 100 and 60000"
        ))),
    }
}
