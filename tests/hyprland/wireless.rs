//! Real Wi-Fi and Bluetooth in the Hyprland VM, whose guest kernel (Debian sid's) has
//! the modules this machine's lacks: `mac80211_hwsim` radios with `hostapd` as the
//! access point and `wpa_supplicant` as the station, and `hci_vhci` controllers made by
//! `btvirt` for a real `bluetoothd` on the guest's own system bus. ringbar runs in the
//! guest as `--once --json` (the bar itself runs on the host): what it reports is
//! checked against what `iw` and `bluetoothctl` say.
//!
//! The Bluetooth peer is the second virtual controller, paired through bluetoothd with
//! an agent that says yes, and kept connected by an L2CAP channel (`l2test`); its
//! battery level comes from a battery provider (tests/bluetooth/battery_provider.py)
//! registered with bluetoothd, which is how BlueZ learns the level of a headset that
//! reports it through its own program.

use std::fs;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use crate::common::hyprland::{HyprlandVm, GUEST_SHARE};

/// An SSID with a `<` and a control byte: text, never markup, never a broken line.
const SSID_HEX: &str = "72696e673c62617201";
const SSID: &str = "ring<bar\u{1}";

/// Runs `check` in the guest until it succeeds, in steps (each guest command has
/// 60 s); false after `limit`.
fn guest_within(vm: &HyprlandVm, check: &str, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let step = format!("for i in $(seq 40); do {check} && echo done && break; sleep 0.5; done");
    while !vm.guest(&step).contains("done") {
        if Instant::now() >= deadline {
            return false;
        }
    }
    true
}

/// [`guest_within`], which panics with `what` after `limit`.
fn guest_until(vm: &HyprlandVm, what: &str, check: &str, limit: Duration) {
    assert!(
        guest_within(vm, check, limit),
        "{what}: not within {limit:?}"
    );
}

/// ringbar's `--once --json` in the guest with the config `toml`. The files it needs
/// and writes are flat files of the shared folder (the VM's start empties it, and takes
/// no folders there); its config folder is in the guest's /tmp.
fn once(vm: &HyprlandVm, test: &str, toml: &str) -> Json {
    fs::write(vm.shared(&format!("{test}.toml")), toml).expect("config");
    let (share, config) = (GUEST_SHARE, format!("/tmp/ringbar-{test}"));
    let out = vm.guest(&format!(
        "mkdir -p {config}/ringbar && cp {share}/{test}.toml {config}/ringbar/config.toml && \
         XDG_CONFIG_HOME={config} RINGBAR_LOG=info {share}/ringbar --once --json \
         --interval-ms 300 > {share}/{test}-once.json 2> {share}/{test}-once.log; echo exit $?"
    ));
    let text = fs::read_to_string(vm.shared(&format!("{test}-once.json"))).unwrap_or_default();
    let log = fs::read_to_string(vm.shared(&format!("{test}-once.log"))).unwrap_or_default();
    assert_eq!(out.trim(), "exit 0", "ringbar --once in the guest: {log}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}\n{log}"))
}

/// `field: value` from a tool's output (`signal: -30 dBm` gives `-30 dBm`).
fn field<'a>(output: &'a str, name: &str) -> Option<&'a str> {
    output
        .lines()
        .find_map(|line| line.trim().strip_prefix(name)?.strip_prefix(':'))
        .map(str::trim)
}

fn number(text: Option<&str>) -> Option<i64> {
    text?.split_whitespace().next()?.parse().ok()
}

pub fn wifi(vm: &HyprlandVm) {
    // Two radios: the first the access point, the second the station.
    let names = vm.guest(
        "modprobe mac80211_hwsim radios=2 && for i in $(seq 50); do \
         [ $(ls /sys/class/ieee80211 | wc -l) -ge 2 ] && break; sleep 0.2; done; \
         for p in /sys/class/ieee80211/*; do ls $p/device/net; done",
    );
    let radios: Vec<&str> = names.split_whitespace().collect();
    assert_eq!(radios.len(), 2, "two hwsim interfaces: {names:?}");
    let (ap, sta) = (radios[0], radios[1]);
    fs::write(
        vm.shared("hostapd.conf"),
        format!("interface={ap}\ndriver=nl80211\nssid2=P\"ring<bar\\x01\"\nhw_mode=g\nchannel=6\n"),
    )
    .expect("hostapd.conf");
    fs::write(
        vm.shared("wpa.conf"),
        format!(
            "ctrl_interface=/run/wpa_supplicant\nnetwork={{\n ssid={SSID_HEX}\n key_mgmt=NONE\n}}\n"
        ),
    )
    .expect("wpa.conf");
    let w = GUEST_SHARE;
    vm.guest(&format!(
        "ip link set {ap} up && hostapd -B -P /run/hostapd.pid -f {w}/hostapd.log {w}/hostapd.conf; \
         wpa_supplicant -B -D nl80211 -i {sta} -c {w}/wpa.conf -P /run/wpa.pid -f {w}/wpa.log"
    ));
    let connected = format!("iw dev {sta} link | grep -q 'Connected to'");
    guest_until(
        vm,
        "the station associates",
        &connected,
        Duration::from_secs(90),
    );
    vm.guest(&format!(
        "ip addr add 192.168.77.1/24 dev {ap}; ip addr add 192.168.77.2/24 dev {sta}; \
         ip route add default via 192.168.77.1 dev {sta} metric 50"
    ));
    let link = vm.guest(&format!("iw dev {sta} link"));
    // `freq: 2437.0`
    let frequency = field(&link, "freq")
        .and_then(|f| f.parse::<f64>().ok())
        .expect("iw's freq") as i64;
    let signal = number(field(&link, "signal")).expect("iw's signal");

    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"network\"]\n\
        [network]\nformat-wifi = \"W {essid}|{signaldBm}|{frequency}|{ifname}\"\n";
    let doc = once(vm, "wifi", config);
    let module = &doc["modules"][0];
    assert_eq!(module["class"], "wifi", "{module}");
    let ghz = format!("{:.1}", frequency as f64 / 1000.0);
    // The control byte is `?` in a label; the `<` stays text.
    assert_eq!(module["text"], format!("W ring<bar?|{signal}|{ghz}|{sta}"));
    let interfaces = doc["network"]["interfaces"].as_array().expect("interfaces");
    let of = |name: &str| interfaces.iter().find(|i| i["name"] == name).cloned();
    let station = of(sta).expect("the station's interface");
    assert_eq!(station["wifi"]["ssid"], SSID, "{station}");
    assert_eq!(station["wifi"]["frequency_mhz"], frequency);
    // iw shows the last frame's signal, ringbar the average: hwsim's is constant.
    assert_eq!(station["wifi"]["signal_dbm"], signal, "iw: {link}");
    eprintln!("Wi-Fi in the guest: {} ({link:?})", module["text"]);

    // The station leaves: no network to name, and the label no longer says Wi-Fi.
    vm.guest(&format!(
        "wpa_cli -p /run/wpa_supplicant -i {sta} disconnect"
    ));
    let gone = format!("iw dev {sta} link | grep -q 'Not connected'");
    guest_until(
        vm,
        "the station disconnects",
        &gone,
        Duration::from_secs(60),
    );
    let doc = once(vm, "wifi", config);
    assert_ne!(doc["modules"][0]["class"], "wifi", "{}", doc["modules"]);
    let interfaces = doc["network"]["interfaces"].as_array().expect("interfaces");
    let station = interfaces
        .iter()
        .find(|i| i["name"] == sta)
        .expect("station");
    assert_eq!(station["wifi"]["ssid"], Json::Null, "{station}");

    // And comes back.
    vm.guest(&format!(
        "wpa_cli -p /run/wpa_supplicant -i {sta} reconnect"
    ));
    guest_until(
        vm,
        "the station reassociates",
        &connected,
        Duration::from_secs(90),
    );
    let doc = once(vm, "wifi", config);
    assert_eq!(doc["modules"][0]["class"], "wifi", "{}", doc["modules"]);
    vm.guest("kill $(cat /run/wpa.pid) $(cat /run/hostapd.pid); rmmod mac80211_hwsim");
}

/// The peer: the second controller btvirt makes, named with a `<` to be shown as text.
const PEER: &str = "00:AA:01:01:00:01";
const PEER_PATH: &str = "/org/bluez/hci0/dev_00_AA_01_01_00_01";

pub fn bluetooth(vm: &HyprlandVm) {
    let provider = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/bluetooth/battery_provider.py"
    );
    fs::copy(provider, vm.shared("battery_provider.py")).expect("copy the battery provider");
    let b = GUEST_SHARE;
    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"bluetooth\"]\n\
        [bluetooth]\nformat-connected-battery = \"BT {device_alias} {device_battery_percentage}%\"\n";
    let module = |doc: &Json| doc["modules"][0].clone();
    let start_bluetoothd = format!(
        "setsid -f /usr/libexec/bluetooth/bluetoothd -n > {b}/bluetoothd.log 2>&1 < /dev/null"
    );
    // bluetoothctl may be slow to answer in the emulated guest.
    let two_controllers = "[ $(timeout 15 bluetoothctl list | grep -c Controller) -ge 2 ]";
    let state = format!(
        "ls /sys/class/bluetooth; timeout 15 bluetoothctl list; \
         pgrep -a 'bluetoothd|btvirt|dbus'; tail -n 15 {b}/btvirt.log {b}/bluetoothd.log"
    );

    // A system bus; two virtual controllers; then bluetoothd, which powers them on. A
    // controller is in sysfs before the kernel has set it up for bluetoothd, and CI saw
    // a bluetoothd started at once never take the first one, and then a scan that found
    // nothing: if bluetoothd lacks one, the state is printed and all is made anew once.
    vm.guest("modprobe hci_vhci; mkdir -p /run/dbus; dbus-daemon --system --fork");
    let kernel_has_two = "[ $(ls /sys/class/bluetooth | grep -c '^hci') -ge 2 ]";
    let bring_up = || {
        vm.guest(&format!(
            "pkill -x bluetoothd; pkill -x btvirt; \
             for i in $(seq 40); do [ -z \"$(ls /sys/class/bluetooth)\" ] && break; sleep 0.5; done; \
             rm -rf /var/lib/bluetooth/*; \
             setsid -f btvirt -l2 > {b}/btvirt.log 2>&1 < /dev/null"
        ));
        guest_until(
            vm,
            "btvirt's two controllers",
            kernel_has_two,
            Duration::from_secs(90),
        );
        vm.guest(&format!("sleep 3; {start_bluetoothd}"));
        guest_within(vm, two_controllers, Duration::from_secs(60))
    };
    if !bring_up() {
        eprintln!("bluetoothd lacks a controller: {}", vm.guest(&state));
        assert!(
            bring_up(),
            "bluetoothd has not both controllers: {}",
            vm.guest(&state)
        );
    }
    let doc = once(vm, "bt", config);
    assert_eq!(module(&doc)["text"], "BT on", "{}", doc["modules"]);
    assert_eq!(module(&doc)["class"], "on");

    // Both controllers powered off (the module shows the first powered one): bluetoothd
    // follows the kernel's management events.
    vm.guest("btmgmt --index 0 power off; btmgmt --index 1 power off");
    let powered = "timeout 5 bluetoothctl show | grep -q 'Powered: no'";
    guest_until(
        vm,
        "bluetoothd sees them off",
        powered,
        Duration::from_secs(30),
    );
    let doc = once(vm, "bt", config);
    assert_eq!(module(&doc)["class"], "off", "{}", doc["modules"]);
    assert_eq!(module(&doc)["text"], "BT off");
    // Powered on again, the first controller is lost to bluetoothd for good in the sid
    // guest (BlueZ 5.87; seen in four runs in a row, a restarted bluetoothd does not
    // take it either): the controllers are made anew instead.
    assert!(
        bring_up(),
        "bluetoothd has not both controllers again: {}",
        vm.guest(&state)
    );

    // The peer, named with markup, found, paired and connected.
    // Each step waits for what the next one needs (the agent registered, the peer found),
    // rather than for a fixed time that a slow emulated guest may not keep.
    vm.guest(&format!(
        "btmgmt --index 1 name 'Buds <i>' >/dev/null; \
         setsid -f sh -c '(echo default-agent; while :; do sleep 0.5; echo yes; done) | \
         bluetoothctl --agent NoInputNoOutput' > {b}/agent.log 2>&1 < /dev/null"
    ));
    let agent = format!("grep -aq 'Default agent request successful' {b}/agent.log");
    guest_until(vm, "the pairing agent", &agent, Duration::from_secs(30));
    vm.guest(
        "btmgmt --index 1 connectable on >/dev/null; btmgmt --index 1 discov on >/dev/null; \
         timeout 20 bluetoothctl --timeout 6 scan on > /dev/null",
    );
    let found = format!("timeout 15 bluetoothctl devices | grep -aq {PEER}");
    if !guest_within(vm, &found, Duration::from_secs(30)) {
        eprintln!("the scan missed the peer: {}", vm.guest(&state));
        vm.guest("timeout 40 bluetoothctl --timeout 20 scan on > /dev/null");
        guest_until(
            vm,
            "the peer found by a second scan",
            &found,
            Duration::from_secs(60),
        );
    }
    // The whole answer is kept, for the failure message.
    let pair = format!("timeout 40 bluetoothctl --timeout 30 pair {PEER} 2>&1 | tail -n 20");
    let mut paired = vm.guest(&pair);
    // CI once saw a pairing fail (with its answer filtered away, before the waits above):
    // scan again and retry, at most twice.
    for attempt in 1..=2 {
        if paired.contains("Pairing successful") {
            break;
        }
        eprintln!("pairing attempt {attempt} failed: scanning and pairing again");
        vm.guest("timeout 20 bluetoothctl --timeout 6 scan on > /dev/null");
        paired = vm.guest(&pair);
    }
    assert!(
        paired.contains("Pairing successful"),
        "pairing: {paired}; the agent's log: {}",
        vm.guest(&format!("cat {b}/agent.log"))
    );
    vm.guest(&format!(
        "setsid -f l2test -i hci1 -d -P 4113 > {b}/l2server.log 2>&1 < /dev/null; sleep 1; \
         setsid -f l2test -i hci0 -n -g 600000 -P 4113 {PEER} > {b}/l2client.log 2>&1 < /dev/null"
    ));
    let connected = format!("timeout 5 bluetoothctl info {PEER} | grep -q 'Connected: yes'");
    guest_until(vm, "the peer connects", &connected, Duration::from_secs(60));
    let doc = once(vm, "bt", config);
    assert_eq!(module(&doc)["class"], "connected", "{}", doc["modules"]);
    assert_eq!(module(&doc)["text"], "BT Buds <i>", "{}", doc["modules"]);

    // Its battery, as a provider reports it to bluetoothd.
    vm.guest(&format!(
        "setsid -f python3 {b}/battery_provider.py /org/bluez/hci0 {PEER_PATH} 80 \
         > {b}/provider.log 2>&1 < /dev/null"
    ));
    let battery = format!("timeout 5 bluetoothctl info {PEER} | grep -q 'Battery Percentage'");
    guest_until(
        vm,
        "bluetoothd shows the battery",
        &battery,
        Duration::from_secs(60),
    );
    let doc = once(vm, "bt", config);
    assert_eq!(
        module(&doc)["text"],
        "BT Buds <i> 80%",
        "{}",
        doc["modules"]
    );
    assert_eq!(module(&doc)["percentage"], 80.0);

    // The peer goes: no device to show.
    vm.guest("pkill l2test");
    let gone = format!("timeout 5 bluetoothctl info {PEER} | grep -q 'Connected: no'");
    guest_until(vm, "the peer disconnects", &gone, Duration::from_secs(60));
    let doc = once(vm, "bt", config);
    assert_eq!(module(&doc)["class"], "on", "{}", doc["modules"]);

    // bluetoothd stops: hidden; it starts again: shown as it says.
    vm.guest(
        "pkill -x bluetoothd; for i in $(seq 40); do pgrep -x bluetoothd || break; sleep 0.3; done",
    );
    let doc = once(vm, "bt", config);
    assert_eq!(module(&doc)["visible"], false, "{}", doc["modules"]);
    vm.guest(&start_bluetoothd);
    guest_until(
        vm,
        "bluetoothd is back",
        two_controllers,
        Duration::from_secs(60),
    );
    let doc = once(vm, "bt", config);
    assert_eq!(module(&doc)["class"], "on", "{}", doc["modules"]);
    vm.guest("pkill -f 'bluetoothctl --agent'; pkill -f battery_provider; pkill -x bluetoothd; pkill btvirt");
}
