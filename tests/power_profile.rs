//! The power_profile module against the real power-profiles-daemon (Debian's 0.12, which
//! serves the older `net.hadess.PowerProfiles` name), on a private bus that the bar
//! takes for the system bus, with a real polkitd there: the daemon asks polkit before it
//! switches, and with no logind session on this machine a rule grants the test user
//! (see `common::system_bus`). On a machine without a platform profile or a CPU driver
//! it knows, the daemon offers its placeholder driver's power-saver and balanced
//! profiles: the label follows `powerprofilesctl set`, a click on the module switches
//! the daemon's profile, and the daemon stopped and started again hides and brings back
//! the module.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::bus::Helper;
use common::session::{Compositor, RunningBar, Session};
use common::system_bus::{self, SystemBus};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);
const DAEMON: &str = "/usr/libexec/power-profiles-daemon";

/// The daemon as its unit runs it: as root.
fn start_daemon(bus: &SystemBus) -> Helper {
    let child = std::process::Command::new(DAEMON)
        .env("DBUS_SYSTEM_BUS_ADDRESS", &bus.address)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start power-profiles-daemon (Debian's power-profiles-daemon)");
    Helper(child)
}

/// `powerprofilesctl ARGS` as the test user on the test bus; its stdout.
fn ctl(session: &Session, bus: &SystemBus, args: &[&str]) -> String {
    let out = session
        .as_user_with(
            "powerprofilesctl",
            &[("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())],
        )
        .args(args)
        .output()
        .expect("run powerprofilesctl");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn start_bar(session: &Session, bus: &SystemBus) -> RunningBar {
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"power_profile\"]\n",
    );
    session.start_bar(&[("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())])
}

#[test]
fn the_profile_follows_the_daemon_and_a_click_switches_it() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let bus = system_bus::start_with_polkit(&session, "net.hadess.PowerProfiles.switch-profile");
    let mut bar = start_bar(&session, &bus);
    bar.wait_for_log("power profiles: power-profiles-daemon is not on the system bus");
    assert_ne!(
        bar.field("power_profile.visible"),
        "true",
        "hidden without it"
    );

    let mut daemon = start_daemon(&bus);
    let label = || bar.field("power_profile");
    wait_for("the daemon's profile", WAIT, || label() == "PWR balanced");
    assert!(bar
        .field("power_profile.classes")
        .split(',')
        .any(|c| c == "balanced"));
    wait_for("powerprofilesctl answers", WAIT, || {
        ctl(&session, &bus, &["get"]).trim() == "balanced"
    });

    // Set by powerprofilesctl: the label follows the daemon's PropertiesChanged.
    ctl(&session, &bus, &["set", "power-saver"]);
    wait_for("power-saver", WAIT, || label() == "PWR power-saver");

    // A click on the module switches the daemon to the next profile.
    bar.point_at(&session, "power_profile").click("left");
    wait_for("the daemon on balanced", WAIT, || {
        ctl(&session, &bus, &["get"]).trim() == "balanced"
    });
    wait_for("the label on balanced", WAIT, || label() == "PWR balanced");

    // The daemon goes: hidden; it comes back: shown as it says.
    daemon.kill();
    wait_for("hidden without the daemon", WAIT, || {
        bar.field("power_profile.visible") == "false"
    });
    let _daemon = start_daemon(&bus);
    wait_for("back", WAIT, || label().starts_with("PWR "));
    bar.wait_for_log("power profiles: power-profiles-daemon is back");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks the daemon once.
    let out = session
        .as_user_with(
            session.installed_bar(),
            &[("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())],
        )
        .args(["--once", "--json", "--interval-ms", "100"])
        .output()
        .expect("run ringbar --once");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        doc["modules"][0]["name"], "power_profile",
        "{}",
        doc["modules"]
    );
    let text = doc["modules"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("PWR "), "{}", doc["modules"]);
}
