//! The bar on labwc 0.20 (Debian sid's), a compositor without an IPC of its own: the
//! workspaces from ext-workspace-v1 and the focused window from wlr-foreign-toplevel,
//! read by the test hook and by OCR, and a click that makes labwc switch desktops (read
//! back from labwc's own workspace events). labwc runs headless in the sid root the
//! Hyprland harness builds; `scripts/dev.sh labwc` runs this stage alone. The taskbar is
//! tested here too: labwc minimizes, which sway does not.

mod common;

use std::time::{Duration, Instant};

use common::sid_compositor::SidCompositor as Labwc;
use common::{require_root, wait_for};

const WAIT: Duration = Duration::from_secs(30);

#[test]
#[ignore = "needs the sid root (minutes to build): scripts/dev.sh labwc"]
fn labwc_workspaces_and_window_title_over_the_standard_protocols() {
    let _serial = common::serial();
    require_root();
    let Some(labwc) = Labwc::labwc(&["FIRST", "SECOND"]) else {
        return;
    };
    let started = Instant::now();
    let (mut pointer, bar) = labwc.pointer_and_bar(
        "interval_ms = 500\nmodules_left = [\"ext/workspaces\", \"window\"]\n\
         modules_right = [\"clock\"]\n",
    );
    let field = |key: &str| bar.field(key);
    wait_for("labwc's desktops on the bar", WAIT, || {
        field("workspaces") == "FIRST:focused+visible|SECOND:"
    });
    let _start = labwc.foot(&["-T", "START", "--", "sleep", "600"]);
    wait_for("the window's title", WAIT, || field("window") == "START");
    let left_text = || common::ocr::read_text(&labwc.screenshot("0,0 400x26"));
    wait_for("`FIRST SECOND START` on screen", WAIT, || {
        let text = left_text();
        eprintln!("OCR: {text:?}");
        text.contains("FIRST") && text.contains("SECOND") && text.contains("START")
    });

    // A click on SECOND: labwc switches and says so; its window is not shown there.
    let mut click_button = |index: usize, what: &str, done: &dyn Fn() -> bool| {
        let (x, y) = bar.button_center("workspaces", index);
        pointer.move_to(x, y);
        pointer.click("left");
        wait_for(&format!("labwc on {what}"), WAIT, done);
    };
    click_button(1, "SECOND", &|| {
        field("workspaces") == "FIRST:|SECOND:focused+visible"
    });
    wait_for("no focused window on SECOND", WAIT, || {
        field("window.visible") == "false"
    });
    // A second window, on SECOND; then back to FIRST and its window.
    let _beta = labwc.foot(&["-T", "BETA", "--", "sleep", "600"]);
    wait_for("BETA's title", WAIT, || field("window") == "BETA");
    click_button(0, "FIRST", &|| {
        field("workspaces") == "FIRST:focused+visible|SECOND:"
    });
    wait_for("START focused again", WAIT, || field("window") == "START");

    // Hostile titles: markup and 10 kB of text stay text, cut to 1024 characters; then a
    // flood of 10,000 title changes ends on the last, redrawn far fewer times.
    let hostile = format!("<b>&amp;{}", "x".repeat(10_000));
    let script = format!(
        "printf '\\033]2;%s\\007' '{hostile}'; sleep 1; i=0; while [ $i -lt 10000 ]; do \
         printf '\\033]2;t%d\\007' $i; i=$((i+1)); done; sleep 600"
    );
    let renders_before = bar.renders("Compositor");
    let _hostile = labwc.foot(&["-T", "HOSTILE", "--", "sh", "-c", &script]);
    wait_for("the hostile title, cut", WAIT, || {
        let title = field("window");
        title.starts_with("<b>&amp;xxx") && title.chars().count() <= 1025
    });
    wait_for("the flood's last title", WAIT, || {
        field("window") == "t9999"
    });
    let renders = bar.renders("Compositor") - renders_before;
    eprintln!("10,000 title changes: {renders} renders");
    assert!(renders < 2000, "{renders} renders for 10,000 title changes");

    // labwc stopped (SIGSTOP) for 3 s: neither the bar's own Wayland connection nor
    // GTK's holds the main loop up; then the bar follows labwc again.
    let window = common::stalls::Window::open(&labwc.hook_dir());
    let signal = |which: &str| {
        let sent = std::process::Command::new("kill")
            .args([which, &labwc.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill {which}");
    };
    signal("-STOP");
    std::thread::sleep(Duration::from_secs(3));
    signal("-CONT");
    window.assert_on_time("the stopped labwc");
    let _after = labwc.foot(&["-T", "AFTER", "--", "sleep", "600"]);
    wait_for("a window opened after labwc went on", WAIT, || {
        field("window") == "AFTER"
    });
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");
    eprintln!("labwc stage checks took {:?}", started.elapsed());
}

/// The taskbar on labwc, which minimizes: foot's desktop entry names the icon, a right
/// click minimizes the active window, a left click brings it back, a middle click
/// closes one.
#[test]
#[ignore = "needs the sid root (minutes to build): scripts/dev.sh labwc"]
fn labwc_taskbar_activates_minimizes_and_closes() {
    let _serial = common::serial();
    require_root();
    let Some(labwc) = Labwc::labwc(&["FIRST"]) else {
        return;
    };
    let (mut pointer, bar) = labwc.pointer_and_bar(
        "modules_left = [\"wlr/taskbar\"]\nmodules_right = [\"clock\"]\n\
         [\"wlr/taskbar\"]\nformat = \"{icon} {title}\"\n",
    );
    let field = |key: &str| bar.field(key);
    let _start = labwc.foot(&["-T", "START", "--", "sleep", "600"]);
    wait_for("START's button", WAIT, || {
        field("taskbar") == "START:active@foot"
    });
    let mut beta = labwc.foot(&["-T", "BETA", "--", "sleep", "600"]);
    wait_for("two buttons with foot's icon, BETA active", WAIT, || {
        let taskbar = field("taskbar");
        eprintln!("taskbar: {taskbar}");
        taskbar == "START:@foot|BETA:active@foot"
    });
    let mut press = |index: usize, button: &str| {
        let (x, y) = bar.button_center("taskbar", index);
        pointer.move_to(x, y);
        pointer.click(button);
    };
    press(1, "right");
    wait_for("BETA minimized by a right click", WAIT, || {
        field("taskbar").contains("BETA:minimized@foot")
    });
    press(1, "left");
    wait_for(
        "BETA shown and active again after a left click",
        WAIT,
        || field("taskbar").ends_with("BETA:active@foot"),
    );
    press(0, "left");
    wait_for("START active after a left click", WAIT, || {
        field("taskbar") == "START:active@foot|BETA:@foot"
    });
    press(1, "middle");
    wait_for("BETA closed by a middle click", WAIT, || {
        matches!(beta.0.try_wait(), Ok(Some(_)))
    });
    wait_for("one button left", WAIT, || {
        field("taskbar") == "START:active@foot"
    });
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");
}
