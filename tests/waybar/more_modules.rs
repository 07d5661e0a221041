//! More of the modules both bars have, as `side_by_side.rs` compares them: one config in
//! Debian's Waybar and, imported, in ringbar, in one headless sway, read back with OCR.
//! Sway's scratchpad with a window moved there, and the volume by Waybar's `wireplumber`
//! module (a real PipeWire's null sink at 65 %). Not the backlight: Debian's Waybar
//! 0.9.17 ends with `basic_string::_M_create` on a fake backlight device made as
//! tests/backlight.rs makes one (this machine has none).

use super::side_by_side::{import, modules, read_bar};
use crate::common::bus::start_session_bus;
use crate::common::session::{Compositor, Session};
use crate::common::sound::Sound;
use crate::common::{require_root, serial, wait_for};

const WORDS: [&str; 3] = ["STASH", "DAY", "VOL"];

const CONFIG: &str = r#"{
    "layer": "top",
    "height": 30,
    "modules-left": ["sway/scratchpad"],
    "modules-center": ["clock"],
    "modules-right": ["wireplumber"],
    "sway/scratchpad": { "format": "STASH {count}", "show-empty": false },
    "clock": { "format": "DAY {:%d}" },
    "wireplumber": { "format": "VOL {volume}%", "format-muted": "VOL off" },
}
"#;

const STYLE: &str = r#"
* { font-family: "DejaVu Sans Mono", monospace; font-size: 16px; border: none; border-radius: 0; }
window#waybar { background: #ffffff; color: #000000; }
#scratchpad, #clock, #wireplumber { padding: 0 8px; color: #000000; }
"#;

#[test]
fn the_scratchpad_volume_and_backlight_read_the_same_in_both_bars() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let sound = Sound::start(&session);
    sound.run("pactl", &["set-sink-volume", "@DEFAULT_SINK@", "65%"]);
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
    assert_eq!(theirs[2], "VOL 65%", "Waybar's wireplumber");
    assert_eq!(
        ours, theirs,
        "Waybar `{waybar_text}`, ringbar `{ringbar_text}`"
    );
    let _ = flower.kill();
    let _ = flower.wait();
}
