//! The bar on Wayfire 0.10 (Debian sid's), which offers no workspace protocol: the
//! focused window's title and the taskbar from wlr-foreign-toplevel (Wayfire's
//! foreign-toplevel plugin), read by the test hook and by OCR; a click on a taskbar
//! button activates its window, read back from the title, and a middle click closes one.
//! Wayfire runs headless in the sid root the Hyprland harness builds, with the pixman
//! renderer, as `nobody` (it refuses root); `scripts/dev.sh labwc` runs this stage too.

mod common;

use std::time::Duration;

use common::sid_compositor::SidCompositor;
use common::{require_root, wait_for};

const WAIT: Duration = Duration::from_secs(30);

#[test]
#[ignore = "needs the sid root (minutes to build): scripts/dev.sh labwc"]
fn wayfire_window_title_and_taskbar_over_foreign_toplevel() {
    let _serial = common::serial();
    require_root();
    let Some(wayfire) = SidCompositor::wayfire() else {
        return;
    };
    let (mut pointer, bar) = wayfire.pointer_and_bar(
        "modules_left = [\"wlr/taskbar\", \"window\"]\nmodules_right = [\"clock\"]\n\
         [\"wlr/taskbar\"]\nformat = \"{icon} {title}\"\n",
    );
    let field = |key: &str| bar.field(key);
    let _one = wayfire.foot(&["-T", "ONE", "--", "sleep", "600"]);
    wait_for("ONE's title", WAIT, || field("window") == "ONE");
    let mut two = wayfire.foot(&["-T", "TWO", "--", "sleep", "600"]);
    wait_for("TWO focused, both on the taskbar", WAIT, || {
        field("window") == "TWO" && field("taskbar") == "ONE:@foot|TWO:active@foot"
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
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");
}
