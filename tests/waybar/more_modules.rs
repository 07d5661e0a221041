//! More of the modules both bars have, as `side_by_side.rs` compares them: one config in
//! Debian's Waybar and, imported, in ringbar, in one headless sway, read back with OCR.
//! Sway's scratchpad with a window moved there, beside the clock. Not the backlight:
//! Debian's Waybar 0.9.17 ends with `basic_string::_M_create` on a fake backlight device
//! made as tests/backlight.rs makes one (this machine has none). Nor Waybar's
//! `wireplumber`: started right after WirePlumber, it once read a null sink at 65 % as
//! 0 % and kept that (the volume is compared through `pulseaudio` in side_by_side.rs).

use super::side_by_side::{import, modules, read_bar};
use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};

const WORDS: [&str; 2] = ["STASH", "DAY"];

const CONFIG: &str = r#"{
    "layer": "top",
    "height": 30,
    "modules-left": ["sway/scratchpad"],
    "modules-center": ["clock"],
    "modules-right": [],
    "sway/scratchpad": { "format": "STASH {count}", "show-empty": false },
    "clock": { "format": "DAY {:%d}" },
}
"#;

const STYLE: &str = r#"
* { font-family: "DejaVu Sans Mono", monospace; font-size: 16px; border: none; border-radius: 0; }
window#waybar { background: #ffffff; color: #000000; }
#scratchpad, #clock { padding: 0 8px; color: #000000; }
"#;

#[test]
fn the_scratchpad_reads_the_same_in_both_bars() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let mut flower = session
        .as_user("weston-flower")
        .spawn()
        .expect("start weston-flower");
    wait_for("the flower mapped", super::WAIT, || {
        session
            .swaymsg(&["-t", "get_tree"])
            .contains("org.freedesktop.weston.flower")
    });
    session.swaymsg(&[
        "[app_id=\"org.freedesktop.weston.flower\"]",
        "move",
        "scratchpad",
    ]);

    let mut waybar = session.start_waybar_with_mounts(CONFIG, STYLE, &[]);
    waybar.wait_for_log("Bar configured");
    let (waybar_text, _) = read_bar(&session, "Waybar", (&WORDS, false), || waybar.log_text());
    waybar.stop();

    let report = import(&session);
    let swaysock = session.swaysock();
    let bar = session.start_bar(&[("SWAYSOCK", &swaysock)]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let (ringbar_text, _) = read_bar(&session, "ringbar", (&WORDS, false), || bar.log_text());
    let (theirs, ours) = (
        modules(&WORDS, &waybar_text),
        modules(&WORDS, &ringbar_text),
    );
    eprintln!("Waybar: {theirs:?}\nringbar: {ours:?}\nthe import's notes:\n{report}");
    assert_eq!(theirs[0], "STASH 1", "Waybar's scratchpad");
    assert_eq!(
        ours, theirs,
        "Waybar `{waybar_text}`, ringbar `{ringbar_text}`"
    );
    let _ = flower.kill();
    let _ = flower.wait();
}
