//! The monitor modules: clicks, the tooltip's lists, and `ringbar msg`.

use std::process::Command;
use std::time::Duration;

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for, Subject, Subjects};
use crate::*;

#[test]
fn clicks_cycle_the_interval_and_toggle_kernel_threads_and_are_remembered() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", LEFT_MONITOR);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("interval=2000ms kernel-threads=off");
    bar.wait_for_log("bar on output HEADLESS-1");
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(
        &mut pointer,
        &bar,
        "every 2000 ms · kernel threads excluded",
    );

    for interval in [1000, 500, 250, 100, 2000] {
        pointer.click("left");
        bar.wait_for_log(&format!("interval={interval}ms"));
        hover_until_tooltip_shows(&mut pointer, &bar, &format!("every {interval} ms"));
    }
    pointer.click("middle");
    bar.wait_for_log("kernel-threads=on");
    hover_until_tooltip_shows(&mut pointer, &bar, "kernel threads included");
    pointer.click("left");
    bar.wait_for_log("interval=1000ms");
    let log = bar.log_text();
    assert_eq!(
        log.matches("interval=2000ms").count(),
        2,
        "start-up line plus the wrap-around: {log}"
    );

    // Remembered across a restart.
    bar.stop();
    let state = session.home().join(".local/state/ringbar/state.toml");
    let saved = std::fs::read_to_string(&state).expect("state file");
    assert!(
        saved.contains("interval_ms = 1000") && saved.contains("kernel_threads = true"),
        "{saved}\n{}",
        bar.log_text()
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("interval=1000ms kernel-threads=on");
}

#[test]
fn the_tooltip_shows_the_top_lists_with_names_escaped() {
    let _serial = serial();
    require_root();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("<rb&spin>", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let mut hog = Subject::spawn(
        &subjects.program("rb-mem", "/usr/bin/perl"),
        &[
            "-e",
            "$| = 1; $x = 'a' x (400 * 1024 * 1024); print qq(ready\\n); sleep 600",
        ],
    );
    assert_eq!(hog.read_line(), "ready");
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", LEFT_MONITOR);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "<rb&spin>");

    let markup = bar.tooltip_markup();
    let text = bar.tooltip_text();
    for section in [
        "<b>CPU</b>",
        "<b>Memory</b>",
        "<b>IO</b>",
        "<small>sampled in ",
    ] {
        assert!(markup.contains(section), "{section} in {markup}");
    }
    assert!(
        markup.contains("&lt;rb&amp;spin&gt;"),
        "escaped in markup: {markup}"
    );
    assert!(
        !markup.contains("<rb&spin>"),
        "never raw in markup: {markup}"
    );
    let cpu_section = &text[..text.find("Memory").expect("Memory section")];
    let memory_section = &text[text.find("Memory").expect("Memory")..text.find("IO ").expect("IO")];
    assert!(
        cpu_section.contains("<rb&spin>"),
        "spinner in the CPU top 5: {text}"
    );
    assert!(
        memory_section.contains("rb-mem"),
        "400 MB hog in the memory top 5: {text}"
    );
    assert!(
        text.contains("every 2000 ms · kernel threads excluded"),
        "{text}"
    );

    // Drawn on screen below the bar: the tooltip's rows are not sway's background.
    // The background far below: the tooltip's graphs make it reach past 400 px.
    let shot = session.screenshot(0, 0, 600, 700);
    let background = shot.pixel(590, 690);
    let tooltip_pixels = shot.count(40, 300, |p| p != background);
    assert!(
        tooltip_pixels > 20_000,
        "a tooltip is drawn under the bar ({tooltip_pixels} pixels differ from {background:?})"
    );
}

#[test]
fn ringbar_msg_drives_the_running_bar_and_only_for_its_own_user() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let ringbar = session.path().join("ringbar");
    let msg = |word: &str| {
        session
            .as_user(&ringbar)
            .args(["msg", word])
            .output()
            .expect("run ringbar msg")
    };
    let out = msg("cycle-interval");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    bar.wait_for_log("interval=1000ms");
    assert_eq!(msg("toggle-kernel-threads").status.code(), Some(0));
    bar.wait_for_log("kernel-threads=on");
    session.write_config_file(
        "config.toml",
        "modules_left = [\"memory\"]\nmodules_center = []\nmodules_right = []\n",
    );
    assert_eq!(msg("reload").status.code(), Some(0));
    bar.wait_for_log("reloading the config");
    wait_for("the reloaded modules", WAIT, || {
        bar.bars()
            .first()
            .is_some_and(|b| b.get("cpu").is_none() && b["memory"].starts_with("MEM "))
    });

    // Another user cannot drive it.
    let other = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&ringbar)
        .args(["msg", "cycle-interval"])
        .env("XDG_RUNTIME_DIR", session.runtime_dir())
        .output()
        .expect("run msg as nobody");
    assert_eq!(other.status.code(), Some(1), "{other:?}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !bar.log_text().contains("interval=500ms"),
        "{}",
        bar.log_text()
    );
}
