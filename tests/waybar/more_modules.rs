//! More of the modules both bars have, as `side_by_side.rs` compares them: one config in
//! Debian's Waybar and, imported, in ringbar, in one headless sway, read back with OCR.
//! Sway's scratchpad with a window moved there, beside the clock; a real MPD (its song
//! paused) and the real upowerd on a private system bus (a fake laptop battery at 80 %),
//! each with the user's own format and icons; sway's binding mode, the keyboard's layout
//! (a virtual keyboard with two) and gamemoded with two games. Not the backlight:
//! Debian's Waybar 0.9.17 ends with `basic_string::_M_create` on a fake backlight device
//! made as tests/backlight.rs makes one (this machine has none). Nor Waybar's
//! `wireplumber`: started right after WirePlumber, it once read a null sink at 65 % as
//! 0 % and kept that (the volume is compared through `pulseaudio` in side_by_side.rs).

use super::side_by_side::{import, modules, read_bar};
use crate::common::bus::{bus_address, start_session_bus};
use crate::common::gamemode::{register_games, start_daemon};
use crate::common::mpd::{Mpd, PASSWORD};
use crate::common::session::{Compositor, Session};
use crate::common::system_bus;
use crate::common::upower::{start_upowerd, Testbed};
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

const PLAYER_WORDS: [&str; 2] = ["UP", "MPD"];

/// `SOCKET` is MPD's socket; `PASSWORD` its password. UPower's icon comes before `UP`,
/// where the words are not read; the spaces keep OCR from reading it as part of `UP`.
const PLAYER_CONFIG: &str = r#"{
    "layer": "top",
    "height": 30,
    "modules-left": ["upower", "mpd"],
    "modules-center": [],
    "modules-right": [],
    "upower": { "format": "  UP {percentage}", "icon-size": 16 },
    "mpd": {
        "server": "SOCKET",
        "password": "PASSWORD",
        "format": "MPD {stateIcon} {artist} {album} {title} {songPosition}/{queueLength} {totalTime:%M:%S} {randomIcon}",
        "format-stopped": "MPD stopped",
        "state-icons": { "paused": "PAUSED", "playing": "PLAYING" },
        "random-icons": { "on": "SHUFFLE", "off": "INORDER" }
    },
}
"#;

const PLAYER_STYLE: &str = r#"
* { font-family: "DejaVu Sans Mono", monospace; font-size: 16px; border: none; border-radius: 0; }
window#waybar { background: #ffffff; color: #000000; }
#upower, #mpd { padding: 0 12px; color: #000000; }
"#;

#[test]
fn mpd_and_upower_read_the_same_in_both_bars() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let bus = system_bus::start(&session);
    let mut testbed = Testbed::start();
    testbed.add_laptop("Laptop");
    let _upowerd = start_upowerd(&session, &bus, &testbed);
    let mut mpd = Mpd::new(&session);
    mpd.start();
    mpd.mpc(&["update", "--wait"]);
    mpd.mpc(&["add", "/"]);
    mpd.mpc(&["play", "3"]);
    mpd.mpc(&["pause"]);
    wait_for("MPD paused", super::WAIT, || {
        mpd.mpc(&["status"]).contains("[paused]")
    });
    let socket = session.runtime_dir().join("mpd/socket");
    let config = PLAYER_CONFIG
        .replace("SOCKET", &socket.display().to_string())
        .replace("PASSWORD", PASSWORD);
    let system_bus = [("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())];

    let mut waybar = session.start_waybar_with(&config, PLAYER_STYLE, &[], &system_bus);
    waybar.wait_for_log("Bar configured");
    let words = (&PLAYER_WORDS[..], false);
    let (waybar_text, _) = read_bar(&session, "Waybar", words, || waybar.log_text());
    waybar.stop();

    let report = import(&session);
    let bar = session.start_bar(&system_bus);
    bar.wait_for_log("bar on output HEADLESS-1");
    let (ringbar_text, _) = read_bar(&session, "ringbar", words, || bar.log_text());
    let (theirs, ours) = (
        modules(&PLAYER_WORDS, &waybar_text),
        modules(&PLAYER_WORDS, &ringbar_text),
    );
    eprintln!("Waybar: {theirs:?}\nringbar: {ours:?}\nthe import's notes:\n{report}");
    assert_eq!(theirs[0], "UP 80%", "Waybar's display device");
    assert_eq!(
        theirs[1], "MPD PAUSED Gamma Tones Three 3/3 01:00 INORDER",
        "Waybar's MPD"
    );
    assert_eq!(
        ours, theirs,
        "Waybar `{waybar_text}`, ringbar `{ringbar_text}`"
    );
}

const SWAY_WORDS: [&str; 3] = ["MODE", "KB", "GAME"];

const SWAY_CONFIG: &str = r#"{
    "layer": "top",
    "height": 30,
    "modules-left": ["sway/mode", "sway/language", "gamemode"],
    "modules-center": [],
    "modules-right": [],
    "sway/mode": { "format": "MODE {}" },
    "sway/language": { "format": "KB {short} {long}" },
    "gamemode": {
        "format": "GAME {glyph}{count}",
        "use-icon": false,
        "glyph": "G",
        "hide-not-running": false
    },
}
"#;

const SWAY_STYLE: &str = r#"
* { font-family: "DejaVu Sans Mono", monospace; font-size: 16px; border: none; border-radius: 0; }
window#waybar { background: #ffffff; color: #000000; }
#mode, #language, #gamemode { padding: 0 12px; color: #000000; background: #ffffff; }
"#;

#[test]
fn the_mode_the_layout_and_gamemode_read_the_same_in_both_bars() {
    let _serial = serial();
    require_root();
    let session = Session::start_with(
        Compositor::Sway,
        "mode \"resize\" {\n  bindsym Escape mode default\n}\n",
    );
    let _bus = start_session_bus(&session);
    let _gamemoded = start_daemon(&session);
    let _games = register_games(&session, 2);
    let _keyboard = session.keyboard(&["us", "de"]);
    session.swaymsg(&["input", "type:keyboard", "xkb_switch_layout", "next"]);

    // Waybar's gamemode also follows logind's sleep on the system bus: without one, it
    // is disabled.
    let system = system_bus::start(&session);
    let bus = bus_address(&session);
    let buses = [
        ("DBUS_SESSION_BUS_ADDRESS", bus.as_str()),
        ("DBUS_SYSTEM_BUS_ADDRESS", system.address.as_str()),
    ];
    let mut waybar = session.start_waybar_with(SWAY_CONFIG, SWAY_STYLE, &[], &buses);
    waybar.wait_for_log("Bar configured");
    // Waybar learns the mode from sway's events only: it is entered once each bar runs.
    session.swaymsg(&["mode", "resize"]);
    let words = (&SWAY_WORDS[..], false);
    let (waybar_text, _) = read_bar(&session, "Waybar", words, || waybar.log_text());
    waybar.stop();
    session.swaymsg(&["mode", "default"]);

    let report = import(&session);
    let swaysock = session.swaysock();
    let bar = session.start_bar(&[("SWAYSOCK", &swaysock)]);
    bar.wait_for_log("bar on output HEADLESS-1");
    session.swaymsg(&["mode", "resize"]);
    let (ringbar_text, _) = read_bar(&session, "ringbar", words, || bar.log_text());
    let (theirs, ours) = (
        modules(&SWAY_WORDS, &waybar_text),
        modules(&SWAY_WORDS, &ringbar_text),
    );
    eprintln!("Waybar: {theirs:?}\nringbar: {ours:?}\nthe import's notes:\n{report}");
    assert_eq!(theirs, ["MODE resize", "KB de German", "GAME G2"], "Waybar");
    assert_eq!(
        ours, theirs,
        "Waybar `{waybar_text}`, ringbar `{ringbar_text}`"
    );
}
