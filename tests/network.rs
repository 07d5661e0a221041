//! The network module against real interfaces: a veth pair whose inner end sits in a
//! network namespace with an address and a default route, real TCP traffic from iperf3
//! counted by iperf3 itself, and links, addresses and routes changed with `ip` while the
//! bar runs in that namespace on a real (headless) sway.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::netns::Netns;
use common::session::{Compositor, Session};
use common::{require_root, serial, wait_for};
use serde_json::Value as Json;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

/// `ringbar ARGS` in the namespace, with a config of the network module alone.
fn ringbar_in(netns: &Netns, args: &[&str]) -> Json {
    let home = tempfile::tempdir().expect("home");
    let dir = home.path().join(".config/ringbar");
    std::fs::create_dir_all(&dir).expect("config dir");
    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"network\"]\n";
    std::fs::write(dir.join("config.toml"), config).expect("config");
    let out = netns
        .exec(RINGBAR)
        .args(args)
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("XDG_STATE_HOME")
        .output()
        .expect("run ringbar");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Waits until a socket listens on TCP `port` here (`/proc/net/tcp6`, `/proc/net/tcp`:
/// state `0A`), so the client never starts before the server.
fn wait_listening(port: &str) {
    let hex = format!(":{:04X}", port.parse::<u16>().expect("a port"));
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let listening = ["/proc/net/tcp", "/proc/net/tcp6"].iter().any(|table| {
            let text = std::fs::read_to_string(table).unwrap_or_default();
            text.lines().any(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                fields.len() > 3 && fields[1].ends_with(&hex) && fields[3] == "0A"
            })
        });
        if listening {
            return;
        }
        assert!(Instant::now() < deadline, "iperf3 listens on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// TCP at 40 Mbit/s for 8 s from the namespace (`reverse`: to it); meanwhile ringbar
/// samples 3 s of it. (iperf3's bytes per second, the bar's rate of the inner end.)
fn measure(netns: &Netns, reverse: bool, port: &str) -> (f64, f64) {
    let mut server = Command::new("iperf3")
        .args(["-s", "-1", "-B", &netns.host_address(32), "-p", port])
        .stdout(Stdio::null())
        .spawn()
        .expect("iperf3 (Debian package iperf3)");
    wait_listening(port);
    let mut client = netns.exec("iperf3");
    client.args([
        "-c",
        &netns.host_address(32),
        "-p",
        port,
        "-t",
        "8",
        "-b",
        "40M",
        "-J",
    ]);
    if reverse {
        client.arg("-R");
    }
    let client = client
        .stdout(Stdio::piped())
        .spawn()
        .expect("iperf3 client");
    std::thread::sleep(Duration::from_secs(2));
    let doc = ringbar_in(netns, &["--once", "--json", "--interval-ms", "3000"]);
    let report = client.wait_with_output().expect("iperf3 ran");
    // The one-shot server ends with its one test; it is not waited for without end
    // should the client never have reached it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = server.kill();
    let _ = server.wait();
    let report: Json = serde_json::from_slice(&report.stdout).expect("iperf3 JSON");
    let sum = if reverse {
        &report["end"]["sum_received"]
    } else {
        &report["end"]["sum_sent"]
    };
    let counted = sum["bytes"].as_f64().expect("bytes") / sum["seconds"].as_f64().expect("s");
    let interfaces = doc["network"]["interfaces"].as_array().expect("interfaces");
    let inner = interfaces
        .iter()
        .find(|i| i["name"] == netns.inner.as_str())
        .expect("the inner end");
    let key = if reverse {
        "receive_bytes_per_second"
    } else {
        "transmit_bytes_per_second"
    };
    // The processes behind the traffic: both ends are iperf3, each at the rate iperf3
    // counted (its payload; the probe counts what the sockets moved).
    let top = doc["network"]["top"].as_array().expect("network.top");
    let iperf3: Vec<f64> = top
        .iter()
        .filter(|row| row["name"] == "iperf3")
        .map(|row| {
            let rate = |key: &str| row[key].as_f64().expect("a rate");
            rate("sent_bytes_per_second").max(rate("received_bytes_per_second"))
        })
        .collect();
    assert_eq!(iperf3.len(), 2, "both ends in network.top: {top:?}");
    for rate in iperf3 {
        let error = (rate - counted) / counted;
        assert!(
            error.abs() < 0.10,
            "iperf3 counted {counted:.0} B/s, its row {rate:.0}"
        );
    }
    let module = &doc["modules"][0];
    assert_eq!(module["class"], "ethernet", "{module}");
    let text = module["text"].as_str().expect("text");
    assert!(text.starts_with(&format!("NET {} ", netns.inner)), "{text}");
    (counted, inner[key].as_f64().expect("a rate"))
}

#[test]
fn rates_match_what_iperf3_counted_both_ways() {
    let _serial = serial();
    require_root();
    let netns = Netns::new();
    for reverse in [false, true] {
        let port = if reverse { "5212" } else { "5211" };
        let (counted, shown) = measure(&netns, reverse, port);
        // The interface counts the TCP/IP and Ethernet headers too (about 5 %).
        let error = (shown - counted) / counted;
        assert!(
            error.abs() < 0.10,
            "reverse {reverse}: iperf3 counted {counted:.0} B/s, the bar {shown:.0} B/s"
        );
        eprintln!(
            "reverse {reverse}: iperf3 {counted:.0} B/s, ringbar {shown:.0} B/s ({:+.1} %)",
            error * 100.0
        );
    }
}

/// Waits for the network label to become `text`; how long it took.
fn shown_within(bar: &common::session::RunningBar, text: &str, class: &str) -> Duration {
    let started = Instant::now();
    wait_for(
        &format!("the label {text:?}"),
        Duration::from_secs(10),
        || bar.field("network") == text && bar.field("network.classes").contains(class),
    );
    started.elapsed()
}

#[test]
fn links_addresses_and_routes_show_within_a_second() {
    let _serial = serial();
    require_root();
    let netns = Netns::new();
    let session = Session::start(Compositor::Sway);
    // A slow sample tick: what shows within a second comes from rtnetlink's events.
    session.write_config_file(
        "config.toml",
        "interval_ms = 2000\nmodules_left = []\nmodules_center = []\nmodules_right = [\"network\"]\n[network]\nformat = \"NET {ifname} {ipaddr}\"\n",
    );
    let mut bar = session.start_bar_in_netns(&netns.name);
    let wired = format!("NET {} {}", netns.inner, netns.inner_address(32));
    let linked = format!("NET {} linked", netns.inner);
    shown_within(&bar, &wired, "ethernet");

    let mut steps: Vec<(&str, Duration)> = Vec::new();
    netns.ip(&["link", "set", &netns.inner, "down"]);
    steps.push(("link down", shown_within(&bar, "NET off", "disconnected")));
    netns.ip(&["link", "set", &netns.inner, "up"]);
    // The kernel dropped the default route with the link: up, but linked.
    steps.push(("link up", shown_within(&bar, &linked, "linked")));
    netns.add_default_route();
    steps.push(("route added", shown_within(&bar, &wired, "ethernet")));
    netns.ip(&["addr", "del", &netns.inner_address(24), "dev", &netns.inner]);
    steps.push(("address removed", shown_within(&bar, &linked, "linked")));
    netns.ip(&["addr", "add", "10.77.250.9/24", "dev", &netns.inner]);
    netns.ip(&["route", "add", "default", "via", "10.77.250.1"]);
    let renumbered = format!("NET {} 10.77.250.9", netns.inner);
    steps.push(("address added", shown_within(&bar, &renumbered, "ethernet")));
    // A flood of 400 address changes at once: the bar takes them all and stays right.
    let batch: String = (0..200)
        .flat_map(|n| {
            let address = format!("10.99.{}.{}/32", n / 200, n % 200 + 1);
            [
                format!("address add {address} dev {}\n", netns.inner),
                format!("address del {address} dev {}\n", netns.inner),
            ]
        })
        .collect();
    let file = tempfile::NamedTempFile::new().expect("batch file");
    std::fs::write(file.path(), batch).expect("batch");
    netns.ip(&["-batch", file.path().to_str().expect("path")]);
    netns.ip(&["addr", "add", "10.99.7.7/32", "dev", &netns.inner]);
    netns.ip(&["addr", "del", "10.77.250.9/24", "dev", &netns.inner]);
    netns.ip(&["route", "replace", "default", "dev", &netns.inner]);
    let flooded = format!("NET {} 10.99.7.7", netns.inner);
    steps.push(("after a flood", shown_within(&bar, &flooded, "ethernet")));
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    for (step, took) in &steps {
        eprintln!("{step}: shown after {took:?}");
        assert!(*took < Duration::from_secs(1), "{step} took {took:?}");
    }
    bar.stop();
}

/// Waybar's `disabled`: nothing connected while rfkill blocks the Wi-Fi radio. The
/// namespace's only link is down; sysfs is a fake one whose `class/rfkill/rfkill0` is a
/// Wi-Fi switch in the kernel's layout (Documentation/ABI/stable/sysfs-class-rfkill),
/// blocked or not (this machine's kernel has no rfkill of its own).
#[test]
fn a_blocked_wifi_radio_shows_disabled_and_a_free_one_disconnected() {
    let _serial = serial();
    require_root();
    let netns = Netns::new();
    netns.ip(&["link", "set", &netns.inner, "down"]);
    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"network\"]\n\
                  [network]\nformat-disconnected = \"off\"\nformat-disabled = \"airplane\"\n";
    for (soft, text, class) in [("1", "airplane", "disabled"), ("0", "off", "disconnected")] {
        let build = |sys: &std::path::Path| {
            let radio = sys.join("class/rfkill/rfkill0");
            std::fs::create_dir_all(&radio).expect("mkdir");
            for (file, value) in [
                ("type", "wlan"),
                ("name", "phy0"),
                ("soft", soft),
                ("hard", "0"),
                ("state", if soft == "1" { "0" } else { "1" }),
            ] {
                std::fs::write(radio.join(file), format!("{value}\n")).expect("write");
            }
        };
        let (command, home) = common::fake_sys::ringbar_on(build, &["--once", "--json"]);
        let file = home.path().join(".config/ringbar/config.toml");
        std::fs::create_dir_all(file.parent().expect("dir")).expect("mkdir");
        std::fs::write(&file, config).expect("config");
        let mut in_netns = netns.exec(command.get_program().to_str().expect("unshare"));
        in_netns.args(command.get_args());
        for (key, value) in command.get_envs() {
            match value {
                Some(value) => in_netns.env(key, value),
                None => in_netns.env_remove(key),
            };
        }
        let out = in_netns.output().expect("run ringbar");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let doc: Json = serde_json::from_slice(&out.stdout).expect("JSON");
        let network = doc["modules"]
            .as_array()
            .and_then(|modules| modules.iter().find(|m| m["name"] == "network"))
            .unwrap_or_else(|| panic!("{doc}"));
        assert_eq!(network["text"], text, "soft {soft}: {network}");
        assert_eq!(network["class"], class, "soft {soft}: {network}");
    }
}
