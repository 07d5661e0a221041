//! The systemd-failed-units module: its count, state and class from both managers, the
//! tooltip's list, a manager not there or not asked, and Waybar's config.

use std::path::Path;

use super::*;
use crate::modules::tests::{input, text_with as shown};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("systemd-failed-units", toml)
}

fn unit(name: &str, description: &str) -> Unit {
    Unit::from_row([name, description, "loaded", "failed", "failed"])
}

fn manager(state: &str, failed: Vec<Unit>) -> Manager {
    let mut manager = Manager::listed(failed.into_iter());
    manager.apply_state(state);
    manager.properties_read = true;
    manager
}

fn running() -> Manager {
    manager("running", Vec::new())
}

fn events(system: Option<Manager>, user: Option<Manager>) -> Events {
    Events::default()
        .with(system.map(SystemUnits))
        .with(user.map(UserUnits))
}

fn tooltip(module: &dyn Module, events: &Events, markup: bool) -> String {
    let sample = Sample::default();
    let input = Input {
        events,
        ..input(&sample)
    };
    let mut out = String::new();
    match markup {
        true => module.tooltip(&mut Markup(&mut out), &input),
        false => module.tooltip(&mut Plain(&mut out), &input),
    }
    out
}

#[test]
fn failed_units_of_both_managers_are_counted() {
    let failed = module("");
    let system = manager("degraded", vec![unit("a.service", "A")]);
    let user = manager(
        "degraded",
        vec![unit("b.service", "B"), unit("c.timer", "C")],
    );
    let both = events(Some(system.clone()), Some(user));
    let (text, status) = shown(failed.as_ref(), &both);
    assert_eq!(text, "3 failed");
    assert_eq!(status.expect("shown").class, Some("degraded"));

    let fields = module(
        "format = \"{nr_failed_system}+{nr_failed_user} {system_state}/{user_state} \
         {overall_state}\"",
    );
    assert_eq!(
        shown(fields.as_ref(), &both).0,
        "1+2 degraded/degraded degraded"
    );
    let system_only = module("user = false");
    assert_eq!(shown(system_only.as_ref(), &both).0, "1 failed");
    assert_eq!(system_only.follows().len(), 1);
    // No user manager (a session without one): it counts as not asked.
    let (text, _) = shown(failed.as_ref(), &events(Some(system), None));
    assert_eq!(text, "1 failed");
}

#[test]
fn hidden_while_all_is_well_unless_told_otherwise() {
    let failed = module("");
    let fine = events(Some(running()), Some(running()));
    assert_eq!(shown(failed.as_ref(), &fine).1, None);
    assert_eq!(shown(failed.as_ref(), &events(None, None)).1, None);
    let shown_ok = module("hide-on-ok = false\nformat-ok = \"ok {overall_state}\"");
    let (text, status) = shown(shown_ok.as_ref(), &fine);
    assert_eq!(text, "ok ok");
    assert_eq!(status.expect("shown").class, Some("ok"));
    // Starting up counts as degraded, as Waybar has it, with no unit failed.
    let starting = events(Some(manager("starting", Vec::new())), None);
    let (text, status) = shown(shown_ok.as_ref(), &starting);
    assert_eq!(text, "ok degraded");
    assert_eq!(status.expect("shown").class, Some("degraded"));
    assert_eq!(shown(failed.as_ref(), &starting).0, "0 failed");
}

#[test]
fn the_tooltip_lists_the_failed_units_as_text() {
    let failed = module("");
    let user = manager(
        "degraded",
        vec![unit("x.service", "A <b>unit</b> & co\u{7}\u{202e}")],
    );
    let state = events(Some(running()), Some(user));
    assert_eq!(
        tooltip(failed.as_ref(), &state, false),
        "System: running\nUser: degraded\nFailed units (1):\n- x.service: A <b>unit</b> & co "
    );
    let own =
        module("tooltip-unit-format = \"{scope}/{name} {load_state} {active_state} {sub_state}\"");
    assert_eq!(
        tooltip(own.as_ref(), &state, true),
        "System: running\nUser: degraded\nFailed units (1):\n- user/x.service loaded failed failed"
    );
    let fine = events(Some(running()), None);
    assert_eq!(
        tooltip(failed.as_ref(), &fine, false),
        "System: running\nUser: ignored"
    );
    assert_eq!(
        tooltip(module("tooltip = false").as_ref(), &state, false),
        ""
    );
}

#[test]
fn the_list_and_the_text_are_bounded() {
    let mut manager = Manager::listed((0..1000).map(|i| unit(&format!("u{i}"), "")));
    assert_eq!(manager.failed.len(), MAX_UNITS);
    assert_eq!(manager.failed_count, MAX_UNITS as u32);
    assert_eq!(manager.state, "unknown");
    assert!(manager.apply_count(1000), "systemd's own count");
    assert!(!manager.apply_count(1000));
    assert!(manager.apply_state("degraded\n"));
    assert_eq!(manager.state, "degraded ");
    let long = unit(&"n".repeat(5000), "");
    assert_eq!(long.name.len(), 256);
}

#[test]
fn bad_settings_are_refused_and_waybars_carry_over() {
    for bad in [
        "format = \"{failed_units_list}\"",
        "tooltip-unit-format = \"{nr_failed}\"",
        "user = 1",
    ] {
        let text =
            format!("modules_right = [\"systemd-failed-units\"]\n[systemd-failed-units]\n{bad}\n");
        assert!(
            crate::config::parse(&text, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
    let waybar = serde_json::json!({
        "modules-right": ["systemd-failed-units"],
        "systemd-failed-units": {"hide-on-ok": false, "format": "✗ {nr_failed}",
            "format-ok": "✓", "system": true, "user": false,
            "tooltip-format": "{nr_failed} failed units:\n{failed_units_list}",
            "tooltip-unit-format": "{scope}: {name} ({active_state})"}
    });
    let import = crate::config::import::convert(&waybar);
    for expected in [
        "modules_right = [\"systemd-failed-units\"]",
        "format = \"✗ {nr_failed}\"",
        "format-ok = \"✓\"",
        "user = false",
        "tooltip-unit-format = \"{scope}: {name} ({active_state})\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    assert!(import.notes.is_empty(), "{:?}", import.notes);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect("the import reads");
}
