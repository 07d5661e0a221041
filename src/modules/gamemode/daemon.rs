//! gamemoded on the session bus: its `ClientCount`, read with `GetAll` when it appears
//! and followed through `PropertiesChanged`.

use gtk4::glib::prelude::*;
use gtk4::glib::Variant;

use super::GameMode;
use crate::events::bus_watch::{properties, Bus, BusService, Call, Signal, PROPERTIES};

const NAME: &str = "com.feralinteractive.GameMode";
const PATH: &str = "/com/feralinteractive/GameMode";

/// gamemoded, as a `BusWatch` follows it.
pub struct Gamemoded;

impl BusService for Gamemoded {
    type State = GameMode;
    const BUS: Bus = Bus::Session;
    const LOG: &'static str = "gamemode";
    const SERVICE: &'static str = "gamemoded";
    const ABSENT: &'static str = "gamemoded (com.feralinteractive.GameMode)";
    const NAMES: &'static [&'static str] = &[NAME];

    fn read_call(_: usize) -> Call {
        Call {
            path: PATH,
            interface: PROPERTIES,
            method: "GetAll",
            args: Some((NAME,).to_variant()),
            reply: "(a{sv})",
        }
    }

    fn parse(_: usize, reply: &Variant) -> GameMode {
        let mut state = GameMode::default();
        apply(&mut state, &reply.child_value(0));
        state
    }

    fn signals(_: usize) -> &'static [Signal] {
        &[Signal {
            interface: PROPERTIES,
            member: "PropertiesChanged",
            path: Some(PATH),
        }]
    }

    fn on_signal(state: &mut GameMode, _: &str, _: &str, args: &Variant) -> bool {
        if args.type_().as_str() != "(sa{sv}as)" {
            return false;
        }
        let before = *state;
        apply(state, &args.child_value(1));
        *state != before
    }
}

/// `ClientCount` (an `i`, never below 0) from a property dict.
fn apply(state: &mut GameMode, dict: &Variant) {
    for (name, value) in properties(dict, 16) {
        if let ("ClientCount", Some(count)) = (name.as_str(), value.get::<i32>()) {
            state.games = count.max(0) as u32;
        }
    }
}
