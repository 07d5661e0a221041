//! The systemd-failed-units module against real systemd managers. PID 1 here is not
//! systemd, so the first test's are `systemd --user` instances (Debian's systemd; see
//! `common::systemd`): the test user's on the session bus, as on a desktop, and one of
//! root's on a private bus taken for the system bus (the same `org.freedesktop.systemd1`
//! interface). The user's session bus is the one its manager starts (dbus-user-session),
//! as on Debian's desktops, so the bar starts after it. Units that really fail
//! (`ExecStart=/bin/false`), one with markup and a control byte in its description: the
//! count, the state and the tooltip's list followed as units fail (forty at once, at
//! most a drawing a frame) and are reset; a manager stopped (SIGSTOP) while a bar starts
//! (the main loop never waits); a manager killed; `--once --json`. The second test boots
//! systemd as PID 1 of a PID namespace, as a container's init (`common::systemd_pid1`),
//! with the system bus it starts.

mod common;

use std::time::Duration;

use common::session::{user_ids, Compositor, RunningBar, Session};
use common::system_bus;
use common::systemd::Systemd;
use common::systemd_pid1::SystemdPid1;
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);
const MODULE: &str = "systemd-failed-units";

fn failing_unit(description: &str) -> String {
    format!("[Unit]\nDescription={description}\n[Service]\nExecStart=/bin/false\n")
}

fn start_bar(session: &Session, system_bus: &str) -> RunningBar {
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\n\
         modules_right = [\"memory\", \"systemd-failed-units\"]\n\
         [systemd-failed-units]\nhide-on-ok = false\nformat-ok = \"OK\"\n\
         format = \"{nr_failed_system}+{nr_failed_user} failed\"\n",
    );
    session.start_bar(&[("DBUS_SYSTEM_BUS_ADDRESS", system_bus)])
}

#[test]
fn the_module_counts_the_units_systemd_says_failed() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let system_bus = system_bus::start(&session);
    // The user's manager, and the session bus with it, in the session's runtime dir.
    let (dir, run) = (session.path(), session.runtime_dir());
    let user = Systemd::start("user", dir, &run, user_ids(), None);
    drop(session.pointer());
    let mut bar = start_bar(&session, &system_bus.address);
    bar.wait_for_log(
        "systemd-failed-units (system): systemd (org.freedesktop.systemd1) is not on the \
         system bus",
    );
    let label = || bar.field(MODULE);
    let class = || bar.field(&format!("{MODULE}.classes"));
    wait_for("the user manager running", WAIT, || label() == "OK");
    assert!(class().split(',').any(|c| c == "ok"), "{}", class());

    // A unit fails for real.
    user.add_unit("broken.service", &failing_unit("A <b>unit</b> & co\u{7}"));
    user.systemctl(&["start", "broken.service"]);
    wait_for("one failed unit", WAIT, || label() == "0+1 failed");
    assert!(class().split(',').any(|c| c == "degraded"), "{}", class());
    bar.point_at(&session, MODULE);
    wait_for("the tooltip's list", WAIT, || {
        let tooltip = bar.tooltip_markup();
        tooltip.contains("User: degraded")
            && tooltip.contains("- broken.service: A &lt;b&gt;unit&lt;/b&gt; &amp; co")
    });

    // The "system" manager, with a failed unit of its own.
    let system_run = dir.join("system-run");
    let system_bus_address = Some(system_bus.address.as_str());
    let system = Systemd::start("system", dir, &system_run, (0, 0), system_bus_address);
    system.add_unit("lost.service", &failing_unit("Lost"));
    system.systemctl(&["start", "lost.service"]);
    wait_for("both managers' units", WAIT, || label() == "1+1 failed");

    // Forty more fail at once: each a burst of signals, read again once at a time.
    user.add_unit("flood@.service", &failing_unit("Flood %i"));
    let flood: Vec<String> = (1..=40).map(|i| format!("flood@{i}.service")).collect();
    let mut start = vec!["start"];
    start.extend(flood.iter().map(String::as_str));
    let renders_before = bar.renders("Event(UserUnits)");
    let started = std::time::Instant::now();
    user.systemctl(&start);
    wait_for("41 failed units", WAIT, || label() == "1+41 failed");
    // At most a drawing a frame while they failed, not one per signal.
    let (gap, took) = (ringbar::app::pacing::GAP, started.elapsed());
    let redraws = bar.renders("Event(UserUnits)") - renders_before;
    let most = took.as_millis() as u64 / gap.as_millis() as u64 + 3;
    eprintln!("40 units failed in {took:?}: {redraws} redraws (at most {most})");
    assert!(
        redraws <= most,
        "{redraws} redraws for 40 failures in {took:?}"
    );

    // Reset: the user's units are no longer failed.
    user.systemctl(&["reset-failed"]);
    wait_for("the user's units reset", WAIT, || label() == "1+0 failed");
    bar.point_at(&session, "memory");
    bar.point_at(&session, MODULE);
    wait_for("the tooltip again", WAIT, || {
        let tooltip = bar.tooltip_markup();
        tooltip.contains("System: degraded")
            && tooltip.contains("- lost.service: Lost")
            && !tooltip.contains("broken.service")
    });

    // The user's manager stopped (SIGSTOP) while a bar starts: its first read waits on
    // it, the main loop does not; the count comes once it runs again.
    bar.stop();
    let signal = |name: &str| {
        let _ = std::process::Command::new("kill")
            .args([name, &user.pid().to_string()])
            .status();
    };
    signal("-STOP");
    let _ = std::fs::remove_file(session.hook_dir().join("stalls"));
    let mut bar = start_bar(&session, &system_bus.address);
    let window = common::stalls::Window::open(&session.hook_dir());
    // Three samples at the default 2 s.
    std::thread::sleep(Duration::from_secs(7));
    window.assert_on_time("the stopped manager");
    signal("-CONT");
    let label = || bar.field(MODULE);
    wait_for("read once it runs", WAIT, || label() == "1+0 failed");

    // The user's manager goes: it counts as not asked.
    drop(user);
    wait_for("the user manager gone", WAIT, || label() == "1+0 failed");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks the managers once.
    let doc = session.once_json(&[("DBUS_SYSTEM_BUS_ADDRESS", system_bus.address.as_str())]);
    let module = &doc["modules"][1];
    assert_eq!(module["name"], MODULE, "{}", doc["modules"]);
    assert_eq!(module["text"], "1+0 failed", "{module}");
    assert_eq!(module["class"], "degraded", "{module}");
    drop(system);
}

#[test]
fn systemd_as_pid_1_is_followed_on_its_system_bus() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let init = SystemdPid1::start(session.path());
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\n\
         modules_right = [\"memory\", \"systemd-failed-units\"]\n\
         [systemd-failed-units]\nuser = false\nhide-on-ok = false\nformat-ok = \"OK\"\n\
         format = \"{nr_failed_system} failed\"\n",
    );
    drop(session.pointer());
    let mut bar = session.start_bar(&[("DBUS_SYSTEM_BUS_ADDRESS", init.bus_address.as_str())]);
    let label = || bar.field(MODULE);
    wait_for("PID 1 running, nothing failed", WAIT, || label() == "OK");

    init.add_unit("broken.service", &failing_unit("Broken <b>unit</b>"));
    init.systemctl(&["start", "broken.service"]);
    wait_for("PID 1's failed unit", WAIT, || label() == "1 failed");
    let classes = bar.field(&format!("{MODULE}.classes"));
    assert!(classes.split(',').any(|c| c == "degraded"), "{classes}");
    bar.point_at(&session, MODULE);
    wait_for("the tooltip's list", WAIT, || {
        let tooltip = bar.tooltip_markup();
        tooltip.contains("System: degraded")
            && tooltip.contains("- broken.service: Broken &lt;b&gt;unit&lt;/b&gt;")
    });
    let doc = session.once_json(&[("DBUS_SYSTEM_BUS_ADDRESS", init.bus_address.as_str())]);
    assert_eq!(doc["modules"][1]["text"], "1 failed", "{}", doc["modules"]);

    init.systemctl(&["reset-failed"]);
    wait_for("reset", WAIT, || label() == "OK");
    // PID 1 and its bus gone (GIO's name watcher made the bar panic here): the module
    // hides, and the bar runs on.
    drop(init);
    bar.wait_for_log("systemd-failed-units (system): the bus closed the connection; hidden");
    wait_for("hidden", WAIT, || {
        bar.field(&format!("{MODULE}.visible")) == "false"
    });
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
}
