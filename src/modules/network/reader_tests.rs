//! The network reader on a fake /proc/net/dev: rates from the counters' deltas,
//! interfaces that come and go, a counter reset, and a file that vanishes.

use super::reader::TrafficReader;
use super::*;
use crate::sample::readings::{value_mut, Reader, Reading, Roots};
use crate::sensors::fixtures::write;

const HEADER: &str = "Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n";

fn dev(lines: &[(&str, u64, u64)]) -> String {
    let mut text = HEADER.to_owned();
    for (name, received, transmitted) in lines {
        text.push_str(&format!(
            "{name:>6}: {received} 10 0 0 0 0 0 0 {transmitted} 10 0 0 0 0 0 0\n"
        ));
    }
    text
}

#[test]
fn rates_follow_the_counters() {
    let dir = tempfile::tempdir().expect("tempdir");
    let roots = Roots {
        sys: dir.path().join("sys"),
        proc: dir.path().join("proc"),
    };
    write(
        &roots.proc,
        "net/dev",
        &dev(&[("lo", 100, 100), ("eth0", 1000, 500)]),
    );
    let mut reader = TrafficReader::new("network", &roots);
    assert_eq!(reader.key(), "network");
    let mut reading = reader.empty();
    let mut read = |now_ns: u64| -> Traffic {
        reader.read(now_ns, reading.as_mut());
        value_mut::<Traffic>(reading.as_mut())
            .expect("traffic")
            .clone()
    };
    let first = read(1_000_000_000);
    assert_eq!(first.of("eth0").map(|r| (r.down, r.up)), Some((None, None)));

    // 2 s later: 4000 B in, 1000 B out on eth0; wlan0 appears.
    write(
        &roots.proc,
        "net/dev",
        &dev(&[("lo", 100, 100), ("eth0", 5000, 1500), ("wlan0", 7, 7)]),
    );
    let second = read(3_000_000_000);
    assert_eq!(
        second.of("eth0").map(|r| (r.down, r.up)),
        Some((Some(2000.0), Some(500.0)))
    );
    assert_eq!(second.of("lo").and_then(|r| r.down), Some(0.0));
    assert_eq!(
        second.of("wlan0").and_then(|r| r.down),
        None,
        "new: no rate yet"
    );

    // eth0 goes away and comes back with its counters reset: no rate, never negative.
    write(&roots.proc, "net/dev", &dev(&[("wlan0", 1007, 7)]));
    let third = read(4_000_000_000);
    assert!(third.of("eth0").is_none());
    assert_eq!(third.of("wlan0").and_then(|r| r.down), Some(1000.0));
    write(
        &roots.proc,
        "net/dev",
        &dev(&[("wlan0", 5, 7), ("eth0", 10, 10)]),
    );
    let fourth = read(5_000_000_000);
    assert_eq!(fourth.of("wlan0").and_then(|r| r.down), None, "reset");
    assert_eq!(fourth.of("eth0").and_then(|r| r.down), None, "back, anew");
    assert_eq!(fourth.0.len(), 2);

    let json = fourth.json();
    assert_eq!(json["interfaces"][1]["name"], "eth0");
    assert_eq!(
        json["interfaces"][0]["receive_bytes_per_second"],
        serde_json::Value::Null
    );
}

#[test]
fn without_the_file_there_are_no_rates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let roots = Roots {
        sys: dir.path().to_owned(),
        proc: dir.path().to_owned(),
    };
    let mut reader = TrafficReader::new("network", &roots);
    let mut reading = reader.empty();
    reader.read(1, reading.as_mut());
    reader.read(2, reading.as_mut());
    assert_eq!(
        value_mut::<Traffic>(reading.as_mut()),
        Some(&mut Traffic::default())
    );
}

/// One netlink attribute as the kernel lays it out: length, type, value, padding to 4.
fn nla(kind: u16, value: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&((4 + value.len()) as u16).to_ne_bytes());
    bytes.extend_from_slice(&kind.to_ne_bytes());
    bytes.extend_from_slice(value);
    bytes.resize((bytes.len() + 3) & !3, 0);
    bytes
}

#[test]
fn nl80211_answers_are_read_in_place() {
    use super::nl80211::{interface, station_signal};
    // GET_INTERFACE of a station: IFINDEX 3, IFNAME, IFTYPE 2, WIPHY_FREQ, SSID (not
    // UTF-8, with `<`).
    let mut answer = nla(3, &3u32.to_ne_bytes());
    answer.extend(nla(4, b"wlan0\0"));
    answer.extend(nla(5, &2u32.to_ne_bytes()));
    answer.extend(nla(38, &5180u32.to_ne_bytes()));
    answer.extend(nla(52, b"caf\xe9<"));
    let mut wifi = Wifi::default();
    assert!(interface(&answer, &mut wifi), "a station");
    assert_eq!(wifi.ssid, "caf\u{fffd}<");
    assert_eq!(wifi.frequency_mhz, Some(5180));

    // An access point's own interface (IFTYPE 3), not associated: no SSID.
    let answer = nla(5, &3u32.to_ne_bytes());
    let mut wifi = Wifi::default();
    assert!(!interface(&answer, &mut wifi));
    assert!(!wifi.associated() && wifi.frequency_mhz.is_none());

    // GET_STATION: STA_INFO (nested) with SIGNAL -45 and SIGNAL_AVG -47: the average.
    let mut info = nla(7, &[(-45i8) as u8]);
    info.extend(nla(13, &[(-47i8) as u8]));
    let mut station = nla(6, &[2, 0, 0, 0, 1, 0]);
    station.extend(nla(21 | netlink_packet_core::NLA_F_NESTED, &info));
    assert_eq!(station_signal(&station), Some(-47));
    let only_last = nla(21, &nla(7, &[(-80i8) as u8]));
    assert_eq!(station_signal(&only_last), Some(-80));
    assert_eq!(station_signal(&nla(21, &[])), None);

    // A truncated attribute ends the walk instead of reading past the answer.
    let mut truncated = nla(38, &2412u32.to_ne_bytes());
    truncated.extend_from_slice(&[200, 0, 52, 0, b'x']);
    let mut wifi = Wifi::default();
    assert!(!interface(&truncated, &mut wifi));
    assert_eq!((wifi.ssid.as_str(), wifi.frequency_mhz), ("", Some(2412)));
}

#[test]
fn a_wifi_interface_is_asked_of_nl80211_and_its_rates_still_come() {
    // sysfs says `wlan0` is Wi-Fi. A kernel without cfg80211 (as on the CI machines)
    // gives no Wi-Fi view; one with it knows no interface 999999: no network either.
    let dir = tempfile::tempdir().expect("tempdir");
    let roots = Roots {
        sys: dir.path().join("sys"),
        proc: dir.path().join("proc"),
    };
    write(
        &roots.sys,
        "class/net/wlan0/uevent",
        "DEVTYPE=wlan\nINTERFACE=wlan0\n",
    );
    write(&roots.sys, "class/net/wlan0/ifindex", "999999\n");
    write(&roots.sys, "class/net/eth0/uevent", "INTERFACE=eth0\n");
    write(&roots.sys, "class/net/eth0/ifindex", "2\n");
    let mut reader = TrafficReader::new("network", &roots);
    let mut reading = reader.empty();
    for (tick, bytes) in [(1u64, 100u64), (2, 1100)] {
        write(
            &roots.proc,
            "net/dev",
            &dev(&[("eth0", bytes, 0), ("wlan0", bytes, 0)]),
        );
        reader.read(tick * 1_000_000_000, reading.as_mut());
    }
    let traffic = value_mut::<Traffic>(reading.as_mut()).expect("traffic");
    assert_eq!(traffic.of("eth0").and_then(|r| r.down), Some(1000.0));
    assert!(traffic.of("eth0").is_some_and(|r| r.wifi.is_none()));
    let wlan0 = traffic.of("wlan0").expect("wlan0");
    assert_eq!(wlan0.down, Some(1000.0));
    assert!(
        !wlan0.wifi.as_ref().is_some_and(Wifi::associated),
        "{wlan0:?}"
    );
}

#[test]
fn the_network_name_from_the_scan_results_of_the_access_point() {
    use super::nl80211::{scanned_ssid, station_address};
    let ap = [2, 0, 0, 0, 0, 0];
    let mut station = nla(6, &ap);
    station.extend(nla(21, &nla(7, &[(-30i8) as u8])));
    assert_eq!(station_address(&station), Some(ap));
    assert_eq!(station_address(&nla(6, &[1, 2])), None, "too short");

    // A scan result: BSS (nested) with BSSID, and elements: rates (1), then SSID (0).
    let bss = |bssid: &[u8], elements: &[u8]| {
        let mut inner = nla(1, bssid);
        inner.extend(nla(6, elements));
        nla(47, &inner)
    };
    let elements = [&[1u8, 2, 0x82, 0x84][..], &[0, 4], b"caf\xe9"].concat();
    assert_eq!(
        scanned_ssid(&bss(&ap, &elements), &ap).as_deref(),
        Some("caf\u{fffd}")
    );
    assert_eq!(
        scanned_ssid(&bss(&[9; 6], &elements), &ap),
        None,
        "another AP"
    );
    // An element that claims more bytes than there are: no name, no panic.
    assert_eq!(
        scanned_ssid(&bss(&ap, &[1, 2, 0x82, 0, 200, b'x']), &ap),
        None
    );
    assert_eq!(scanned_ssid(&bss(&ap, &[]), &ap), None);
}
