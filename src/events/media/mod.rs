//! Media players as MPRIS describes them (`org.mpris.MediaPlayer2.*` on the session
//! bus), for the `media` module: each player's playback status and metadata, and which
//! one to show. The state is core; [`mpris`] follows the players.

#[cfg(feature = "app")]
pub mod mpris;
#[cfg(feature = "app")]
mod properties;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
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

/// How many players are followed at once.
pub const MAX_FOLLOWED: usize = 32;
/// How many names are kept waiting for a place, and how many silent ones are remembered.
const MAX_KEPT: usize = 256;

/// Which players are followed. Any program can own any number of `org.mpris.MediaPlayer2.*`
/// names, so at most [`MAX_FOLLOWED`] are followed at once: a name that comes while that
/// many are waits for a place, and one that does not answer its first read of the player
/// interface (an error, or nothing in time) gives its place up (to be followed again once
/// it speaks). So names that never answer cannot keep a
/// real player out, however many came and went before it.
#[derive(Debug, Default)]
pub struct Roster {
    /// (bus name, owner) waiting for a place, oldest first.
    waiting: VecDeque<(String, String)>,
    /// (bus name, owner) that did not answer, oldest first.
    silent: VecDeque<(String, String)>,
}

impl Roster {
    /// `bus_name` is on the bus as `owner`: whether it is followed now (and so to be read).
    pub fn appeared(&mut self, players: &mut Vec<Player>, bus_name: &str, owner: &str) -> bool {
        if players.iter().any(|p| p.bus_name == bus_name) {
            return false;
        }
        self.forget(bus_name);
        if players.len() < MAX_FOLLOWED {
            players.push(Player {
                bus_name: bus_name.to_owned(),
                owner: owner.to_owned(),
                ..Player::default()
            });
            return true;
        }
        // The newest names wait; of a flood, the oldest are dropped first.
        keep(&mut self.waiting, bus_name, owner);
        false
    }

    /// `bus_name` left the bus: the player that takes its place, if one does (to be read).
    pub fn left(&mut self, players: &mut Vec<Player>, bus_name: &str) -> Option<String> {
        self.forget(bus_name);
        let before = players.len();
        players.retain(|p| p.bus_name != bus_name);
        (players.len() < before)
            .then(|| self.next(players))
            .flatten()
    }

    /// The connection `owner` did not answer: its players give up their places; the
    /// owners of the players that take them (to be read).
    pub fn went_silent(&mut self, players: &mut Vec<Player>, owner: &str) -> Vec<String> {
        let mut promoted = Vec::new();
        while let Some(at) = players.iter().position(|p| p.owner == owner) {
            let player = players.remove(at);
            keep(&mut self.silent, &player.bus_name, owner);
            promoted.extend(self.next(players));
        }
        promoted
    }

    /// A signal came from `owner`: whether a silent player of its is followed again.
    pub fn spoke(&mut self, players: &mut Vec<Player>, owner: &str) -> bool {
        let Some(at) = self.silent.iter().position(|(_, o)| o == owner) else {
            return false;
        };
        let (bus_name, owner) = self.silent.remove(at).unwrap_or_default();
        self.appeared(players, &bus_name, &owner)
    }

    /// Follows the longest-waiting name, if there is room.
    fn next(&mut self, players: &mut Vec<Player>) -> Option<String> {
        while players.len() < MAX_FOLLOWED {
            let (bus_name, owner) = self.waiting.pop_front()?;
            if self.appeared(players, &bus_name, &owner) {
                return Some(owner);
            }
        }
        None
    }

    fn forget(&mut self, bus_name: &str) {
        self.waiting.retain(|(name, _)| name != bus_name);
        self.silent.retain(|(name, _)| name != bus_name);
    }
}

/// Appends (bus name, owner), dropping the oldest entry when [`MAX_KEPT`] are kept.
fn keep(list: &mut VecDeque<(String, String)>, bus_name: &str, owner: &str) {
    if list.len() >= MAX_KEPT {
        list.pop_front();
    }
    list.push_back((bus_name.to_owned(), owner.to_owned()));
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
    let mut out: String = crate::text::shown(text, ' ').collect();
    if out.len() > MAX_TEXT {
        let mut end = MAX_TEXT;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}

impl super::EventState for MediaState {
    const KEY: &'static str = "Media";
    type Command = MediaCommand;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = mpris::MediaWatch;
}
