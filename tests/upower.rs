//! The upower module against the real upowerd (Debian's `upower`) on a private system
//! bus, over a fake sysfs: umockdev's testbed (`tests/upower/testbed.py`) gives upowerd
//! the kernel's power_supply devices and their uevents through umockdev's preload
//! library, as upower's own tests do. A laptop battery with markup in its model, a
//! mouse's battery, a headset plugged in later: hidden before upowerd starts, the
//! display device's percentage and state, the tooltip's other batteries, a click to the
//! alternative format, upowerd stopped (the main loop never waits; the state comes once
//! it answers again), killed and started again, and `--once --json`. The device's icon
//! (UPower's `IconName`) before the label, as Waybar draws it.

mod common;

use std::process::Command;
use std::time::Duration;

use common::bus::Helper;
use common::session::{Compositor, RunningBar, Session};
use common::system_bus::{self, SystemBus};
use common::upower::{start_upowerd, Testbed};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

fn signal(process: &Helper, name: &str) {
    let pid = process.0.id().to_string();
    let status = Command::new("kill").args([name, &pid]).status();
    assert!(status.expect("kill").success(), "kill {name} {pid}");
}

fn start_bar(session: &Session, bus: &SystemBus) -> RunningBar {
    session.write_config_file(
        "config.toml",
        "interval_ms = 500\nmodules_left = []\nmodules_center = []\nmodules_right = [\"memory\", \"upower\"]\n\
         [upower]\nformat-alt = \"{percentage} ({time})\"\n",
    );
    session.start_bar(&[("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())])
}

/// The icon upowerd names for the display device (its `IconName`), as the bar should
/// draw it: Waybar's `battery-missing-symbolic` where no installed theme has it.
fn expected_icon(bus: &SystemBus) -> String {
    let out = Command::new("gdbus")
        .args([
            "call",
            "--address",
            &bus.address,
            "--dest",
            "org.freedesktop.UPower",
        ])
        .args([
            "--object-path",
            "/org/freedesktop/UPower/devices/DisplayDevice",
        ])
        .args(["--method", "org.freedesktop.DBus.Properties.Get"])
        .args(["org.freedesktop.UPower.Device", "IconName"])
        .output()
        .expect("run gdbus (libglib2.0-bin)");
    let reply = String::from_utf8_lossy(&out.stdout);
    // `(<'battery-good-symbolic'>,)`
    let name = reply.split('\'').nth(1).unwrap_or_default().to_owned();
    let themed = ["Adwaita", "hicolor"].iter().any(|theme| {
        let found = Command::new("find")
            .arg(format!("/usr/share/icons/{theme}"))
            .args(["-name", &format!("{name}.*"), "-print", "-quit"])
            .output()
            .expect("run find");
        !name.is_empty() && !found.stdout.is_empty()
    });
    eprintln!("upowerd's icon: {name:?}, in a theme: {themed}");
    match themed {
        true => name,
        false => "battery-missing-symbolic".to_owned(),
    }
}

fn has_class(bar: &RunningBar, class: &str) -> bool {
    let classes = bar.field("upower.classes");
    classes.split(',').any(|c| c == class)
}

#[test]
fn the_module_follows_upowerd_and_its_devices() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let bus = system_bus::start(&session);
    let mut testbed = Testbed::start();
    // A laptop battery at 48 of 60 Wh, drawing 12 W; its AC adapter unplugged; a
    // mouse's battery (scope Device: it powers the mouse, not the machine).
    testbed.add_laptop("Lap<b>top</b>\\s&\\sco");
    testbed.send(
        "add hidpp_battery_0 type=Battery scope=Device present=1 online=1 \
         status=Discharging capacity=42 model_name=MX\\sMaster",
    );

    // The virtual pointer, made before the bar so that the bar's seat has it.
    drop(session.pointer());
    let mut bar = start_bar(&session, &bus);
    bar.wait_for_log("upower: UPower (org.freedesktop.UPower) is not on the system bus");
    assert_ne!(
        bar.field("upower.visible"),
        "true",
        "hidden without upowerd"
    );

    let mut upowerd = start_upowerd(&session, &bus, &testbed);
    let label = || bar.field("upower");
    wait_for("the display device", WAIT, || label() == "80%");
    assert!(
        has_class(&bar, "discharging"),
        "{}",
        bar.field("upower.classes")
    );
    // UPower's icon for the device's state before the label, as Waybar draws it.
    let icon = expected_icon(&bus);
    wait_for("upowerd's icon", WAIT, || bar.field("upower.icon") == icon);

    // The tooltip: the laptop's battery and the mouse's, the model's markup as text.
    wait_for("the module laid out", WAIT, || {
        let bounds = bar.laid_out_field("upower.bounds");
        bounds.split(',').nth(2).is_some_and(|width| width != "0")
    });
    bar.point_at(&session, "upower");
    wait_for("the tooltip", WAIT, || {
        let tooltip = bar.tooltip_markup();
        tooltip.contains("Lap&lt;b&gt;top&lt;/b&gt; &amp; co: 80% 4h 0min")
            && tooltip.contains("MX Master: 42%")
    });

    // The kernel says: plugged in and charging; the mouse runs low; a headset comes.
    testbed.send("set AC online 1");
    testbed.send("set BAT0 status Charging");
    wait_for("charging", WAIT, || has_class(&bar, "charging"));
    wait_for("the charging icon", WAIT, || {
        bar.field("upower.icon") == expected_icon(&bus)
    });
    testbed.send("set hidpp_battery_0 capacity 9");
    testbed.send(
        "add headset type=Battery scope=Device present=1 online=1 status=Discharging \
         capacity=55 model_name=Head\\sset",
    );
    testbed.send("remove hidpp_battery_0");
    // Away and back: the tooltip is asked for again.
    bar.point_at(&session, "memory");
    bar.point_at(&session, "upower");
    wait_for("the headset in, the mouse out", WAIT, || {
        let tooltip = bar.tooltip_markup();
        tooltip.contains("Head set: 55%") && !tooltip.contains("MX Master")
    });

    // Waybar's tooltip-spacing and tooltip-padding: a gap of 20 pixels after each name
    // (Pango takes the markup: its text has the one space), 6 around the text.
    let before = bar.log_text().matches("reloading the config").count();
    session.write_config_file(
        "config.toml",
        "interval_ms = 500\nmodules_left = []\nmodules_center = []\nmodules_right = [\"memory\", \"upower\"]\n\
         [upower]\nformat-alt = \"{percentage} ({time})\"\ntooltip-spacing = 20\ntooltip-padding = 6\n",
    );
    wait_for("the reload", WAIT, || {
        bar.log_text().matches("reloading the config").count() > before
    });
    bar.point_at(&session, "memory");
    let mut pointer = bar.point_at(&session, "upower");
    wait_for("the spaced tooltip", WAIT, || {
        let gap = "<span size=\"1024\" letter_spacing=\"15360\"> </span>";
        bar.tooltip_markup().contains(&format!("Head set{gap}55%"))
            && bar.tooltip_text().contains("Head set 55%")
    });
    assert_eq!(
        std::fs::read_to_string(session.hook_dir().join("tooltip.margin")).unwrap_or_default(),
        "6"
    );

    // A left click: the alternative format, with the time to full.
    pointer.click("left");
    wait_for("the alternative format", WAIT, || {
        let text = label();
        text.starts_with("80% (") && text.ends_with("min)")
    });

    // upowerd stopped (SIGSTOP) while a bar starts: its first read times out, the main
    // loop never waits, and the state comes once upowerd answers again.
    drop(pointer);
    bar.stop();
    signal(&upowerd, "-STOP");
    // The stalls the first bar wrote are not the second's.
    let _ = std::fs::remove_file(session.hook_dir().join("stalls"));
    let mut bar = start_bar(&session, &bus);
    let window = common::stalls::Window::open(&session.hook_dir());
    bar.wait_for_log("upower: UPower did not answer EnumerateDevices");
    window.assert_on_time("the stopped upowerd");
    assert_ne!(bar.field("upower.visible"), "true", "nothing known yet");
    signal(&upowerd, "-CONT");
    wait_for("read again", WAIT, || bar.field("upower") == "80%");

    // upowerd goes: hidden; it comes back: read afresh.
    upowerd.kill();
    wait_for("hidden without upowerd", WAIT, || {
        bar.field("upower.visible") == "false"
    });
    let _upowerd = start_upowerd(&session, &bus, &testbed);
    bar.wait_for_log("upower: UPower is back");
    wait_for("back", WAIT, || bar.field("upower") == "80%");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks upowerd once.
    let doc = session.once_json(&[("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())]);
    let module = &doc["modules"][1];
    assert_eq!(module["name"], "upower", "{}", doc["modules"]);
    assert_eq!(module["text"], "80%", "{module}");
    assert_eq!(module["class"], "charging", "{module}");
}
