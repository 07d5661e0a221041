//! The power_profile module's text, classes, icons, tooltip and click.

use std::path::Path;

use super::*;
use crate::events::power_profiles::Profile;
use crate::modules::tests::{input, text_with as text};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"power_profile\"]\n[power_profile]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn state(active: &str, degraded: &str) -> Events {
    let profile = |name: &str, driver: &str| Profile {
        name: name.to_owned(),
        driver: driver.to_owned(),
    };
    Events::default().with(Some(PowerProfiles {
        active: active.to_owned(),
        profiles: vec![
            profile("power-saver", "amd_pstate"),
            profile("balanced", "amd_pstate"),
            profile("performance", "amd_pstate"),
        ],
        degraded: degraded.to_owned(),
    }))
}

#[test]
fn the_active_profile_with_its_class_and_icon() {
    let power = module("");
    let (out, status) = text(power.as_ref(), &state("balanced", ""));
    assert_eq!(out, "PWR balanced");
    let status = status.expect("shown");
    assert_eq!(status.class, Some("balanced"));
    assert!(status.classes.is_empty());
    // Without the daemon: hidden.
    assert_eq!(
        text(power.as_ref(), &Events::default()),
        (String::new(), None)
    );

    let icons = module(
        "format = \"{icon} {driver}\"\nformat-icons = { performance = \"P\", default = \"-\" }\n",
    );
    let (out, status) = text(icons.as_ref(), &state("performance", "lap-detected"));
    assert_eq!(out, "P amd_pstate");
    let status = status.expect("shown");
    assert_eq!(status.class, Some("performance"));
    assert_eq!(status.classes, ["degraded"]);
    assert_eq!(
        text(icons.as_ref(), &state("power-saver", "")).0,
        "- amd_pstate"
    );
}

#[test]
fn the_tooltip_names_the_driver_the_degradation_and_the_profiles() {
    let power = module("");
    let events = state("performance", "high-operating-temperature");
    let sample = Sample::default();
    let shown = Input {
        events: &events,
        ..input(&sample)
    };
    let mut tooltip = String::new();
    power.tooltip(&mut Plain(&mut tooltip), &shown);
    assert_eq!(
        tooltip,
        "Power profile  performance · driver amd_pstate\n  performance degraded: \
         high-operating-temperature\n  power-saver\n  balanced\n▸ performance\n"
    );
    let odd = Events::default().with(Some(PowerProfiles {
        active: "<b>x".to_owned(),
        ..PowerProfiles::default()
    }));
    let shown = Input {
        events: &odd,
        ..input(&sample)
    };
    let mut tooltip = String::new();
    power.tooltip(&mut Markup(&mut tooltip), &shown);
    assert!(tooltip.contains("&lt;b&gt;x"), "{tooltip}");
    assert_eq!(text(power.as_ref(), &odd).1.and_then(|s| s.class), None);
    // The user's tooltip, Waybar's example: markup of their own, the profile escaped.
    let own = module("tooltip-format = \"Power profile: <b>{profile}</b>\\nDriver: {driver}\"");
    let mut tooltip = String::new();
    own.tooltip(&mut Markup(&mut tooltip), &shown);
    assert_eq!(tooltip, "Power profile: <b>&lt;b&gt;x</b>\nDriver: ");
}

#[test]
fn a_left_click_cycles_and_bad_settings_are_refused() {
    let power = module("");
    assert_eq!(
        power.action(Button::Left),
        Some(Action::Command(SourceCommand::to::<PowerProfiles>(
            PowerProfileCommand::Cycle
        )))
    );
    assert_eq!(power.action(Button::Right), None);
    assert!(power
        .follows()
        .contains(&Update::Event(EventSource::of::<PowerProfiles>())));
    assert!(crate::modules::is_module("power-profiles-daemon"));
    for bad in ["format = \"{level}\"", "colour = 1"] {
        let text = format!("modules_right = [\"power_profile\"]\n[power_profile]\n{bad}\n");
        assert!(
            crate::config::parse(&text, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}
