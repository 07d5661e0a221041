//! The network module's texts, classes, formats, tooltip and clicks, over states as
//! rtnetlink gives them and rates as the reader takes them.

use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;

use super::*;
use crate::events::network::{Address, Change, DefaultRoute, Link};
use crate::modules::tests::input;
use crate::modules::Events;
use crate::sample::readings::Reading;
use crate::sample::Sample;
use crate::text::Plain;

pub(super) fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"network\"]\n[network]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

/// An ethernet card `enp3s0` with 192.168.1.10/24, a default route through it, and
/// `wlan0`, up without a carrier.
pub(super) fn wired() -> NetworkState {
    let mut state = NetworkState::default();
    let link = |index, name: &str, wireless, carrier| Link {
        index,
        name: name.to_owned(),
        up: true,
        carrier,
        loopback: false,
        wireless,
    };
    state.apply(Change::Link(link(2, "enp3s0", false, true)));
    state.apply(Change::Link(link(3, "wlan0", true, false)));
    state.apply(Change::Address(Address {
        index: 2,
        address: IpAddr::V4(Ipv4Addr::new(192, 168, 1, 10)),
        prefix: 24,
    }));
    state.apply(Change::Route(DefaultRoute {
        index: 2,
        gateway: Some(IpAddr::V4(Ipv4Addr::new(192, 168, 1, 1))),
        metric: 100,
        ipv6: false,
    }));
    state
}

pub(super) fn sample_with_rates(down: Option<f64>) -> Sample {
    let mut sample = Sample::default();
    let rates = InterfaceRates {
        name: "enp3s0".to_owned(),
        down,
        up: down.map(|d| d / 4.0),
        wifi: None,
    };
    sample
        .readings
        .insert("network", Box::new(Traffic(vec![rates])));
    sample
}

pub(super) fn text(
    module: &dyn Module,
    sample: &Sample,
    events: &Events,
) -> (String, Option<Status>) {
    let input = Input {
        events,
        ..input(sample)
    };
    let mut out = String::new();
    let status = module.text(&input, &mut out);
    (out, status)
}

#[test]
fn the_default_route_interface_with_its_rates() {
    let network = module("");
    let sample = sample_with_rates(Some(2.0 * 1024.0 * 1024.0));
    let events = Events::default().with(Some(wired()));
    let (out, status) = text(network.as_ref(), &sample, &events);
    assert_eq!(out, "NET enp3s0 2.0M/s↓ 512K/s↑");
    assert_eq!(status.and_then(|s| s.class), Some("ethernet"));
    // Until rtnetlink has answered, or without it: hidden.
    assert_eq!(
        text(network.as_ref(), &sample, &crate::modules::NO_EVENTS),
        (String::new(), None)
    );

    let mut tooltip = String::new();
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    network.tooltip(&mut Plain(&mut tooltip), &input);
    assert_eq!(
        tooltip,
        "Network  enp3s0 · ethernet\n  192.168.1.10/24 · via 192.168.1.1\n  down 2.0M/s · up 512K/s\n"
    );
}

#[test]
fn formats_by_connection_with_icons() {
    let network = module(
        "format = \"{icon} {ifname} {ipaddr}/{cidr} ({netmask}) via {gwaddr} {bandwidthDownBytes}\"\n\
         format-linked = \"{ifname} (no IP)\"\nformat-disconnected = \"offline\"\n\
         format-icons = { ethernet = \"E\", default = \"?\" }\n",
    );
    let sample = sample_with_rates(None);
    let mut state = wired();
    let events = |state: &NetworkState| Events::default().with(Some(state.clone()));
    let (out, _) = text(network.as_ref(), &sample, &events(&state));
    assert_eq!(
        out,
        "E enp3s0 192.168.1.10/24 (255.255.255.0) via 192.168.1.1 0B/s"
    );

    state.apply(Change::AddressGone(state.addresses[0].clone()));
    let (out, status) = text(network.as_ref(), &sample, &events(&state));
    assert_eq!(out, "enp3s0 (no IP)");
    assert_eq!(status.and_then(|s| s.class), Some("linked"));

    state.apply(Change::LinkGone(2));
    let (out, status) = text(network.as_ref(), &sample, &events(&state));
    assert_eq!(out, "offline");
    assert_eq!(status.and_then(|s| s.class), Some("disconnected"));
    let mut tooltip = String::new();
    let state = events(&state);
    let input = Input {
        events: &state,
        ..input(&sample)
    };
    network.tooltip(&mut Plain(&mut tooltip), &input);
    assert_eq!(tooltip, "Network  disconnected\n");
}

#[test]
fn an_interface_name_is_text_not_markup() {
    let network = module("");
    let mut state = wired();
    state.apply(Change::Link(Link {
        index: 2,
        name: "<b>&x".to_owned(),
        up: true,
        carrier: true,
        loopback: false,
        wireless: false,
    }));
    let sample = Sample::default();
    let events = Events::default().with(Some(state));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut tooltip = String::new();
    network.tooltip(&mut crate::text::Markup(&mut tooltip), &input);
    assert!(tooltip.contains("&lt;b&gt;&amp;x · ethernet"), "{tooltip}");
    let (out, _) = text(network.as_ref(), &sample, &events);
    assert_eq!(
        out, "NET <b>&x 0B/s↓ 0B/s↑",
        "plain text; the sinks escape it"
    );
}

#[test]
fn clicks_run_the_configured_commands_and_bad_settings_are_refused() {
    let network = module("on-click-right = \"nm-connection-editor\"\n");
    assert_eq!(network.action(Button::Left), None);
    assert_eq!(
        network.action(Button::Right),
        Some(Action::Run(Button::Right))
    );
    assert_eq!(network.command(Button::Right), Some("nm-connection-editor"));
    assert!(
        network.follows().contains(&Update::Sample)
            && network
                .follows()
                .contains(&Update::Event(EventSource::of::<NetworkState>()))
    );
    assert!(!network.follows().contains(&Update::Compositor));
    for bad in [
        "format = \"{ssid}\"",
        "colour = 1",
        "format-wifi = \"{ipadr}\"",
    ] {
        let text = format!("modules_right = [\"network\"]\n[network]\n{bad}\n");
        let err = crate::config::parse(&text, Path::new("c.toml")).err();
        assert!(err.is_some(), "{bad} is refused");
    }
}

/// `wlan0` (index 3) associated, with 10.0.0.5/24 and the default route; its reading
/// has `wifi` as nl80211 would give it.
fn wireless(wifi: Option<Wifi>) -> (Events, Sample) {
    let mut state = wired();
    state.apply(Change::LinkGone(2));
    state.apply(Change::Link(Link {
        index: 3,
        name: "wlan0".to_owned(),
        up: true,
        carrier: true,
        loopback: false,
        wireless: true,
    }));
    state.apply(Change::Address(Address {
        index: 3,
        address: IpAddr::V4(Ipv4Addr::new(10, 0, 0, 5)),
        prefix: 24,
    }));
    state.apply(Change::Route(DefaultRoute {
        index: 3,
        gateway: None,
        metric: 600,
        ipv6: false,
    }));
    let mut sample = Sample::default();
    let rates = InterfaceRates {
        name: "wlan0".to_owned(),
        down: Some(1024.0),
        up: Some(0.0),
        wifi,
    };
    sample
        .readings
        .insert("network", Box::new(Traffic(vec![rates])));
    let events = Events::default().with(Some(state));
    (events, sample)
}

fn home(ssid: &str, dbm: i8) -> Wifi {
    Wifi {
        ssid: ssid.to_owned(),
        signal_dbm: Some(dbm),
        frequency_mhz: Some(2412),
    }
}

#[test]
fn wifi_shows_its_network_and_signal() {
    let network = module("");
    let (events, sample) = wireless(Some(home("home net", -62)));
    let (out, status) = text(network.as_ref(), &sample, &events);
    assert_eq!(out, "NET home net 76% 1.0K/s↓ 0B/s↑");
    assert_eq!(status.and_then(|s| s.class), Some("wifi"));

    let mut tooltip = String::new();
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    network.tooltip(&mut Plain(&mut tooltip), &input);
    assert_eq!(
        tooltip,
        "Network  wlan0 · wifi\n  home net · -62 dBm (76 %) · 2412 MHz\n  10.0.0.5/24\n  down 1.0K/s · up 0B/s\n"
    );

    // Before nl80211 has answered (or without it): the interface, as for a cable.
    let (events, sample) = wireless(None);
    let (out, status) = text(network.as_ref(), &sample, &events);
    assert_eq!(out, "NET wlan0 1.0K/s↓ 0B/s↑");
    assert_eq!(status.and_then(|s| s.class), Some("wifi"));
    // Not associated (yet): no network to name.
    let (events, sample) = wireless(Some(Wifi::default()));
    assert_eq!(
        text(network.as_ref(), &sample, &events).0,
        "NET wlan0 1.0K/s↓ 0B/s↑"
    );
}

#[test]
fn wifi_formats_and_icons_follow_the_signal() {
    let network = module(
        "format = \"{ifname}\"\nformat-wifi = \"{icon} {essid} {signaldBm} dBm {frequency} GHz\"\n\
         format-icons = [\"weak\", \"fair\", \"good\", \"strong\"]\n",
    );
    for (dbm, icon) in [(-95, "weak"), (-80, "fair"), (-65, "good"), (-40, "strong")] {
        let (events, sample) = wireless(Some(home("cafe", dbm)));
        let (out, _) = text(network.as_ref(), &sample, &events);
        assert_eq!(out, format!("{icon} cafe {dbm} dBm 2.4 GHz"));
    }
    // `format` alone stands for Wi-Fi too, as in Waybar.
    let network = module("format = \"{ifname}: {essid}\"\n");
    let (events, sample) = wireless(Some(home("cafe", -50)));
    assert_eq!(text(network.as_ref(), &sample, &events).0, "wlan0: cafe");
}

#[test]
fn an_ssid_is_text_not_markup_and_never_breaks_a_line() {
    let network = module("");
    let (events, sample) = wireless(Some(home("<i>x\n\u{7}&", -50)));
    let (out, _) = text(network.as_ref(), &sample, &events);
    assert_eq!(out, "NET <i>x??& 100% 1.0K/s↓ 0B/s↑");
    let mut tooltip = String::new();
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    network.tooltip(&mut crate::text::Markup(&mut tooltip), &input);
    assert!(
        tooltip.contains("\n  &lt;i&gt;x??&amp; · -50 dBm (100 %)"),
        "{tooltip}"
    );
}

#[test]
fn the_signal_scale_and_the_json() {
    let percent = |dbm| home("x", dbm).signal_percent();
    assert_eq!(percent(-120), Some(0));
    assert_eq!(percent(-100), Some(0));
    assert_eq!(percent(-75), Some(50));
    assert_eq!(percent(-50), Some(100));
    assert_eq!(percent(-20), Some(100));
    assert_eq!(Wifi::default().signal_percent(), None);

    let (_, sample) = wireless(Some(home("home", -62)));
    let json = sample
        .readings
        .get::<Traffic>("network")
        .expect("reading")
        .json();
    let wifi = &json["interfaces"][0]["wifi"];
    assert_eq!(wifi["ssid"], "home");
    assert_eq!(wifi["signal_dbm"], -62);
    assert_eq!(wifi["signal_percent"], 76);
    assert_eq!(wifi["frequency_mhz"], 2412);
    let (_, sample) = wireless(Some(Wifi::default()));
    let json = sample
        .readings
        .get::<Traffic>("network")
        .expect("reading")
        .json();
    assert_eq!(
        json["interfaces"][0]["wifi"]["ssid"],
        serde_json::Value::Null
    );
    let (_, sample) = wireless(None);
    let json = sample
        .readings
        .get::<Traffic>("network")
        .expect("reading")
        .json();
    assert_eq!(json["interfaces"][0]["wifi"], serde_json::Value::Null);
}

#[test]
fn waybars_tooltip_formats_by_connection_alt_format_and_bit_rates() {
    let network = module(
        "tooltip-format = \"<b>{ifname}</b> via {gwaddr}\"\n\
         tooltip-format-wifi = \"{essid} ({signalStrength}%) {bandwidthDownBits}\"\n\
         format-alt = \"{ipaddr}/{cidr} {bandwidthTotalBytes}\"\n",
    );
    let tooltip = |events: &Events, sample: &Sample| {
        let input = Input {
            events,
            ..input(sample)
        };
        let mut out = String::new();
        network.tooltip(&mut crate::text::Markup(&mut out), &input);
        out
    };
    let sample = sample_with_rates(Some(1000.0));
    let events = Events::default().with(Some(wired()));
    assert_eq!(tooltip(&events, &sample), "<b>enp3s0</b> via 192.168.1.1");
    let (events_wifi, sample_wifi) = wireless(Some(home("<cafe> & co", -50)));
    assert_eq!(
        tooltip(&events_wifi, &sample_wifi),
        "&lt;cafe&gt; &amp; co (100%) 8.2kb/s",
        "the network's name escaped in the markup"
    );
    // A left click shows format-alt and back.
    assert_eq!(network.action(Button::Left), Some(Action::Redraw));
    let (out, _) = text(network.as_ref(), &sample, &events);
    assert_eq!(out, "192.168.1.10/24 1.2K/s");
    network.action(Button::Left);
    let (out, _) = text(network.as_ref(), &sample, &events);
    assert!(out.starts_with("NET enp3s0"), "{out}");
    // tooltip = false: none; a bad tooltip format is refused when the config is read.
    let silent = module("tooltip = false\ntooltip-format = \"{ifname}\"");
    let mut out = String::new();
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    silent.tooltip(&mut crate::text::Markup(&mut out), &input);
    assert!(out.is_empty(), "{out}");
    for bad in [
        "tooltip-format = \"<b>{ifname}\"",
        "tooltip-format-linked = \"{essids}\"",
    ] {
        let toml = format!("modules_right = [\"network\"]\n[network]\n{bad}\n");
        assert!(
            crate::config::parse(&toml, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}
