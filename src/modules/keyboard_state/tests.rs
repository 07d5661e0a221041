//! The keyboard-state module's labels, classes, formats, icons and tooltip, and Waybar's
//! config.

use std::path::Path;

use super::*;
use crate::modules::tests::{input, text_with as shown};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::Plain;

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("keyboard-state", toml)
}

fn leds(bits: u64) -> Events {
    let leds = Leds {
        keyboards: vec!["AT Translated Set 2 keyboard".to_owned()],
        ..Leds::from_bits(bits)
    };
    Events::default().with(Some(leds))
}

/// The labels the bar draws, as `markup:class+class`.
fn labels(module: &dyn Module, events: &Events) -> Vec<String> {
    let sample = Sample::default();
    let input = Input {
        events,
        ..input(&sample)
    };
    let Widget::Labels(row) = module.widget() else {
        panic!("keyboard-state is a row of labels");
    };
    let mut out = vec![RowLabel {
        markup: "stale".into(),
        classes: vec![],
    }];
    row.labels(&input, &mut out);
    out.iter()
        .map(|l| format!("{}:{}", l.markup, l.classes.join("+")))
        .collect()
}

const ALL: &str = "numlock = true\ncapslock = true\nscrolllock = true\n";

#[test]
fn each_lock_is_a_label_with_its_class_and_locked_while_on() {
    let keyboard = module(ALL);
    // Caps Lock on (bit 1): Waybar's order, Scroll, Caps, Num.
    assert_eq!(
        labels(keyboard.as_ref(), &leds(0b010)),
        [
            "Scroll unlocked:scrolllock",
            "Caps locked:capslock+locked",
            "Num unlocked:numlock",
        ]
    );
    let (text, status) = shown(keyboard.as_ref(), &leds(0b101));
    assert_eq!(text, "Scroll locked Caps unlocked Num locked");
    assert!(status.expect("shown").markup);
    // Only the locks asked for.
    let caps = module("capslock = true");
    assert_eq!(
        labels(caps.as_ref(), &leds(0b111)),
        ["Caps locked:capslock+locked"]
    );
    assert_eq!(shown(caps.as_ref(), &leds(0)).0, "Caps unlocked");
}

#[test]
fn hidden_without_a_keyboard_and_without_a_lock_to_show() {
    let keyboard = module(ALL);
    assert_eq!(shown(keyboard.as_ref(), &Events::default()).1, None);
    assert!(labels(keyboard.as_ref(), &Events::default()).is_empty());
    // Waybar's default shows no lock at all.
    assert_eq!(shown(module("").as_ref(), &leds(0b111)).1, None);
    assert!(keyboard
        .follows()
        .contains(&Update::Event(EventSource::of::<Leds>())));
}

#[test]
fn formats_and_icons_for_all_locks_or_one_per_lock() {
    let common = module(&format!(
        "{ALL}format = \"{{icon}}{{name}}\"\nformat-icons = {{ locked = \"<b>L</b>\", unlocked = \"u\" }}\n"
    ));
    assert_eq!(
        labels(common.as_ref(), &leds(0b001)),
        [
            "uScroll:scrolllock",
            "uCaps:capslock",
            "<b>L</b>Num:numlock+locked"
        ]
    );
    let each = module(&format!(
        "{ALL}format = {{ capslock = \"C{{icon}}\" }}\n\
         format-icons.capslock = {{ locked = \"A\", unlocked = \"a\" }}\n\
         format-icons.numlock = {{ locked = \"1\" }}\n"
    ));
    assert_eq!(
        labels(each.as_ref(), &leds(0b011)),
        [
            "Scroll unlocked:scrolllock",
            "CA:capslock+locked",
            "Num 1:numlock+locked"
        ]
    );
    assert_eq!(
        shown(each.as_ref(), &leds(0)).0,
        "Scroll unlocked Ca Num unlocked"
    );
}

#[test]
fn the_tooltip_names_each_lock_and_the_keyboards_as_text() {
    let sample = Sample::default();
    let hostile = Leds {
        keyboards: vec!["<b>evil</b>\u{1}\nkbd".to_owned()],
        ..Leds::from_bits(0b010)
    };
    let events = Events::default().with(Some(hostile));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut markup = String::new();
    module(ALL).tooltip(&mut crate::text::Markup(&mut markup), &input);
    assert_eq!(
        markup,
        "Caps Lock: on\nNum Lock: off\nScroll Lock: off\n\nfrom &lt;b&gt;evil&lt;/b&gt;?\nkbd"
    );
    let mut none = String::new();
    module("tooltip = false").tooltip(&mut Plain(&mut none), &input);
    assert_eq!(none, "");
}

#[test]
fn the_leds_come_from_the_kernels_bitmap() {
    let leds = Leds::from_bits(0b1_0110);
    assert!(!leds.num && leds.caps && leds.scroll);
    assert_eq!(Leds::from_bits(0), Leds::default());
}

#[test]
fn bad_settings_are_refused_and_waybars_carry_over() {
    crate::modules::tests::refused(
        "keyboard-state",
        &[
            "format = \"{lock}\"",
            "format = \"<b>{name}\"",
            "format = 3",
            "format = { capslock = \"{state}\" }",
            "format = { shiftlock = \"x\" }",
            "format-icons = { locked = \"<i>\" }",
            "format-icons.capslock = { on = \"A\" }",
            "numlock = \"yes\"",
            "show-icon = true",
        ],
    );
    let waybar = serde_json::json!({
        "modules-right": ["keyboard-state"],
        "keyboard-state": {
            "numlock": true, "capslock": true,
            "format": {"numlock": "N {icon}", "capslock": "C {icon}"},
            "format-icons": {"locked": "", "unlocked": ""},
            "device-path": "/dev/input/event3",
            "binding-keys": [58, 69], "interval": 1,
            "on-click": "kbd-toggle"
        }
    });
    let import = crate::config::import::convert(&waybar);
    for expected in [
        "modules_right = [\"keyboard-state\"]",
        "numlock = true",
        "capslock = \"C {icon}\"",
        "device-path = \"/dev/input/event3\"",
        "locked = \"\"",
        "on-click = \"kbd-toggle\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    assert!(!import.toml.contains("binding-keys ="), "{}", import.toml);
    assert_eq!(import.notes.len(), 2, "{:?}", import.notes);
    assert!(import.notes.iter().all(|n| n.contains("not needed")));
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect("the import reads");
    let keyboard = &config.modules.right[0];
    assert_eq!(
        keyboard.source_settings(),
        Some(SourceSettings::of::<Leds>(KeyboardChoice {
            device_path: Some("/dev/input/event3".into())
        }))
    );
    assert_eq!(
        labels(keyboard.as_ref(), &leds(0b010)),
        ["C :capslock+locked", "N :numlock"]
    );
}
