//! A systemd manager on D-Bus: PID 1 on the system bus, the user's manager on the
//! session bus, the same interface on both. Its failed units come from
//! `ListUnitsFiltered(["failed"])`, its state and count from the manager's properties;
//! `Subscribe` makes it send `PropertiesChanged` when the count changes (and for a few
//! other properties), and all is read again then.

use std::marker::PhantomData;

use gtk4::glib::prelude::*;
use gtk4::glib::Variant;

use super::units::{Manager, Unit, MAX_UNITS};
use crate::events::bus_watch::{properties, Bus, BusService, Call, Signal, PROPERTIES};
use crate::events::EventState;

const NAME: &str = "org.freedesktop.systemd1";
const PATH: &str = "/org/freedesktop/systemd1";
const MANAGER: &str = "org.freedesktop.systemd1.Manager";

/// The manager has about 100 properties.
const MAX_PROPERTIES: usize = 256;

/// Which manager: the system's or the user's.
pub trait Scope: 'static {
    type State: EventState + AsRef<Manager> + AsMut<Manager> + From<Manager>;
    const BUS: Bus;
    const LOG: &'static str;
    const SERVICE: &'static str;
    const ABSENT: &'static str;
}

/// A systemd manager, as a `BusWatch` follows it.
pub struct Systemd<S: Scope>(PhantomData<S>);

impl<S: Scope> BusService for Systemd<S> {
    type State = S::State;
    const BUS: Bus = S::BUS;
    const LOG: &'static str = S::LOG;
    const SERVICE: &'static str = S::SERVICE;
    const ABSENT: &'static str = S::ABSENT;
    const NAMES: &'static [&'static str] = &[NAME];
    const OBJECT_INTERFACE: &'static str = MANAGER;

    fn on_appear(_: usize) -> Option<Call> {
        Some(Call {
            path: PATH,
            interface: MANAGER,
            method: "Subscribe",
            args: None,
            reply: "()",
        })
    }

    fn read_call(_: usize) -> Call {
        Call {
            path: PATH,
            interface: MANAGER,
            method: "ListUnitsFiltered",
            args: Some((vec!["failed"],).to_variant()),
            reply: "(a(ssssssouso))",
        }
    }

    fn parse(_: usize, reply: &Variant) -> S::State {
        let rows = reply.child_value(0);
        let units = rows.iter().take(MAX_UNITS).map(|row| {
            let text = |i| row.child_value(i).str().unwrap_or_default().to_owned();
            let [a, b, c, d, e] = [0, 1, 2, 3, 4].map(text);
            Unit::from_row([&a, &b, &c, &d, &e])
        });
        S::State::from(Manager::listed(units))
    }

    fn signals(_: usize) -> &'static [Signal] {
        &[Signal {
            interface: PROPERTIES,
            member: "PropertiesChanged",
            path: Some(PATH),
        }]
    }

    fn on_signal(state: &mut S::State, _: &str, _: &str, args: &Variant) -> bool {
        if args.type_().as_str() != "(sa{sv}as)" || args.child_value(0).str() != Some(MANAGER) {
            return false;
        }
        state.as_mut().stale = true;
        true
    }

    fn stale(state: &S::State) -> bool {
        state.as_ref().stale
    }

    fn unread(state: &S::State) -> Vec<String> {
        match state.as_ref().properties_read {
            true => Vec::new(),
            false => vec![PATH.to_owned()],
        }
    }

    fn read_object(state: &mut S::State, _: &str, properties: Option<&Variant>) -> bool {
        let manager = state.as_mut();
        manager.properties_read = true;
        match properties {
            Some(properties) => apply(manager, properties),
            None => false,
        }
    }
}

/// `SystemState` and `NFailedUnits` from a property dict; whether they changed.
fn apply(manager: &mut Manager, dict: &Variant) -> bool {
    let mut changed = false;
    for (name, value) in properties(dict, MAX_PROPERTIES) {
        changed |= match name.as_str() {
            "SystemState" => value.str().is_some_and(|s| manager.apply_state(s)),
            "NFailedUnits" => value.get::<u32>().is_some_and(|n| manager.apply_count(n)),
            _ => false,
        };
    }
    changed
}
