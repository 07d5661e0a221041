//! The language and mode modules on a real sway: a keyboard with two layouts (a
//! virtual keyboard, as headless sway has none), switched by `swaymsg` and by a click
//! on the module, and a binding mode entered and left; read by the test hook and by OCR.

use crate::common::session::{Compositor, Session, WIDTH};
use crate::common::{ocr, require_root, serial, wait_for};
use crate::*;

#[test]
fn the_layout_and_the_mode_follow_sway_and_a_click_switches_the_layout() {
    let _serial = serial();
    require_root();
    let session = Session::start_with(
        Compositor::Sway,
        "mode \"resize\" {\n  bindsym Escape mode default\n}\n",
    );
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"mode\", \"language\"]\n\
         [language]\nformat = \"KB {}\"\nformat-de = \"Deutsch\"\n[mode]\nformat = \"MODE {mode}\"\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    // Without a keyboard, nothing to show.
    assert_ne!(bar.field("language.visible"), "true");
    let _keyboard = session.keyboard(&["us", "de"]);
    let field = |key: &str| bar.field(key);
    wait_for("the first layout", WAIT, || field("language") == "KB us");
    let right_text = || ocr::read_text(&session.screenshot(WIDTH - 400, 0, 400, 26));
    wait_for("`KB us` on screen", WAIT, || right_text().contains("KB us"));

    // Switched by sway's own command; the user's own name for it (Waybar's
    // `format-<lang>`), where the first had none and showed its short name.
    session.swaymsg(&["input", "type:keyboard", "xkb_switch_layout", "next"]);
    wait_for("the second layout", WAIT, || {
        field("language") == "KB Deutsch"
    });
    wait_for("`KB Deutsch` on screen", WAIT, || {
        right_text().contains("KB Deutsch")
    });

    // A click on the module switches to the next one (back to the first), in sway too.
    let bounds: Vec<u32> = field("language.bounds")
        .split(',')
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(bounds.len(), 4, "bounds");
    let mut pointer = session.pointer();
    pointer.move_to(bounds[0] + bounds[2] / 2, bounds[1] + bounds[3] / 2);
    std::thread::sleep(std::time::Duration::from_millis(300));
    pointer.click("left");
    wait_for("back to the first layout", WAIT, || {
        field("language") == "KB us"
    });
    let inputs = session.swaymsg(&["-t", "get_inputs", "-r"]);
    assert!(
        inputs.contains("\"xkb_active_layout_name\": \"English (US)\""),
        "{inputs}"
    );

    // A binding mode shows while it lasts.
    assert_ne!(field("mode.visible"), "true", "hidden in the default mode");
    session.swaymsg(&["mode", "resize"]);
    wait_for("the resize mode", WAIT, || field("mode") == "MODE resize");
    wait_for("`MODE resize` on screen", WAIT, || {
        right_text().contains("MODE resize")
    });
    session.swaymsg(&["mode", "default"]);
    wait_for("the default mode, hidden", WAIT, || {
        field("mode.visible") == "false"
    });
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}
