//! The bar on labwc 0.20 (Debian sid's), a compositor without an IPC of its own: the
//! workspaces from ext-workspace-v1 and the focused window from wlr-foreign-toplevel,
//! read by the test hook and by OCR, and a click that makes labwc switch desktops (read
//! back from labwc's own workspace events). labwc runs headless in the sid root the
//! Hyprland harness builds; `scripts/dev.sh labwc` runs this stage alone. The taskbar is
//! tested here too: labwc minimizes, which sway does not.

mod common;

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::labwc::Labwc;
use common::running_bar::RunningBar;
use common::{require_root, wait_for};

const WAIT: Duration = Duration::from_secs(30);

/// foot on labwc, running `args`.
fn foot(labwc: &Labwc, args: &[&str]) -> Client {
    let child = labwc
        .client("foot", &[])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start foot");
    Client(child)
}

/// Kills a client when the test ends, passed or not.
struct Client(Child);

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A virtual pointer (made before the bar: GDK drops the first events of one made
/// later), then the bar with `config` on labwc's output.
fn pointer_and_bar(labwc: &Labwc, config: &str) -> (common::screen::Pointer, RunningBar) {
    let screen = labwc.screenshot("");
    let layout = (screen.width as u32, screen.height as u32);
    let pointer = labwc.pointer(&common::hyprland::example("virtual_pointer"), layout);
    let bar_binary = labwc.install(std::path::Path::new(env!("CARGO_BIN_EXE_ringbar")));
    let folder = labwc.host_path("/root/.config/ringbar");
    std::fs::create_dir_all(&folder).expect("config folder");
    std::fs::write(folder.join("config.toml"), config).expect("config");
    let hook = labwc.host_path("/run/ringbar-hook");
    let _ = std::fs::remove_dir_all(&hook);
    std::fs::create_dir_all(&hook).expect("hook folder");
    let bar = RunningBar::spawn(
        labwc.client(&bar_binary, &[("RINGBAR_TEST_HOOK", "/run/ringbar-hook")]),
        labwc.host_path("/run/ringbar-labwc/ringbar.log"),
        hook,
    );
    bar.wait_for_log("bar on output HEADLESS-1");
    (pointer, bar)
}

#[test]
#[ignore = "needs the sid root (minutes to build): scripts/dev.sh labwc"]
fn labwc_workspaces_and_window_title_over_the_standard_protocols() {
    let _serial = common::serial();
    require_root();
    let Some(labwc) = Labwc::start(&["FIRST", "SECOND"]) else {
        return;
    };
    let started = Instant::now();
    let (mut pointer, bar) = pointer_and_bar(
        &labwc,
        "interval_ms = 500\nmodules_left = [\"ext/workspaces\", \"window\"]\n\
         modules_right = [\"clock\"]\n",
    );
    let field = |key: &str| bar.field(key);
    wait_for("labwc's desktops on the bar", WAIT, || {
        field("workspaces") == "FIRST:focused+visible|SECOND:"
    });
    let _start = foot(&labwc, &["-T", "START", "--", "sleep", "600"]);
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
    let _beta = foot(&labwc, &["-T", "BETA", "--", "sleep", "600"]);
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
    let _hostile = foot(&labwc, &["-T", "HOSTILE", "--", "sh", "-c", &script]);
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
    let window = common::stalls::Window::open(&labwc.host_path("/run/ringbar-hook"));
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
    let _after = foot(&labwc, &["-T", "AFTER", "--", "sleep", "600"]);
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
    let Some(labwc) = Labwc::start(&["FIRST"]) else {
        return;
    };
    let (mut pointer, bar) = pointer_and_bar(
        &labwc,
        "modules_left = [\"wlr/taskbar\"]\nmodules_right = [\"clock\"]\n\
         [\"wlr/taskbar\"]\nformat = \"{icon} {title}\"\n",
    );
    let field = |key: &str| bar.field(key);
    let _start = foot(&labwc, &["-T", "START", "--", "sleep", "600"]);
    wait_for("START's button", WAIT, || {
        field("taskbar") == "START:active@foot"
    });
    let mut beta = foot(&labwc, &["-T", "BETA", "--", "sleep", "600"]);
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
