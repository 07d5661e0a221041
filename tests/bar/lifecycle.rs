//! Starting, reloading and ending: a second start, a broken config, styles, no
//! capabilities, the compositor going away.

use std::time::Duration;

use crate::common::session::{Compositor, Session, WIDTH};
use crate::common::{require_root, serial, wait_for};
use crate::*;

/// The ids of the probe's iterator programs loaded in the kernel (`bpftool prog show`), by
/// anyone: other ringbar instances on the machine have their own.
fn probe_program_ids() -> std::collections::BTreeSet<u32> {
    let out = std::process::Command::new("bpftool")
        .args(["prog", "show"])
        .output()
        .expect("run bpftool");
    assert!(out.status.success(), "bpftool prog show failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("name dump_task"))
        .filter_map(|l| l.split(':').next()?.trim().parse().ok())
        .collect()
}

#[test]
fn a_second_start_reloads_the_running_bar_and_sigterm_detaches_the_probe() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.swaymsg(&["create_output"]);
    let before = probe_program_ids();
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    bar.wait_for_log("bar on output HEADLESS-2");
    wait_for("the default height reserved", WAIT, || {
        session.workspace_y() == 26
    });
    let pid = bar.pid();
    // Loaded by the bar: its programs are the ones that were not there before.
    let ours: Vec<u32> = probe_program_ids().difference(&before).copied().collect();
    assert_eq!(ours.len(), 1, "the bar loaded its probe once: {ours:?}");

    // A second start on the same display steps aside and makes the first reload.
    session.write_config_file("config.toml", "height = 40\n");
    let mut second = session.start_bar(&[]);
    let status = second.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{}", second.log_text());
    let message = second.log_text();
    assert_eq!(message.lines().count(), 1, "one line: {message}");
    assert!(
        message.contains(&format!(
            "ringbar already runs on wayland-1 (pid {pid}): asked it to reload its config and style"
        )),
        "{message}"
    );
    bar.wait_for_log("reloading the config");
    wait_for("the new height on every output", WAIT, || {
        let bars = bar.bars();
        session.workspace_y() == 40
            && bars.len() == 2
            && bars
                .iter()
                .all(|b| b["mapped"] == "true" && b["cpu"].ends_with('%'))
    });
    assert!(bar.try_wait().is_none(), "the first bar still runs");

    // The config deleted while running, then a reload (SIGUSR1): the defaults, no marker.
    session.remove_config_file("config.toml");
    // SAFETY: kill has no memory-safety preconditions; pid is our child.
    unsafe { libc::kill(pid as i32, libc::SIGUSR1) };
    bar.wait_for_log("reloading the config");
    wait_for("the default height again", WAIT, || {
        session.workspace_y() == 26 && bar.bars().iter().all(|b| b["notice.visible"] == "false")
    });

    // A broken config on reload: a marker, and the bar keeps running on the defaults.
    session.write_config_file("config.toml", "\u{0}\u{ff}garbage = [\n");
    // SAFETY: as above.
    unsafe { libc::kill(pid as i32, libc::SIGHUP) };
    bar.wait_for_log("reloading the config");
    wait_for("the config marker", WAIT, || {
        let bars = bar.bars();
        bars.len() == 2 && bars.iter().all(|b| b["notice"] == "⚠ config")
    });
    // The bars are rebuilt on reload: sway gives their exclusive zone back a moment later.
    wait_for("the default height after the broken config", WAIT, || {
        session.workspace_y() == 26
    });

    // SIGTERM: a clean exit, and none of the probe's programs stay in the kernel.
    // SAFETY: kill has no memory-safety preconditions; pid is our child.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    let status = bar.wait_exit(Duration::from_secs(10));
    assert!(
        status.success(),
        "exit status {status:?}:\n{}",
        bar.log_text()
    );
    bar.wait_for_log("SIGTERM: exiting");
    // Detached: the kernel frees a program once its last link and fd are gone.
    wait_for("the bar's programs to go", Duration::from_secs(5), || {
        !probe_program_ids().contains(&ours[0])
    });
}

#[test]
fn a_broken_config_shows_a_marker_and_the_bar_runs_on_defaults() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "height = 40\nheigth = 40\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let log = bar.log_text();
    assert!(
        log.contains("config.toml:2: `heigth = 40`: unknown field `heigth`"),
        "file, line and key in the log: {log}"
    );
    wait_for("the error marker", WAIT, || {
        bar.bars()
            .first()
            .is_some_and(|b| b["notice.visible"] == "true" && b["notice"] == "⚠ config")
    });
    // sway applies the exclusive zone a moment after the bar maps.
    wait_for("the default height", WAIT, || session.workspace_y() == 26);
    wait_for("numbers despite the broken config", WAIT, || {
        bar.bars().first().is_some_and(|b| b["cpu"].ends_with('%'))
    });
}

/// A saved config reloads the bar by itself: written in place, renamed over the old one
/// (as editors save), and broken (the marker, the bar runs on).
#[test]
fn a_saved_config_reloads_the_bar_by_itself() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "modules_right = [\"cpu\"]\n");
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| {
        bar.bars()
            .first()
            .map(|b| b.get(key).cloned().unwrap_or_default())
    };
    wait_for("the cpu label", WAIT, || {
        field("cpu").is_some_and(|t| t.ends_with('%'))
    });
    // In place.
    session.write_config_file("config.toml", "height = 40\nmodules_right = [\"cpu\"]\n");
    wait_for("the new height", WAIT, || session.workspace_y() == 40);
    // A new file renamed over the old one.
    let fresh = session.write_home_file(
        ".config/ringbar/.config.toml.new",
        "modules_right = [\"memory\"]\n",
    );
    std::fs::rename(&fresh, session.home().join(".config/ringbar/config.toml")).expect("rename");
    wait_for("memory instead of cpu", WAIT, || {
        field("memory").is_some_and(|t| t.starts_with("MEM"))
            && field("cpu.visible").is_none_or(|v| v != "true")
    });
    wait_for("the default height", WAIT, || session.workspace_y() == 26);
    // Broken: the marker, and the bar goes on.
    session.write_config_file("config.toml", "height = \"tall\"\n");
    wait_for("the config marker", WAIT, || {
        field("notice").as_deref() == Some("⚠ config")
    });
    assert!(bar.try_wait().is_none(), "the bar still runs");
}

#[test]
fn thresholds_set_classes_and_the_user_style_is_reloaded_when_it_changes() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // Every CPU reading is past 0 %: the label is always .warning, never .critical.
    session.write_config_file(
        "config.toml",
        "[cpu]\nwarning = 0\ncritical = 100\n[memory]\nwarning = 0\ncritical = 0\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("CSS level classes", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            b["cpu.classes"].split(',').any(|c| c == "warning")
                && b["memory.classes"].split(',').any(|c| c == "critical")
        })
    });

    let red = |[r, g, b]: [u8; 3]| r > 200 && g < 60 && b < 60;
    assert_eq!(session.screenshot(0, 0, WIDTH, 26).count(0, 26, red), 0);
    session.write_config_file("style.css", ".ringbar label.cpu { color: #ff0000; }\n");
    bar.wait_for_log("style loaded from");
    wait_for("the CPU label drawn red", WAIT, || {
        session.screenshot(0, 0, WIDTH, 26).count(0, 26, red) > 30
    });
    session.remove_config_file("style.css");
    wait_for("the default colours back", WAIT, || {
        session.screenshot(0, 0, WIDTH, 26).count(0, 26, red) == 0
    });
}

/// A Waybar style's selectors apply: widgets are named as Waybar names them (`#disk`),
/// and an instance `disk#root` carries its id as a class (`#disk.root`).
#[test]
fn waybar_selectors_and_instance_classes_apply() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"disk#root\"]\n\
         [\"disk#root\"]\nmounts = [\"/\"]\n",
    );
    session.write_config_file("style.css", "#disk.root { color: #ff0000; }\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the instance's classes", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            let classes = &b["disk#root.classes"];
            classes.split(',').any(|c| c == "disk") && classes.split(',').any(|c| c == "root")
        })
    });
    let red = |[r, g, b]: [u8; 3]| r > 200 && g < 60 && b < 60;
    wait_for("the disk label drawn red by #disk.root", WAIT, || {
        session.screenshot(0, 0, WIDTH, 26).count(0, 26, red) > 30
    });
}

#[test]
fn without_capabilities_the_bar_runs_and_says_why_the_probe_is_off() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let mut bar = session.start_bar_without_capabilities();
    bar.wait_for_log("sudo setcap cap_bpf,cap_perfmon+ep");
    bar.wait_for_log("bar on output HEADLESS-1");
    // The /proc fallback supplies the numbers; the window is marked for CSS.
    wait_for("the probe-off marker and /proc numbers", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            b["notice.visible"] == "true"
                && b["notice"] == "⚠ BPF probe off"
                && b["cpu"].ends_with('%')
                && b["bar.classes"].split(',').any(|c| c == "probe-off")
        })
    });
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "BPF probe off");
    let tooltip = bar.tooltip_text();
    assert!(
        tooltip.contains("setcap cap_bpf,cap_perfmon+ep"),
        "{tooltip}"
    );
    assert!(tooltip.contains("the numbers come from /proc"), "{tooltip}");
    assert!(
        tooltip.contains("processes of other users"),
        "IO n/a: {tooltip}"
    );
    assert!(bar.try_wait().is_none(), "still running");
}

#[test]
fn the_bar_exits_non_zero_when_the_compositor_goes_away() {
    let _serial = serial();
    require_root();
    let mut session = Session::start(Compositor::Sway);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    session.kill_compositor();
    let status = bar.wait_exit(Duration::from_secs(10));
    assert!(
        !status.success(),
        "a supervisor must see a failure: {status:?}"
    );
}

/// The compositor dying while the bar maps its surfaces: GTK then waits for a configure
/// event that never comes, in a loop that does not return (see src/ui/watchdog.rs). The
/// bar must still exit non-zero, at every moment of its start.
#[test]
fn the_bar_exits_when_the_compositor_dies_while_it_starts() {
    let _serial = serial();
    require_root();
    for delay_ms in [0, 30, 60, 100, 150, 250] {
        let mut session = Session::start(Compositor::Sway);
        let mut bar = session.start_bar(&[]);
        std::thread::sleep(Duration::from_millis(delay_ms));
        session.kill_compositor();
        let status = bar.wait_exit(Duration::from_secs(10));
        assert!(
            !status.success(),
            "killed {delay_ms} ms after the start: {status:?}\n{}",
            bar.log_text()
        );
    }
}

/// The session bus crashing (or restarting) leaves the bar running: GLib's shared
/// connection, which GTK uses for the desktop portal's settings, would otherwise end the
/// process with SIGTERM when the bus goes.
#[test]
fn the_bar_outlives_its_session_bus() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let mut bus = crate::common::bus::start_session_bus(&session);
    let address = crate::common::bus::bus_address(&session);
    let mut bar = session.start_bar(&[("DBUS_SESSION_BUS_ADDRESS", address.as_str())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the clock drawn", WAIT, || {
        bar.bars().first().is_some_and(|b| !b["clock"].is_empty())
    });
    bus.kill();
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        bar.try_wait().is_none(),
        "the bar ended:\n{}",
        bar.log_text()
    );
    assert!(!bar.log_text().contains("SIGTERM"), "{}", bar.log_text());
    wait_for("numbers after the bus went", WAIT, || {
        bar.bars().first().is_some_and(|b| b["cpu"].ends_with('%'))
    });
}
