use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::*;

fn link(index: u32, name: &str, wireless: bool) -> Link {
    Link {
        index,
        name: name.to_owned(),
        up: true,
        carrier: true,
        loopback: false,
        wireless,
    }
}

fn v4(index: u32, last: u8) -> Address {
    Address {
        index,
        address: IpAddr::V4(Ipv4Addr::new(192, 168, 1, last)),
        prefix: 24,
    }
}

fn route(index: u32, metric: u32, ipv6: bool) -> DefaultRoute {
    DefaultRoute {
        index,
        gateway: Some(IpAddr::V4(Ipv4Addr::new(192, 168, 1, 1))),
        metric,
        ipv6,
    }
}

/// Loopback, an ethernet card and a Wi-Fi card, each with an address.
fn laptop() -> NetworkState {
    let mut state = NetworkState::default();
    let mut lo = link(1, "lo", false);
    lo.loopback = true;
    for change in [
        Change::Link(lo),
        Change::Link(link(2, "enp3s0", false)),
        Change::Link(link(3, "wlan0", true)),
        Change::Address(v4(2, 10)),
        Change::Address(v4(3, 20)),
    ] {
        state.apply(change);
    }
    state
}

#[test]
fn the_best_default_route_decides() {
    let mut state = laptop();
    assert_eq!(state.primary(None).connection, Connection::Linked);
    state.apply(Change::Route(route(3, 600, false)));
    let primary = state.primary(None);
    assert_eq!(primary.connection, Connection::Wifi);
    assert_eq!(primary.link.map(|l| l.name.as_str()), Some("wlan0"));
    // The cable's route has the lower metric: it wins; IPv6 only when there is no IPv4.
    state.apply(Change::Route(route(2, 100, false)));
    state.apply(Change::Route(route(3, 50, true)));
    let primary = state.primary(None);
    assert_eq!(primary.connection, Connection::Ethernet);
    assert_eq!(primary.route.map(|r| r.metric), Some(100));
    // Pinned to the Wi-Fi card, the module shows it whatever the metrics.
    assert_eq!(state.primary(Some("wlan0")).connection, Connection::Wifi);
    assert_eq!(state.primary(Some("wl*")).connection, Connection::Wifi);
    assert_eq!(state.primary(Some("*s0")).connection, Connection::Ethernet);
    assert_eq!(state.primary(Some("w*n*0")).connection, Connection::Wifi);
    assert_eq!(
        state.primary(Some("eth9")).connection,
        Connection::Disconnected
    );

    // The cable is pulled: no carrier, so the Wi-Fi route takes over.
    let mut unplugged = link(2, "enp3s0", false);
    unplugged.carrier = false;
    state.apply(Change::Link(unplugged));
    assert_eq!(state.primary(None).connection, Connection::Wifi);
}

#[test]
fn linked_without_an_address_and_disconnected_without_a_link() {
    let mut state = laptop();
    state.apply(Change::Route(route(2, 100, false)));
    state.apply(Change::AddressGone(v4(2, 10)));
    let primary = state.primary(None);
    assert_eq!(primary.connection, Connection::Linked, "up, no address");
    assert_eq!(state.addresses_of(2).count(), 0);

    state.apply(Change::RouteGone(route(2, 100, false)));
    state.apply(Change::LinkGone(2));
    state.apply(Change::LinkGone(3));
    assert_eq!(state.primary(None).connection, Connection::Disconnected);
    assert_eq!(state.primary(None).link, None);
    assert!(state.routes.is_empty() && state.addresses.iter().all(|a| a.index == 1));
}

#[test]
fn changes_replace_what_they_name_and_ipv4_lists_first() {
    let mut state = laptop();
    state.apply(Change::Address(v4(2, 10)));
    assert_eq!(state.addresses_of(2).count(), 1, "the same address once");
    let v6 = Address {
        index: 2,
        address: IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 5)),
        prefix: 64,
    };
    state.apply(Change::Address(v6.clone()));
    state.apply(Change::Address(v4(2, 11)));
    let listed: Vec<_> = state.addresses_of(2).map(|a| a.address).collect();
    assert_eq!(listed.len(), 3);
    assert!(listed[0].is_ipv4() && listed[1].is_ipv4() && listed[2].is_ipv6());

    state.apply(Change::Route(route(2, 100, false)));
    state.apply(Change::Route(route(2, 100, false)));
    assert_eq!(state.routes.len(), 1, "a route announced twice is one");
    // `ip route replace`: the new route in the place of the old, without a deletion.
    let mut replaced = route(3, 100, false);
    replaced.gateway = None;
    state.apply(Change::Route(replaced.clone()));
    assert_eq!(state.routes, [replaced]);
    state.apply(Change::Route(route(2, 100, false)));
    let mut renamed = link(2, "eth0", false);
    renamed.up = false;
    state.apply(Change::Link(renamed));
    assert_eq!(state.link(2).map(|l| l.name.as_str()), Some("eth0"));
    assert_eq!(state.primary(None).connection, Connection::Linked, "wlan0");
    assert!(state.routes.is_empty(), "a link set down loses its routes");
    assert_eq!(Connection::Linked.name(), "linked");
}

/// A sysfs root with rfkill switches as the kernel lays them out
/// (Documentation/ABI/stable/sysfs-class-rfkill): `type`, `soft` and `hard`.
fn rfkill_root(radios: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().expect("tempdir");
    for (index, (kind, soft, hard)) in radios.iter().enumerate() {
        let dir = root.path().join(format!("class/rfkill/rfkill{index}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        for (file, value) in [("type", kind), ("soft", soft), ("hard", hard)] {
            std::fs::write(dir.join(file), format!("{value}\n")).expect("write");
        }
    }
    root
}

#[test]
fn blocked_wifi_radios_are_read_from_sysfs() {
    let blocked = |radios: &[(&str, &str, &str)]| wifi_radios_blocked(rfkill_root(radios).path());
    assert!(!blocked(&[]), "no radio, nothing blocked");
    assert!(blocked(&[("wlan", "1", "0")]), "airplane mode");
    assert!(blocked(&[("wlan", "0", "1")]), "the hardware switch");
    assert!(!blocked(&[("wlan", "0", "0")]));
    assert!(!blocked(&[("bluetooth", "1", "1"), ("wlan", "0", "0")]));
    assert!(
        !blocked(&[("wlan", "1", "0"), ("wlan", "0", "0")]),
        "a second card still on"
    );
    assert!(blocked(&[("bluetooth", "0", "0"), ("wlan", "1", "1")]));
}

#[test]
fn disconnected_with_blocked_radios_is_disabled_unless_a_cable_was_asked_for() {
    let mut state = laptop();
    state.apply(Change::LinkGone(3));
    let mut unplugged = link(2, "enp3s0", false);
    unplugged.carrier = false;
    state.apply(Change::Link(unplugged));
    assert_eq!(state.primary(None).connection, Connection::Disconnected);
    state.wifi_blocked = true;
    assert_eq!(state.primary(None).connection, Connection::Disabled);
    assert_eq!(Connection::Disabled.name(), "disabled");
    assert_eq!(state.primary(Some("wl*")).connection, Connection::Disabled);
    assert_eq!(
        state.primary(Some("enp3s0")).connection,
        Connection::Disconnected,
        "a pulled cable is not airplane mode"
    );
}
