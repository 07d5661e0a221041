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
