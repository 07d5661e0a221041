//! power-profiles-daemon on the system bus, through gio's asynchronous D-Bus on the main
//! loop. Its current name, `org.freedesktop.UPower.PowerProfiles`, is preferred; the
//! older `net.hadess.PowerProfiles` (the only one before 0.20) is followed where it is
//! the one there. The properties come from `GetAll` when the daemon appears, then from
//! `PropertiesChanged`. While neither name has an owner the state is `None` (said once).
//! Every call has a timeout; the main loop never waits.

use gtk4::glib::prelude::*;
use gtk4::glib::{self, Variant, VariantTy};

use super::{clean, PowerProfileCommand, PowerProfiles, Profile};
use crate::events::bus_watch::PROPERTIES;
use crate::events::bus_watch::{properties, Bus, BusService, BusWatch, Call, InUse, Signal};

/// (bus name, object path, interface), the preferred first.
const SERVICES: [(&str, &str, &str); 2] = [
    (
        "org.freedesktop.UPower.PowerProfiles",
        "/org/freedesktop/UPower/PowerProfiles",
        "org.freedesktop.UPower.PowerProfiles",
    ),
    (
        "net.hadess.PowerProfiles",
        "/net/hadess/PowerProfiles",
        "net.hadess.PowerProfiles",
    ),
];
/// More profiles than this are not read.
const MAX_PROFILES: usize = 16;

/// Follows power-profiles-daemon; dropping it stops.
pub type PowerProfilesWatch = BusWatch<Daemon>;

/// power-profiles-daemon, as a [`BusWatch`] follows it.
pub struct Daemon;

impl BusService for Daemon {
    type State = PowerProfiles;
    const BUS: Bus = Bus::System;
    const LOG: &'static str = "power profiles";
    const SERVICE: &'static str = "power-profiles-daemon";
    const ABSENT: &'static str = "power-profiles-daemon";
    const NAMES: &'static [&'static str] = &[SERVICES[0].0, SERVICES[1].0];

    fn read_call(index: usize) -> Call {
        let (_, path, interface) = SERVICES[index];
        Call {
            path,
            interface: PROPERTIES,
            method: "GetAll",
            args: Some((interface,).to_variant()),
            reply: "(a{sv})",
        }
    }

    fn parse(_: usize, reply: &Variant) -> PowerProfiles {
        let mut state = PowerProfiles::default();
        apply(&mut state, &reply.child_value(0));
        state
    }

    fn signals(index: usize) -> &'static [Signal] {
        const fn changed(path: &'static str) -> Signal {
            Signal {
                interface: PROPERTIES,
                member: "PropertiesChanged",
                path: Some(path),
            }
        }
        const SIGNALS: [[Signal; 1]; 2] = [[changed(SERVICES[0].1)], [changed(SERVICES[1].1)]];
        &SIGNALS[index]
    }

    fn on_signal(state: &mut PowerProfiles, _: &str, _: &str, args: &Variant) -> bool {
        if args.type_().as_str() != "(sa{sv}as)" {
            return false;
        }
        let before = state.clone();
        apply(state, &args.child_value(1));
        *state != before
    }

    fn command(daemon: &InUse<'_>, state: &PowerProfiles, command: &PowerProfileCommand) {
        let PowerProfileCommand::Cycle = command;
        let Some(next) = state.next() else {
            return;
        };
        let (_, path, interface) = SERVICES[daemon.index];
        daemon.set(
            (path, interface),
            "ActiveProfile",
            next.to_variant(),
            format!("power profiles: cannot switch to {next}"),
        );
    }
}

/// The properties the module shows, from an `a{sv}`; others are skipped.
fn apply(state: &mut PowerProfiles, dict: &Variant) {
    for (name, value) in properties(dict, 64) {
        match (name.as_str(), value.str()) {
            ("ActiveProfile", Some(active)) => state.active = clean(active),
            ("PerformanceDegraded", Some(reason)) => state.degraded = clean(reason),
            ("Profiles", _) => state.profiles = profiles(&value),
            _ => {}
        }
    }
}

/// `Profiles`: `aa{sv}`, each with `Profile` and `Driver` (strings).
fn profiles(list: &Variant) -> Vec<Profile> {
    if !VariantTy::new("aa{sv}").is_ok_and(|ty| list.is_type(ty)) {
        return Vec::new();
    }
    (0..list.n_children().min(MAX_PROFILES))
        .filter_map(|i| {
            let dict = glib::VariantDict::new(Some(&list.child_value(i)));
            let text = |key: &str| dict.lookup::<String>(key).ok().flatten().map(|s| clean(&s));
            Some(Profile {
                name: text("Profile")?,
                driver: text("Driver").unwrap_or_default(),
            })
        })
        .collect()
}
