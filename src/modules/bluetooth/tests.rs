//! The bluetooth module's texts, classes, formats, tooltip and clicks, over states as
//! BlueZ gives them.

use std::path::Path;

use super::*;
use crate::events::bluetooth::{Property, ADAPTER, BATTERY, DEVICE};
use crate::modules::tests::input;
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"bluetooth\"]\n[bluetooth]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

const HCI0: &str = "/org/bluez/hci0";
const BUDS: &str = "/org/bluez/hci0/dev_00_11_22_33_44_55";

fn state(powered: bool, connected: bool, battery: Option<u8>) -> BluetoothState {
    let mut state = BluetoothState::default();
    let flag = |name: &str, on| (name.to_owned(), Property::Bool(on));
    let text = |name: &str, value: &str| (name.to_owned(), Property::Text(value.to_owned()));
    state.update(
        HCI0,
        ADAPTER,
        &[
            text("Alias", "laptop"),
            text("Address", "AA:BB:CC:DD:EE:FF"),
            flag("Powered", powered),
        ],
    );
    state.update(
        BUDS,
        DEVICE,
        &[text("Alias", "<Buds>"), flag("Connected", connected)],
    );
    if let Some(percent) = battery {
        state.update(
            BUDS,
            BATTERY,
            &[("Percentage".to_owned(), Property::Byte(percent))],
        );
    }
    state
}

fn text(module: &dyn Module, state: Option<BluetoothState>) -> (String, Option<Status>) {
    let sample = Sample::default();
    let events = Events::default().with(state);
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut out = String::new();
    let status = module.text(&input, &mut out);
    (out, status)
}

#[test]
fn power_connections_and_classes() {
    let bluetooth = module("");
    let class = |status: Option<Status>| status.and_then(|s| s.class);
    let (out, status) = text(bluetooth.as_ref(), Some(state(false, true, None)));
    assert_eq!((out.as_str(), class(status)), ("BT off", Some("off")));
    let (out, status) = text(bluetooth.as_ref(), Some(state(true, false, None)));
    assert_eq!((out.as_str(), class(status)), ("BT on", Some("on")));
    let (out, status) = text(bluetooth.as_ref(), Some(state(true, true, Some(80))));
    assert_eq!(
        (out.as_str(), class(status)),
        ("BT <Buds>", Some("connected"))
    );
    // No adapter, or no BlueZ: hidden.
    assert_eq!(
        text(bluetooth.as_ref(), Some(BluetoothState::default())).1,
        None
    );
    assert_eq!(text(bluetooth.as_ref(), None), (String::new(), None));
}

#[test]
fn waybar_formats_and_icons() {
    let bluetooth = module(
        "format-off = \"off {icon}\"\nformat-connected = \"{num_connections} on {controller_alias}\"\n\
         format-connected-battery = \"{device_alias} {device_battery_percentage}% {icon}\"\n\
         format-icons = [\"low\", \"high\"]\n",
    );
    assert_eq!(
        text(bluetooth.as_ref(), Some(state(false, false, None))).0,
        "off low"
    );
    assert_eq!(
        text(bluetooth.as_ref(), Some(state(true, true, None))).0,
        "1 on laptop"
    );
    assert_eq!(
        text(bluetooth.as_ref(), Some(state(true, true, Some(80)))).0,
        "<Buds> 80% high"
    );
}

#[test]
fn the_tooltip_lists_the_connected_devices_with_their_battery() {
    let bluetooth = module("");
    let sample = Sample::default();
    let events = Events::default().with(Some(state(true, true, Some(80))));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut out = String::new();
    bluetooth.tooltip(&mut Plain(&mut out), &input);
    assert_eq!(
        out,
        "Bluetooth  laptop · connected\n  <Buds> · battery 80%\n"
    );
    let mut markup = String::new();
    bluetooth.tooltip(&mut Markup(&mut markup), &input);
    assert!(markup.contains("&lt;Buds&gt; · battery 80%"), "{markup}");
}

#[test]
fn a_click_toggles_the_power_unless_a_command_is_set() {
    let bluetooth = module("on-click-right = \"blueman-manager\"");
    assert_eq!(
        bluetooth.action(Button::Left),
        Some(Action::Command(SourceCommand::to::<BluetoothState>(
            BluetoothCommand::TogglePower
        )))
    );
    assert_eq!(
        bluetooth.action(Button::Right),
        Some(Action::Run(Button::Right))
    );
    assert_eq!(bluetooth.action(Button::ScrollUp), None);
    let own = module("on-click = \"blueman-manager\"");
    assert_eq!(own.action(Button::Left), Some(Action::Run(Button::Left)));
    for bad in [
        "format = \"{status} {essid}\"",
        "format-no-controller = \"x\"",
    ] {
        let text = format!("modules_right = [\"bluetooth\"]\n[bluetooth]\n{bad}\n");
        assert!(
            crate::config::parse(&text, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn waybars_tooltip_formats_by_status_with_the_devices_enumerated() {
    let bluetooth = module(
        "tooltip-format = \"{controller_alias}: {status}\"\n\
         tooltip-format-connected = \"<b>{controller_alias}</b> {controller_address} {num_connections}\\n{device_enumerate}\"\n\
         tooltip-format-enumerate-connected = \"{device_alias} {device_address}\"\n\
         tooltip-format-enumerate-connected-battery = \"<i>{device_alias}</i>\\t{device_battery_percentage}%\"\n",
    );
    let tooltip = |state: BluetoothState| {
        let sample = Sample::default();
        let events = Events::default().with(Some(state));
        let input = Input {
            events: &events,
            ..input(&sample)
        };
        let mut out = String::new();
        bluetooth.tooltip(&mut Markup(&mut out), &input);
        out
    };
    assert_eq!(tooltip(state(true, false, None)), "laptop: on");
    assert_eq!(
        tooltip(state(true, true, None)),
        "<b>laptop</b> AA:BB:CC:DD:EE:FF 1\n&lt;Buds&gt; 00:11:22:33:44:55",
        "the device's alias escaped"
    );
    assert_eq!(
        tooltip(state(true, true, Some(70))),
        "<b>laptop</b> AA:BB:CC:DD:EE:FF 1\n<i>&lt;Buds&gt;</i>\t70%"
    );
    let silent = module("tooltip = false\ntooltip-format = \"{status}\"");
    let sample = Sample::default();
    let events = Events::default().with(Some(state(true, false, None)));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut out = String::new();
    silent.tooltip(&mut Plain(&mut out), &input);
    assert!(out.is_empty(), "{out}");
    for bad in [
        "tooltip-format = \"<b>{status}\"",
        "tooltip-format-enumerate-connected = \"{device_enumerate}\"",
    ] {
        let toml = format!("modules_right = [\"bluetooth\"]\n[bluetooth]\n{bad}\n");
        assert!(
            crate::config::parse(&toml, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn an_adapter_rfkill_blocks_is_disabled() {
    let bluetooth =
        module("format-disabled = \"BT blocked\"\ntooltip-format-disabled = \"rfkill\"");
    let mut blocked = state(false, false, None);
    let power_state = |value: &str| [("PowerState".to_owned(), Property::Text(value.to_owned()))];
    blocked.update(HCI0, ADAPTER, &power_state("off-blocked"));
    let (out, status) = text(bluetooth.as_ref(), Some(blocked.clone()));
    assert_eq!(out, "BT blocked");
    assert_eq!(status.and_then(|s| s.class), Some("disabled"));
    let sample = Sample::default();
    let events = Events::default().with(Some(blocked.clone()));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut tip = String::new();
    bluetooth.tooltip(&mut Plain(&mut tip), &input);
    assert_eq!(tip, "rfkill");
    // Unblocked, powered off: `off` again; without format-disabled, `format`.
    blocked.update(HCI0, ADAPTER, &power_state("off"));
    assert_eq!(text(bluetooth.as_ref(), Some(blocked.clone())).0, "BT off");
    blocked.update(HCI0, ADAPTER, &power_state("off-blocked"));
    assert_eq!(text(module("").as_ref(), Some(blocked)).0, "BT disabled");
}
