//! The upower module: the device chosen, its text, class and tooltip, UPower's device
//! list kept within bounds, and Waybar's config.

use std::path::Path;

use super::*;
use crate::modules::tests::{input, text_with as shown};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("upower", toml)
}

/// A device read from UPower: `(name, value)` as its properties.
fn device(path: &str, properties: &[(&str, Value<'_>)]) -> Device {
    let mut device = Device {
        path: path.to_owned(),
        read: true,
        ..Device::default()
    };
    for (name, value) in properties {
        device.apply(name, value.clone());
    }
    device
}

/// A laptop discharging at 80 % with 4 h 5 min left, and a mouse at 42 %.
fn laptop() -> Power {
    let battery = [
        ("Type", Value::Unsigned(2)),
        ("State", Value::Unsigned(2)),
        ("Percentage", Value::Float(79.6)),
        ("TimeToEmpty", Value::Signed(4 * 3600 + 5 * 60 + 59)),
        ("TimeToFull", Value::Signed(0)),
        ("IsPresent", Value::Bool(true)),
        ("Temperature", Value::Float(31.4)),
        ("IconName", Value::Text("battery-good-symbolic")),
    ];
    let display = device(DISPLAY_DEVICE, &battery);
    let mut bat0 = device("/d/battery_BAT0", &battery);
    bat0.apply("NativePath", Value::Text("BAT0"));
    bat0.apply("Model", Value::Text("5B10W13930"));
    let mouse = device(
        "/d/mouse",
        &[
            ("Type", Value::Unsigned(5)),
            ("State", Value::Unsigned(2)),
            ("Percentage", Value::Float(42.0)),
            ("IsPresent", Value::Bool(true)),
            ("NativePath", Value::Text("hidpp_battery_0")),
            ("Model", Value::Text("MX <b>Master</b>\u{7}\u{202e}")),
        ],
    );
    let ac = device(
        "/d/line_power_AC",
        &[
            ("Type", Value::Unsigned(1)),
            ("NativePath", Value::Text("AC")),
        ],
    );
    Power {
        devices: vec![display, bat0, mouse, ac],
    }
}

fn events(power: Power) -> Events {
    Events::default().with(Some(power))
}

#[test]
fn the_display_device_is_shown_with_its_state_as_the_class() {
    let upower = module("");
    let (text, status) = shown(upower.as_ref(), &events(laptop()));
    assert_eq!(text, "80%");
    let status = status.expect("shown");
    assert_eq!(status.class, Some("discharging"));
    assert_eq!(status.percentage, Some(79.6));

    let fields = module("format = \"{percentage} {time} {temperature} {model}|{native-path}\"");
    let chosen = module("native-path = \"BAT0\"\nformat = \"{model} {time}\"");
    assert_eq!(
        shown(fields.as_ref(), &events(laptop())).0,
        "80% 4h 5min 31C |"
    );
    assert_eq!(
        shown(chosen.as_ref(), &events(laptop())).0,
        "5B10W13930 4h 5min"
    );
    let by_model = module("model = \"MX <b>Master</b> \"\nformat = \"{native-path}\"");
    assert_eq!(
        shown(by_model.as_ref(), &events(laptop())).0,
        "hidpp_battery_0"
    );

    // Charging: the time to full; full: no time, and no space left after the text.
    let mut power = laptop();
    let display = &mut power.devices[0];
    display.apply("State", Value::Unsigned(1));
    display.apply("TimeToFull", Value::Signed(2 * 86_400 + 3600 + 60));
    let alt = module("format = \"{percentage} {time}\"");
    let (text, status) = shown(alt.as_ref(), &events(power.clone()));
    assert_eq!(text, "80% 2d 1h 1min");
    assert_eq!(status.expect("shown").class, Some("charging"));
    power.devices[0].apply("State", Value::Unsigned(4));
    let (text, status) = shown(alt.as_ref(), &events(power));
    assert_eq!(text, "80%");
    assert_eq!(status.expect("shown").class, Some("full"));
}

#[test]
fn hidden_without_upowerd_or_a_battery_unless_told_otherwise() {
    let upower = module("");
    assert_eq!(
        shown(upower.as_ref(), &Events::default()).1,
        None,
        "no upowerd"
    );
    let empty = Power::listed(["/d/line_power_AC"].into_iter());
    assert_eq!(
        shown(upower.as_ref(), &events(empty.clone())).1,
        None,
        "unread"
    );
    let mut no_battery = empty;
    no_battery.devices[0].read = true;
    no_battery.devices[0].apply("Type", Value::Unsigned(2));
    assert_eq!(
        shown(upower.as_ref(), &events(no_battery.clone())).1,
        None,
        "a display device with nothing present"
    );
    let shown_anyway = module("hide-if-empty = false");
    let (text, status) = shown(shown_anyway.as_ref(), &events(no_battery));
    assert_eq!(text, "0%");
    assert_eq!(status.expect("shown").class, Some("unknown-status"));
    let missing = module("native-path = \"BAT9\"");
    assert_eq!(shown(missing.as_ref(), &events(laptop())).1, None);
}

#[test]
fn a_left_click_switches_to_the_alternative_format_and_back() {
    let upower = module("");
    assert_eq!(upower.action(Button::Left), Some(Action::Redraw));
    assert_eq!(shown(upower.as_ref(), &events(laptop())).0, "80% 4h 5min");
    assert_eq!(upower.action(Button::Left), Some(Action::Redraw));
    assert_eq!(shown(upower.as_ref(), &events(laptop())).0, "80%");
    assert_eq!(upower.action(Button::Middle), None);
}

#[test]
fn the_tooltip_lists_the_other_batteries_as_text() {
    let sample = Sample::default();
    let events = events(laptop());
    let laptop_input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut plain = String::new();
    module("").tooltip(&mut Plain(&mut plain), &laptop_input);
    // The model's control character is a space, the override is dropped, markup is text.
    assert_eq!(plain, "5B10W13930: 80% 4h 5min\nMX <b>Master</b> : 42%");
    let mut markup = String::new();
    let own = module("tooltip-format = \"{percentage} & {native-path}\"");
    own.tooltip(&mut Markup(&mut markup), &laptop_input);
    assert_eq!(
        markup,
        "5B10W13930: 80% &amp; BAT0\nMX &lt;b&gt;Master&lt;/b&gt; : 42% &amp; hidpp_battery_0"
    );
    let mut none = String::new();
    module("tooltip = false").tooltip(&mut Plain(&mut none), &laptop_input);
    assert_eq!(none, "");

    // A battery without a model is named by its kind.
    let mut power = laptop();
    power.devices[2].model.clear();
    let unnamed = Events::default().with(Some(power));
    let unnamed = Input {
        events: &unnamed,
        ..input(&sample)
    };
    let mut plain = String::new();
    module("tooltip-format = \"{percentage}\"").tooltip(&mut Plain(&mut plain), &unnamed);
    assert_eq!(plain, "5B10W13930: 80%\nMouse: 42%");

    // Waybar's gap between the name and the line: a space Pango widens to 20 pixels (a
    // point high, 15 points of letter spacing); one space in plain text.
    let spaced = module("tooltip-format = \"{percentage}\"\ntooltip-spacing = 20");
    let mut markup = String::new();
    spaced.tooltip(&mut Markup(&mut markup), &unnamed);
    let gap = "<span size=\"1024\" letter_spacing=\"15360\"> </span>";
    assert_eq!(markup, format!("5B10W13930{gap}80%\nMouse{gap}42%"));
    let mut plain = String::new();
    spaced.tooltip(&mut Plain(&mut plain), &unnamed);
    assert_eq!(plain, "5B10W13930 80%\nMouse 42%");
}

#[test]
fn the_device_list_follows_upower_within_bounds() {
    let mut power = Power::listed(["/a", "/b", "/a"].into_iter());
    assert_eq!(power.unread(), [DISPLAY_DEVICE, "/a", "/b"]);
    assert!(!power.add("/b"), "already there");
    assert!(power.remove("/a"));
    assert!(!power.remove("/a"));
    power.device_mut("/b").expect("listed").read = true;
    assert_eq!(power.unread(), [DISPLAY_DEVICE]);
    for i in 0..1000 {
        power.add(&format!("/flood/{i}"));
    }
    assert_eq!(power.devices.len(), MAX_DEVICES);

    // Values of the wrong type, or out of range, are left aside or bounded.
    let mut device = Device::default();
    device.apply("Percentage", Value::Float(f64::NAN));
    device.apply("Percentage", Value::Float(250.0));
    device.apply("TimeToEmpty", Value::Signed(-5));
    device.apply("Type", Value::Text("battery"));
    device.apply("Model", Value::Text(&"m".repeat(10_000)));
    assert_eq!(device.percentage, 100.0);
    assert_eq!(device.time_to_empty, 0);
    assert_eq!(device.kind, 0);
    assert_eq!(device.model.chars().count(), 128);
}

#[test]
fn upowers_icon_for_the_device_before_the_label_as_waybar_draws_it() {
    let upower = module("icon-size = 24");
    let Widget::PictureAndLabel(picture) = upower.widget() else {
        panic!("no icon by default");
    };
    assert_eq!((picture.source, picture.width), (NO_BATTERY_ICON, 24));
    let (_, status) = shown(upower.as_ref(), &events(laptop()));
    assert_eq!(
        status.expect("shown").icon.as_deref(),
        Some("battery-good-symbolic")
    );
    let plain = module("show-icon = false");
    assert!(matches!(plain.widget(), Widget::Label));
    assert_eq!(
        shown(plain.as_ref(), &events(laptop()))
            .1
            .expect("shown")
            .icon,
        None
    );
    // A name no theme could have is none.
    let mut odd = device(DISPLAY_DEVICE, &[("IconName", Value::Text("../../etc/x"))]);
    assert_eq!(&*odd.icon_name, "");
    odd.apply("IconName", Value::Text("battery-low-charging-symbolic"));
    assert_eq!(&*odd.icon_name, "battery-low-charging-symbolic");
}

#[test]
fn bad_settings_are_refused_and_waybars_carry_over() {
    crate::modules::tests::refused(
        "upower",
        &[
            "format = \"{capacity}\"",
            "hide-if-empty = 1",
            "icon-size = 2000",
            "show-icon = 1",
        ],
    );
    let waybar = serde_json::json!({
        "modules-right": ["upower"],
        "upower": {"native-path": "BAT1", "format": "{percentage} {time}",
                   "format-alt": "{model}", "hide-if-empty": false, "tooltip-spacing": 20,
                   "tooltip-padding": 6, "show-icon": false,
                   "on-click": "gnome-power-statistics"}
    });
    let import = crate::config::import::convert(&waybar);
    for expected in [
        "modules_right = [\"upower\"]",
        "native-path = \"BAT1\"",
        "format = \"{percentage} {time}\"",
        "format-alt = \"{model}\"",
        "hide-if-empty = false",
        "on-click = \"gnome-power-statistics\"",
        "show-icon = false",
        "tooltip-spacing = 20",
        "tooltip-padding = 6",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    assert!(import.notes.is_empty(), "{:?}", import.notes);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect("the import reads");
    assert_eq!(config.bars[0].shape_of("upower").tooltip_padding, Some(6));
    crate::modules::tests::refused("upower", &["tooltip-spacing = -1", "tooltip-padding = 999"]);
}
