//! The bar on Wayfire 0.10 (Debian sid's): the workspaces (a grid of three) and the
//! focused window from Wayfire's own IPC (its `ipc` and `ipc-rules` plugins), the taskbar
//! from wlr-foreign-toplevel (its foreign-toplevel plugin), read by the test hook and by
//! OCR. A click on a workspace makes Wayfire switch (through its `vswitch` plugin), as its
//! own events then say; a click on a taskbar button activates its window, read back from
//! the title, and a middle click closes one. Wayfire restarted: the bar ends with it, and
//! a new bar follows the new Wayfire.
//! Wayfire runs headless in the sid root the Hyprland harness builds, with the pixman
//! renderer, as `nobody` (it refuses root); `scripts/dev.sh labwc` runs this stage too.

mod common;

use std::time::Duration;

use common::sid_compositor::SidCompositor;
use common::{require_root, wait_for};

const WAIT: Duration = Duration::from_secs(30);

#[test]
#[ignore = "needs the sid root (minutes to build): scripts/dev.sh labwc"]
fn wayfire_workspaces_window_title_and_taskbar() {
    let _serial = common::serial();
    require_root();
    let Some(wayfire) = SidCompositor::wayfire() else {
        return;
    };
    let (mut pointer, bar) = wayfire.pointer_and_bar(
        "interval_ms = 500\nmodules_left = [\"wayfire/workspaces\", \"wlr/taskbar\", \"wayfire/window\"]\n\
         modules_right = [\"clock\"]\n\
         [\"wlr/taskbar\"]\nformat = \"{icon} {title}\"\n\
         [\"wayfire/workspaces\"]\nformat = \"{name}{windows}\"\n\
         window-rewrite = { \"class<foot>\" = \"F\" }\n",
    );
    let field = |key: &str| bar.field(key);
    wait_for("Wayfire's three workspaces, empty", WAIT, || {
        field("workspaces") == "1:focused+visible+empty|2:empty|3:empty"
    });
    let _one = wayfire.foot(&["-T", "ONE", "--", "sleep", "600"]);
    wait_for("ONE's title", WAIT, || field("window") == "ONE");
    let mut two = wayfire.foot(&["-T", "TWO", "--", "sleep", "600"]);
    wait_for("TWO focused, both on the taskbar", WAIT, || {
        field("window") == "TWO"
            && field("taskbar") == "ONE:@foot|TWO:active@foot"
            && field("workspaces") == "1F F:focused+visible+occupied|2:empty|3:empty"
    });
    let left_text = || common::ocr::read_text(&wayfire.screenshot("0,0 400x26"));
    // Tesseract reads this font's `W` in capitals either way.
    wait_for("`ONE` and `TWO` on screen", WAIT, || {
        let text = left_text().to_uppercase();
        eprintln!("OCR: {text:?}");
        text.contains("ONE") && text.contains("TWO")
    });

    let mut press = |index: usize, button: &str| {
        let (x, y) = bar.button_center("taskbar", index);
        pointer.move_to(x, y);
        pointer.click(button);
    };
    press(0, "left");
    wait_for("ONE active after a click on its button", WAIT, || {
        field("window") == "ONE" && field("taskbar") == "ONE:active@foot|TWO:@foot"
    });
    press(1, "middle");
    wait_for("TWO closed by a middle click", WAIT, || {
        matches!(two.0.try_wait(), Ok(Some(_)))
    });
    wait_for("one button left", WAIT, || {
        field("taskbar") == "ONE:active@foot"
    });

    // A click on the third workspace: Wayfire switches and says so; ONE stays on the
    // first, so no window has the focus there. Then back.
    let mut click_workspace = |index: usize| {
        let (x, y) = bar.button_center("workspaces", index);
        pointer.move_to(x, y);
        pointer.click("left");
    };
    // Its window written by `window-rewrite`.
    wait_for("ONE on the first workspace", WAIT, || {
        field("workspaces") == "1F:focused+visible+occupied|2:empty|3:empty"
    });
    click_workspace(2);
    wait_for("Wayfire on the third workspace", WAIT, || {
        field("workspaces") == "1F:occupied|2:empty|3:focused+visible+empty"
    });
    wait_for("no focused window there", WAIT, || {
        field("window.visible") == "false"
    });
    click_workspace(0);
    wait_for("back on the first", WAIT, || {
        field("workspaces") == "1F:focused+visible+occupied|2:empty|3:empty"
    });

    // A hostile title stays text, cut to 1024 characters.
    let hostile = format!("<b>&amp;{}", "x".repeat(10_000));
    let script = format!("printf '\\033]2;%s\\007' '{hostile}'; sleep 600");
    let _hostile = wayfire.foot(&["-T", "HOSTILE", "--", "sh", "-c", &script]);
    wait_for("the hostile title, cut", WAIT, || {
        let title = field("window");
        title.starts_with("<b>&amp;xxx") && title.chars().count() <= 1025
    });

    // Wayfire stopped (SIGSTOP) for 3 s: neither its IPC nor the Wayland connections hold
    // the main loop up; then the bar follows Wayfire again.
    let window = common::stalls::Window::open(&wayfire.hook_dir());
    let signal = |which: &str| {
        let sent = std::process::Command::new("kill")
            .args([which, &wayfire.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill {which}");
    };
    signal("-STOP");
    std::thread::sleep(Duration::from_secs(3));
    signal("-CONT");
    window.assert_on_time("the stopped Wayfire");
    let _after = wayfire.foot(&["-T", "AFTER", "--", "sleep", "600"]);
    wait_for("a window opened after Wayfire went on", WAIT, || {
        field("window") == "AFTER"
    });
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");

    // Wayfire restarted: the bar ends with it at once (its display is gone), and a bar
    // started on the new Wayfire finds the new IPC socket.
    drop(pointer);
    let mut bar = bar;
    signal("-TERM");
    let status = bar.wait_exit(Duration::from_secs(10));
    eprintln!("the bar on a gone Wayfire: {status}");
    let log = bar.log_text();
    assert!(!status.success(), "{status}");
    assert!(
        log.contains("Lost connection to Wayland compositor"),
        "{log}"
    );
    assert!(!log.contains("panicked"), "{log}");
    drop(wayfire);
    let Some(wayfire) = SidCompositor::wayfire() else {
        panic!("the sid root was there a moment ago");
    };
    let (_pointer, bar) = wayfire.pointer_and_bar(
        "modules_left = [\"wayfire/workspaces\", \"wayfire/window\"]\nmodules_right = []\n",
    );
    wait_for("the new Wayfire's workspaces", WAIT, || {
        bar.field("workspaces") == "1:focused+visible+empty|2:empty|3:empty"
    });
    let _new = wayfire.foot(&["-T", "NEW", "--", "sleep", "600"]);
    wait_for("a window on the new Wayfire", WAIT, || {
        bar.field("window") == "NEW"
    });
}
