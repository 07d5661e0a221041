//! Media players as MPRIS describes them (`org.mpris.MediaPlayer2.*` on the session
//! bus), for the `media` module: each player's playback status and metadata, and which
//! one to show. The state is core; [`mpris`] follows the players.

#[cfg(feature = "app")]
pub mod mpris;
#[cfg(test)]
mod tests;

use std::rc::Rc;

/// The bus names of MPRIS players start so.
pub const BUS_PREFIX: &str = "org.mpris.MediaPlayer2.";

/// MPRIS's `PlaybackStatus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playback {
    Playing,
    Paused,
    #[default]
    Stopped,
}

impl Playback {
    pub fn parse(status: &str) -> Option<Playback> {
        match status {
            "Playing" => Some(Playback::Playing),
            "Paused" => Some(Playback::Paused),
            "Stopped" => Some(Playback::Stopped),
            _ => None,
        }
    }

    /// The CSS class and the `{status}` field: `playing`, `paused`, `stopped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Playback::Playing => "playing",
            Playback::Paused => "paused",
            Playback::Stopped => "stopped",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    /// Its well-known name, `org.mpris.MediaPlayer2.mpv` (an instance suffix kept).
    pub bus_name: String,
    /// Its unique name (`:1.42`), which its signals come from.
    pub owner: String,
    /// `Identity`: the player's own name for people (`mpv Media Player`).
    pub identity: String,
    pub playback: Playback,
    pub title: String,
    /// `xesam:artist`, the artists joined by ", ".
    pub artist: String,
    pub album: String,
    /// `mpris:length`, in microseconds.
    pub length_us: Option<u64>,
    /// When it last started playing, as an order: later is higher; 0 never seen playing.
    pub played_at: u64,
}

impl Player {
    /// The short name, as `ignored-players` and `{player}` use it: `firefox` for
    /// `org.mpris.MediaPlayer2.firefox.instance_1_42`.
    pub fn name(&self) -> &str {
        let rest = self
            .bus_name
            .strip_prefix(BUS_PREFIX)
            .unwrap_or(&self.bus_name);
        rest.split('.').next().unwrap_or(rest)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MediaState {
    /// In the order they appeared.
    pub players: Vec<Player>,
}

impl MediaState {
    /// The player shown and controlled: among those not `ignored`, the playing one that
    /// started last, else the one that played last, else the first to appear.
    pub fn current(&self, ignored: &[String]) -> Option<&Player> {
        let candidates = self
            .players
            .iter()
            .filter(|p| !ignored.iter().any(|name| name == p.name()));
        candidates.max_by_key(|p| (p.playback == Playback::Playing, p.played_at))
    }
}

/// What a click or a scroll asks of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerAction {
    PlayPause,
    Next,
    Previous,
    /// Brings the player's window to the front.
    Raise,
}

/// A command for the player the module shows: which one depends on its
/// `ignored-players`, so they come along.
#[derive(Clone, Debug, PartialEq)]
pub struct MediaCommand {
    pub action: PlayerAction,
    pub ignored: Rc<[String]>,
}

/// The longest text kept from a player (a title, an artist).
const MAX_TEXT: usize = 512;

/// Control characters out and the length bounded: metadata as a player sent it.
pub fn clean(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if out.len() > MAX_TEXT {
        let mut end = MAX_TEXT;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}
