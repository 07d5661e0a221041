//! The bar on labwc 0.20 (Debian sid's), a compositor without an IPC of its own: the
//! workspaces from ext-workspace-v1 and the focused window from wlr-foreign-toplevel,
//! read by the test hook and by OCR, and a click that makes labwc switch desktops (read
//! back from labwc's own workspace events). labwc runs headless in the sid root the
//! Hyprland harness builds; `scripts/dev.sh labwc` runs this stage alone.

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

#[test]
#[ignore = "needs the sid root (minutes to build): scripts/dev.sh labwc"]
fn labwc_workspaces_and_window_title_over_the_standard_protocols() {
    require_root();
    let Some(labwc) = Labwc::start(&["FIRST", "SECOND"]) else {
        return;
    };
    let started = Instant::now();
    // The pointer comes before the bar: GDK drops the first events of one made later.
    let screen = labwc.screenshot("");
    let layout = (screen.width as u32, screen.height as u32);
    let mut pointer = labwc.pointer(&common::hyprland::example("virtual_pointer"), layout);
    let bar_binary = labwc.install(std::path::Path::new(env!("CARGO_BIN_EXE_ringbar")));
    let config = labwc.host_path("/root/.config/ringbar");
    std::fs::create_dir_all(&config).expect("config folder");
    std::fs::write(
        config.join("config.toml"),
        "modules_left = [\"ext/workspaces\", \"window\"]\nmodules_right = [\"clock\"]\n",
    )
    .expect("config");
    let hook = labwc.host_path("/run/ringbar-hook");
    let _ = std::fs::remove_dir_all(&hook);
    std::fs::create_dir_all(&hook).expect("hook folder");
    let bar = RunningBar::spawn(
        labwc.client(&bar_binary, &[("RINGBAR_TEST_HOOK", "/run/ringbar-hook")]),
        labwc.host_path("/run/ringbar-labwc/ringbar.log"),
        hook,
    );
    bar.wait_for_log("bar on output HEADLESS-1");
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
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");
    eprintln!("labwc stage checks took {:?}", started.elapsed());
}
