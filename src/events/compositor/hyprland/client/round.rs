//! A round of queries for the whole state: every query asked at once, one reply each, and
//! the state made from them when the last is in.

use std::collections::HashMap;
use std::time::Duration;

use super::{Hyprland, WHAT};
use crate::events::compositor::hyprland;
use crate::events::compositor::keyboard::mode_of;
use crate::events::compositor::CompositorState;

/// After a failed round of requests while the events still flow.
const REQUERY_DELAY: Duration = Duration::from_secs(1);
const QUERIES: [&str; 4] = ["j/workspaces", "j/monitors", "j/activewindow", "j/clients"];
/// Also asked in each round until a keyboard has been read: the layouts and the submap
/// (`activelayout` and `submap` events keep them after that). Hyprland answers
/// `j/devices` without an active keymap while it applies a new layout.
const KEYBOARD_QUERIES: [&str; 2] = ["j/devices", "submap"];

impl Hyprland {
    /// Asks for the state now, or once more after the round under way.
    pub(super) fn requery(&self) {
        let number = {
            let mut round = self.round.borrow_mut();
            if round.running {
                round.again = true;
                return;
            }
            round.number += 1;
            round.running = true;
            round.replies.clear();
            round.wanted = QUERIES.len();
            if !self.keyboard_read.get() {
                round.wanted += KEYBOARD_QUERIES.len();
            }
            round.number
        };
        let keyboard = match self.keyboard_read.get() {
            true => &[][..],
            false => &KEYBOARD_QUERIES[..],
        };
        for query in QUERIES.iter().chain(keyboard) {
            let me = self.me.clone();
            let query: &'static str = query;
            self.request(query, move |reply| {
                if let Some(hyprland) = me.upgrade() {
                    hyprland.on_reply(number, query, reply);
                }
            });
        }
    }

    fn on_reply(&self, number: u64, query: &'static str, reply: Result<Vec<u8>, String>) {
        let replies = {
            let mut round = self.round.borrow_mut();
            if round.number != number || !round.running {
                return;
            }
            // Hyprland closes a connection without a word when the request came late
            // (0.57: 5 s after the connection, as when it was busy): no answer either.
            let reply = match reply {
                Ok(reply) if reply.is_empty() => Err("closed without an answer".into()),
                reply => reply,
            };
            match reply {
                Ok(reply) => {
                    round.replies.insert(query, reply);
                }
                Err(why) => {
                    // Abandon the round; the events decide whether Hyprland is gone.
                    round.number += 1;
                    round.running = false;
                    round.again = false;
                    drop(round);
                    tracing::debug!("{WHAT}: {query}: {why}");
                    self.schedule(REQUERY_DELAY, Self::requery);
                    return;
                }
            }
            if round.replies.len() < round.wanted {
                return;
            }
            round.running = false;
            std::mem::take(&mut round.replies)
        };
        let reply = |query| replies.get(query).map_or(&[][..], Vec::as_slice);
        let state = hyprland::parse_state(
            reply("j/workspaces"),
            reply("j/monitors"),
            reply("j/activewindow"),
        );
        match state {
            Ok(mut state) => {
                if let Some(clients) = replies.get("j/clients") {
                    let mut urgent = self.urgent.borrow_mut();
                    if let Err(why) = hyprland::apply_clients(&mut state, clients, &mut urgent) {
                        tracing::debug!("{WHAT}: {why}");
                    }
                }
                *self.active.borrow_mut() =
                    hyprland::active_window_address(reply("j/activewindow"));
                *self.shown.borrow_mut() =
                    hyprland::shown_last_windows(reply("j/workspaces"), reply("j/monitors"));
                self.retry.succeeded(WHAT);
                // The layout and the submap stay as their events left them, once read.
                let kept = self.shared.state();
                (state.keyboard, state.mode) = (kept.keyboard, kept.mode);
                self.take_keyboard(&replies, &mut state);
                self.shared.publish(state);
            }
            Err(why) => tracing::warn!("{WHAT}: {why}"),
        }
        if std::mem::take(&mut self.round.borrow_mut().again) {
            self.requery();
        }
    }

    /// The keyboard and the submap from a round that asked for them; the keyboard is read
    /// for good once `j/devices` names an active keymap.
    fn take_keyboard(&self, replies: &HashMap<&'static str, Vec<u8>>, state: &mut CompositorState) {
        if let Some(name) = replies.get("submap") {
            state.mode = mode_of(&String::from_utf8_lossy(name));
        }
        match replies
            .get("j/devices")
            .map(|json| hyprland::main_keyboard(json))
        {
            Some(Ok(Some(keyboard))) => {
                state.keyboard = Some(keyboard);
                self.keyboard_read.set(true);
            }
            Some(Ok(None)) => {}
            Some(Err(why)) => tracing::debug!("{WHAT}: {why}"),
            None => {}
        }
    }
}
