//! What the bar draws and where: its height, every output, the bottom edge, the fallback
//! window without layer shell, and the README screenshot.

use std::time::Duration;

use crate::common::session::{Compositor, Session, HEIGHT, WIDTH};
use crate::common::{require_root, serial, wait_for, Subject, Subjects};
use crate::*;

#[test]
fn the_bar_reserves_its_height_draws_real_numbers_and_runs_unprivileged() {
    let _serial = serial();
    require_root();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("rb-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "height = 30\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");

    // 1. sway reserves the bar's height, and the bar is drawn there.
    wait_for("sway to reserve 30 px", WAIT, || {
        session.workspace_y() == 30
    });
    let shot = session.screenshot(0, 0, WIDTH, 60);
    let bar_rows = shot.count(0, 30, is_bar_background);
    assert!(
        bar_rows > (WIDTH as usize * 30) * 8 / 10,
        "the bar's background covers its 30 rows ({bar_rows} pixels)"
    );
    let text_pixels = shot.count(0, 30, |[r, g, b]| r > 150 && g > 150 && b > 150);
    assert!(
        text_pixels > 100,
        "the labels draw light text ({text_pixels} pixels)"
    );
    assert_eq!(
        shot.count(31, 60, is_bar_background),
        0,
        "nothing of the bar below its height"
    );

    // 2. The labels show the probe's numbers: one of two cores spins, so CPU ≥ 40 %.
    wait_for("the CPU label to show the spinner", WAIT, || {
        bar.bars()
            .first()
            .and_then(|b| b.get("cpu").cloned())
            .is_some_and(|cpu| {
                cpu.strip_prefix("CPU ")
                    .and_then(|p| p.strip_suffix('%'))
                    .and_then(|p| p.parse::<f64>().ok())
                    .is_some_and(|p| p >= 40.0)
            })
    });
    let bars = bar.bars();
    let memory = &bars[0]["memory"];
    let total_kib: f64 = std::fs::read_to_string("/proc/meminfo")
        .expect("meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("MemTotal");
    let shown_total = memory.rsplit('/').next().expect("used/total");
    let (number, unit) = shown_total.split_at(shown_total.len() - 1);
    let scale = match unit {
        "M" => 1024.0,
        "G" => 1024.0 * 1024.0,
        "T" => 1024.0 * 1024.0 * 1024.0,
        other => panic!("unexpected unit {other} in {memory}"),
    };
    let shown_kib = number.parse::<f64>().expect("a number") * scale;
    assert!(
        (shown_kib / total_kib - 1.0).abs() < 0.05,
        "MEM label {memory} matches MemTotal {total_kib} kB"
    );

    // Capabilities belong to threads: every thread of the bar holds none, the main
    // thread and the sampling thread (which read the probe, the first once samples
    // prove short) among them.
    let tasks = std::fs::read_dir(format!("/proc/{}/task", bar.pid())).expect("task dir");
    let mut names = Vec::new();
    for task in tasks {
        let dir = task.expect("task").path();
        let status = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        for set in ["CapEff:", "CapPrm:", "CapInh:", "CapAmb:"] {
            assert_eq!(
                capability_line(&status, set),
                "0000000000000000",
                "{set} of the bar's thread {}",
                name.trim()
            );
        }
        assert_eq!(capability_line(&status, "NoNewPrivs:"), "1");
        names.push(name.trim().to_owned());
    }
    assert!(
        names.iter().any(|n| n == "ringbar"),
        "the main thread among {names:?}"
    );
    // Without a script module the bar starts no process (no scripts' keeper either).
    let children: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
        .filter(|stat| {
            let after_name = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
            after_name.split_whitespace().nth(1) == Some(&bar.pid().to_string())
        })
        .collect();
    assert!(children.is_empty(), "the bar's children: {children:?}");

    // 3. A machine without GPU or sensors (like CI's VM) shows a clean bar: no GPU label,
    // and nothing to warn about in the log.
    if !std::path::Path::new("/sys/class/drm").exists() {
        assert_eq!(bars[0]["gpu.visible"], "false", "{bars:?}");
    }
    let log = bar.log_text();
    assert!(
        !log.contains("ERROR") && !log.contains("WARN"),
        "a clean start logs no warnings:\n{log}"
    );
}

#[test]
fn every_output_gets_a_bar_as_outputs_come_and_go() {
    let _serial = serial();
    require_root();
    // Outputs of the nested sway are windows of the outer one: closing a window unplugs
    // its output.
    let session = Session::start(Compositor::NestedSway);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output WL-1");
    session.swaymsg(&["create_output"]);
    bar.wait_for_log("bar on output WL-2");
    let outputs = || -> Vec<String> { bar.bars().iter().map(|b| b["output"].clone()).collect() };
    wait_for("a bar on each output", WAIT, || {
        outputs() == ["WL-1", "WL-2"]
    });
    wait_for("both bars mapped with numbers", WAIT, || {
        bar.bars()
            .iter()
            .all(|b| b["mapped"] == "true" && b["cpu"].ends_with('%'))
    });
    let pid = bar.pid();

    session.swaymsg_outer(&["[title=\"wlroots - WL-2\"]", "kill"]);
    bar.wait_for_log("output WL-2 removed");
    wait_for("one bar again", WAIT, || outputs() == ["WL-1"]);
    assert_eq!(bar.pid(), pid, "one process serves every output");
    assert_eq!(
        session.workspace_y(),
        26,
        "the remaining bar still reserves its space"
    );
}

#[test]
fn the_config_moves_the_bar_to_the_bottom() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "position = \"bottom\"\nheight = 34\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("sway to reserve 34 px at the bottom", WAIT, || {
        session.workspace_rect("y") == 0
            && session.workspace_rect("height") == i64::from(HEIGHT) - 34
    });
    let shot = session.screenshot(0, HEIGHT - 34, WIDTH, 34);
    assert!(
        shot.count(0, 34, is_bar_background) > (WIDTH as usize * 34) * 8 / 10,
        "the bar is drawn at the bottom"
    );
    assert!(
        bar.log_text().contains("bar on output"),
        "{}",
        bar.log_text()
    );
}

#[test]
fn without_layer_shell_a_plain_window_appears() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Weston);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("showing a plain window instead of a bar");
    wait_for("the fallback window with numbers", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            b["output"] == "window" && b["mapped"] == "true" && b["cpu"].ends_with('%')
        })
    });
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        bar.try_wait().is_none(),
        "still running: {}",
        bar.log_text()
    );
    let log = bar.log_text();
    assert!(
        !log.contains("CRITICAL") && !log.contains("panicked"),
        "{log}"
    );
}

/// Regenerates `data/screenshot.png` (the bar with its tooltip open) for README:
/// `scripts/dev.sh screenshot`.
#[test]
#[ignore = "writes data/screenshot.png; run by `scripts/dev.sh screenshot`"]
fn screenshot_for_the_readme() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // A sound server, as a desktop has one, for the default layout's audio module.
    let _bus = crate::common::bus::start_session_bus(&session);
    let _sound = crate::common::sound::Sound::start(&session);
    // The default layout, as sway's `exec` starts it, with a window open.
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    session.swaymsg(&["rename", "workspace", "to", "web"]);
    let _flower = session.as_user("weston-flower").spawn();
    let mut pointer = session.pointer();
    // The memory module ends the right edge here (no battery; pressure only when
    // stalled): its tooltip is the monitor's, as the CPU module's.
    hover_at_until_tooltip_shows(&mut pointer, &bar, WIDTH - 60, "sampled in");
    // Some ticks, so the tooltip shows rates and its graphs a little history.
    std::thread::sleep(Duration::from_secs(12));
    let to = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/screenshot.png");
    session.screenshot_png(&format!("0,0 {WIDTH}x{HEIGHT}"), &to);
    println!("wrote {}", to.display());
}
