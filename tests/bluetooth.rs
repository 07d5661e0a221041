//! The bluetooth module against BlueZ's D-Bus API. This machine has no Bluetooth
//! controller (no hci_vhci), so a stand-in (tests/bluetooth/bluez.py) serves BlueZ's
//! documented interfaces on a real dbus-daemon, which the bar takes for the system bus:
//! an adapter, a device with a battery, their changes by signals, a click that powers
//! the adapter off, and bluetoothd going away and coming back.

mod common;

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{ChildStdout, Command, Stdio};
use std::time::Duration;

use common::bus::{bus_address, start_session_bus, Helper};
use common::session::{Compositor, RunningBar, Session};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

/// The stand-in, as the test user on the test bus; what it prints (`ready`, `powered
/// false`) comes through `out`.
fn start_bluez(session: &Session) -> (Helper, BufReader<ChildStdout>) {
    let from = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bluetooth/bluez.py");
    let script = session.path().join("bluez.py");
    fs::copy(from, &script).expect("copy the stand-in");
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut child = session
        .as_user("/usr/bin/python3")
        .arg(&script)
        .arg(bus_address(session))
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python3 (python3-gi)");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("the stand-in's first line");
    assert_eq!(line.trim(), "ready");
    (Helper(child), out)
}

/// A method of the stand-in's test interface, with `gdbus` (libglib2.0-bin).
fn drive(session: &Session, method: &str, args: &[&str]) {
    let address = bus_address(session);
    let status = session
        .as_user("gdbus")
        .args(["call", "--address", &address, "--dest", "org.bluez"])
        .args(["--object-path", "/test", "--method"])
        .arg(format!("org.ringbar.Test.{method}"))
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("run gdbus");
    assert!(status.success(), "{method} {args:?}");
}

fn start_bar(session: &Session) -> RunningBar {
    session.write_config_file(
        "config.toml",
        "interval_ms = 500\nmodules_left = []\nmodules_center = []\nmodules_right = [\"bluetooth\"]\n\
         [bluetooth]\nformat-connected-battery = \"BT {device_alias} {device_battery_percentage}%\"\n",
    );
    let address = bus_address(session);
    session.start_bar(&[("DBUS_SYSTEM_BUS_ADDRESS", address.as_str())])
}

fn has_class(bar: &RunningBar, class: &str) -> bool {
    bar.field("bluetooth.classes")
        .split(',')
        .any(|c| c == class)
}

#[test]
fn power_devices_batteries_and_bluez_restarts() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut bar = start_bar(&session);
    bar.wait_for_log("bluetooth: BlueZ (org.bluez) is not on the system bus");
    assert_ne!(
        bar.field("bluetooth.visible"),
        "true",
        "hidden without BlueZ"
    );

    let (mut bluez, mut said) = start_bluez(&session);
    let label = || bar.field("bluetooth");
    wait_for("the adapter, on", WAIT, || {
        label() == "BT on" && has_class(&bar, "on")
    });
    bar.wait_for_log("bluetooth: BlueZ is back");
    drive(&session, "Connect", &["true"]);
    wait_for("the buds, connected", WAIT, || {
        label() == "BT Buds 80%" && has_class(&bar, "connected")
    });
    drive(&session, "SetBattery", &["35"]);
    wait_for("their battery", WAIT, || label() == "BT Buds 35%");
    // A name as a device sends it: control characters go, markup stays text.
    drive(&session, "SetAlias", &["'<b>x\u{7}y'"]);
    wait_for("the odd name as text", WAIT, || label() == "BT <b>xy 35%");

    // A click on the module powers the adapter off, and BlueZ says so.
    let mut pointer = bar.point_at(&session, "bluetooth");
    pointer.click("left");
    let mut line = String::new();
    said.read_line(&mut line).expect("the stand-in's answer");
    assert_eq!(line.trim(), "powered false");
    wait_for("off", WAIT, || {
        label() == "BT off" && has_class(&bar, "off")
    });

    // A bluetoothd that stops answering (SIGSTOP): the click's call times out, and the
    // main loop never waits for it.
    let window = common::stalls::Window::open(&session.hook_dir());
    let stopped = bluez.0.id().to_string();
    assert!(Command::new("kill")
        .args(["-STOP", &stopped])
        .status()
        .expect("kill")
        .success());
    pointer.click("left");
    std::thread::sleep(Duration::from_secs(4));
    window.assert_on_time("the stopped BlueZ");
    assert!(Command::new("kill")
        .args(["-CONT", &stopped])
        .status()
        .expect("kill")
        .success());
    bar.wait_for_log("bluetooth: cannot power /org/bluez/hci0");

    // bluetoothd goes away: hidden; it comes back: read afresh.
    bluez.kill();
    wait_for("hidden without BlueZ", WAIT, || {
        bar.field("bluetooth.visible") == "false"
    });
    let (_bluez, _said) = start_bluez(&session);
    wait_for("back and on", WAIT, || label() == "BT on");
    bar.wait_for_log("bluetooth: BlueZ is back");
    drive(&session, "Connect", &["true"]);
    wait_for("connected again", WAIT, || label() == "BT Buds 80%");
    drive(&session, "RemoveDevice", &[]);
    wait_for("the device gone", WAIT, || label() == "BT on");
    drive(&session, "AddDevice", &[]);
    drive(&session, "Connect", &["true"]);
    wait_for("a device added and connected", WAIT, || {
        label() == "BT Buds 80%"
    });
    assert_eq!(
        bar.log_text()
            .matches("BlueZ (org.bluez) is not on the system bus")
            .count(),
        2,
        "said at start and once when it went: {}",
        bar.log_text()
    );
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks BlueZ once; without a bus, the module is hidden.
    let once = |bus: &str| session.once_json(&[("DBUS_SYSTEM_BUS_ADDRESS", bus)]);
    let doc = once(&bus_address(&session));
    assert_eq!(
        doc["modules"][0]["text"], "BT Buds 80%",
        "{}",
        doc["modules"]
    );
    assert_eq!(doc["modules"][0]["class"], "connected");
    let doc = once("unix:path=/nonexistent/bus");
    assert_eq!(doc["modules"][0]["visible"], false, "{}", doc["modules"]);
}
