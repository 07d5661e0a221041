//! The backlight module's text, device choice, tooltip and scrolls.

use std::path::Path;

use super::*;
use crate::events::backlight::{BacklightState, Kind};
use crate::modules::tests::input;
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"backlight\"]\n[backlight]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn events() -> Events {
    let light = |name: &str, kind, brightness, max| Backlight {
        name: name.to_owned(),
        kind,
        brightness,
        max,
    };
    Events::default().with(Some(BacklightState {
        devices: vec![
            light("acpi_video0", Kind::Firmware, 6, 15),
            light("intel<b>", Kind::Raw, 18_000, 24_000),
        ],
    }))
}

fn shown(module: &dyn Module, events: &Events) -> (String, Option<Status>, String) {
    let sample = Sample::default();
    let input = Input {
        events,
        ..input(&sample)
    };
    let mut out = String::new();
    let status = module.text(&input, &mut out);
    let mut tooltip = String::new();
    module.tooltip(&mut Plain(&mut tooltip), &input);
    (out, status, tooltip)
}

#[test]
fn the_firmware_backlight_unless_one_is_named() {
    let (text, status, tooltip) = shown(module("").as_ref(), &events());
    assert_eq!(text, "LIGHT 40%");
    assert_eq!(status.expect("shown").percentage, Some(40.0));
    assert_eq!(tooltip, "Backlight  acpi_video0 · 40% (6 of 15)\n");
    let named = module("device = \"intel<b>\"\nformat = \"{icon} {name} {percent}\"\nformat-icons = [\"dark\", \"mid\", \"bright\"]");
    let (text, _, _) = shown(named.as_ref(), &events());
    assert_eq!(text, "bright intel<b> 75");
    let sample = Sample::default();
    let events = events();
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut markup = String::new();
    named.tooltip(&mut Markup(&mut markup), &input);
    assert!(markup.contains("intel&lt;b&gt;"), "{markup}");
    // The user's tooltip: markup of their own, the device's name escaped.
    let own = module("device = \"intel<b>\"\ntooltip-format = \"<b>{name}</b> {percent}%\"");
    let mut markup = String::new();
    own.tooltip(&mut Markup(&mut markup), &input);
    assert_eq!(markup, "<b>intel&lt;b&gt;</b> 75%");
    // No such device, no backlight at all, no source: hidden.
    let missing = module("device = \"nope\"");
    assert_eq!(shown(missing.as_ref(), &events).1, None);
    assert_eq!(shown(module("").as_ref(), &Events::default()).1, None);
    let none = Events::default().with(Some(BacklightState::default()));
    assert_eq!(shown(module("").as_ref(), &none).1, None);
}

#[test]
fn scrolls_step_the_brightness_and_settings_are_checked() {
    let light = module("device = \"intel<b>\"\nscroll-step = 2.5");
    let step = |step| {
        Some(Action::Command(SourceCommand::to::<BacklightState>(
            BacklightCommand {
                device: Some(Rc::from("intel<b>")),
                step,
            },
        )))
    };
    assert_eq!(light.action(Button::ScrollUp), step(2.5));
    assert_eq!(light.action(Button::ScrollDown), step(-2.5));
    assert_eq!(light.action(Button::Left), None);
    let reversed = module("reverse-scrolling = true\non-click = \"wdisplays\"");
    assert_eq!(
        reversed.action(Button::ScrollUp),
        Some(Action::Command(SourceCommand::to::<BacklightState>(
            BacklightCommand {
                device: None,
                step: -5.0
            }
        )))
    );
    assert_eq!(
        reversed.action(Button::Left),
        Some(Action::Run(Button::Left))
    );
    assert!(light
        .follows()
        .contains(&Update::Event(EventSource::of::<BacklightState>())));
    crate::modules::tests::refused(
        "backlight",
        &[
            "format = \"{level}\"",
            "scroll-step = 0",
            "scroll-step = -1",
            "states = 1",
        ],
    );
}

#[test]
fn a_left_click_switches_to_format_alt_and_back() {
    let light =
        module("format = \"{percent}%\"\nformat-alt = \"{name} {icon}\"\nformat-icons = \"☀\"");
    assert_eq!(shown(light.as_ref(), &events()).0, "40%");
    assert_eq!(light.action(Button::Left), Some(Action::Redraw));
    assert_eq!(shown(light.as_ref(), &events()).0, "acpi_video0 ☀");
    light.action(Button::Left);
    assert_eq!(shown(light.as_ref(), &events()).0, "40%");
    assert_eq!(module("").action(Button::Left), None, "nothing to switch");
}

#[test]
fn states_give_a_class_and_their_own_format() {
    let states = module("states = { dim = 0, bright = 60 }\nformat-bright = \"SUN {percent}\"\n");
    // acpi_video0 is at 40%: dim, which has no format of its own.
    let (text, status, _) = shown(states.as_ref(), &events());
    assert_eq!(text, "LIGHT 40%");
    assert_eq!(status.expect("shown").state.as_deref(), Some("dim"));
    let named = module(
        "device = \"intel<b>\"\nstates = { dim = 0, bright = 60 }\nformat-bright = \"SUN {percent}\"\n",
    );
    let (text, status, _) = shown(named.as_ref(), &events());
    assert_eq!(text, "SUN 75");
    assert_eq!(status.expect("shown").state.as_deref(), Some("bright"));
    // A format for a state that is not listed, or with a field the module does not
    // fill, is a config error, as is any other unknown key.
    for bad in [
        "states = { dim = 0 }\nformat-bright = \"x\"\n",
        "states = { dim = 0 }\nformat-dim = \"{volume}\"\n",
        "formt = \"x\"\n",
    ] {
        let text = format!("modules_right = [\"backlight\"]\n[backlight]\n{bad}");
        assert!(
            crate::config::parse(&text, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
    // Waybar's keys carry over.
    let waybar = KIND.waybar.as_ref().expect("Waybar's backlight");
    let states = serde_json::json!({"dim": 0, "bright": 60});
    assert!(matches!(
        waybar.carry("states", &states),
        crate::modules::import::Carried::Set(_)
    ));
    assert!(matches!(
        waybar.carry("format-bright", &serde_json::json!("SUN {percent}")),
        crate::modules::import::Carried::Set(_)
    ));
}
