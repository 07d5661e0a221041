//! ringbar in Debian's Waybar (0.9.17): a `custom/ringbar` module runs `ringbar --waybar`
//! in headless sway, and the bar Waybar draws is read back with OCR (tesseract).

mod common;
#[path = "waybar/more_modules.rs"]
mod more_modules;
#[path = "waybar/side_by_side.rs"]
mod side_by_side;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::session::{Compositor, Session, WIDTH};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);
const BAR_HEIGHT: u32 = 30;
const STRIP: (u32, u32, u32, u32) = (0, 0, WIDTH, BAR_HEIGHT);

/// Black text on white; red only where the module has the class `warning`.
const STYLE: &str = r#"
* { font-family: "DejaVu Sans Mono", monospace; font-size: 16px; border: none; border-radius: 0; }
window#waybar { background: #ffffff; color: #000000; }
#custom-ringbar { padding: 0 10px; }
#custom-ringbar.warning { background: #ff0000; }
"#;

/// A Waybar config whose only module is `custom/ringbar`, a continuous script (no interval).
fn config(exec: &str) -> String {
    format!(
        r#"{{"layer": "top", "position": "top", "height": {BAR_HEIGHT},
            "modules-left": ["custom/ringbar"],
            "custom/ringbar": {{"exec": "{exec}", "return-type": "json", "format": "{{}}"}}}}"#
    )
}

/// A shell script in the user's home standing in for `ringbar --waybar`: one JSON line a
/// second, as Waybar's custom-module protocol wants.
fn stand_in(session: &Session, json: &str) -> PathBuf {
    let script = session.write_home_file(
        "bin/stand-in",
        &format!("#!/bin/sh\nwhile :; do\n    echo '{json}'\n    sleep 1\ndone\n"),
    );
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

fn target_dir() -> PathBuf {
    // target/debug/deps/waybar-HASH
    std::env::current_exe()
        .expect("test binary path")
        .ancestors()
        .nth(3)
        .expect("target dir")
        .to_path_buf()
}

/// `CPU <number>%` somewhere in the text, and `MEM`.
fn shows_cpu_and_memory(text: &str) -> bool {
    text.contains("MEM")
        && text.match_indices("CPU").any(|(at, _)| {
            let rest = text[at + 3..].trim_start();
            let number = rest
                .find(|c: char| !c.is_ascii_digit() && c != '.')
                .map_or(rest, |end| &rest[..end]);
            number.parse::<f64>().is_ok() && rest[number.len()..].starts_with('%')
        })
}

/// The harness alone: Waybar runs a stand-in script, OCR reads its text from the screen,
/// and the JSON's class reaches Waybar's CSS.
#[test]
fn waybar_harness_reads_a_custom_module() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let script = stand_in(
        &session,
        r#"{"text": "CPU 12.3% MEM 1.2G/24G", "tooltip": "x", "class": ["warning"], "percentage": 12}"#,
    );
    let mut waybar = session.start_waybar(&config(&script.display().to_string()), STYLE);
    waybar.wait_for_log("Bar configured");
    wait_for("Waybar to reserve its height", WAIT, || {
        session.workspace_y() == i64::from(BAR_HEIGHT)
    });
    let (text, shot) = waybar.read_screen_until(&session, STRIP, |text| {
        text.contains("CPU") && text.contains("MEM")
    });
    assert!(shows_cpu_and_memory(&text), "read `{text}`");
    assert!(text.contains("CPU 12.3%"), "read `{text}`");

    // `"class": ["warning"]` matched `#custom-ringbar.warning`: the module is red.
    let red = shot.count(0, BAR_HEIGHT as usize, |[r, g, b]| {
        r > 200 && g < 60 && b < 60
    });
    assert!(
        red > 100 * BAR_HEIGHT as usize,
        "the warning class paints the module red ({red} pixels)"
    );
}

/// The real thing: Waybar runs the session's setcap'd ringbar with `--waybar`.
#[test]
fn waybar_shows_ringbar_in_a_custom_module() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let exec = format!("{} --waybar", session.installed_bar().display());
    let mut waybar = session.start_waybar(&config(&exec), STYLE);
    waybar.wait_for_log("Bar configured");
    let (text, _) = waybar.read_screen_until(&session, STRIP, shows_cpu_and_memory);
    let to = target_dir().join("waybar-ringbar.png");
    session.screenshot_png(&format!("0,0 {WIDTH}x{BAR_HEIGHT}"), &to);
    println!("Waybar shows `{text}`; wrote {}", to.display());
}

/// The shipped snippet and style as Waybar 0.9.17 loads them, with a stand-in for ringbar.
#[test]
fn the_shipped_waybar_snippet_and_style_load() {
    let _serial = serial();
    require_root();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/waybar");
    let snippet = fs::read_to_string(data.join("ringbar.jsonc")).expect("ringbar.jsonc");
    let style = fs::read_to_string(data.join("style.css")).expect("style.css");
    let exec = r#""exec": "ringbar --waybar","#;
    assert!(
        snippet.contains(exec),
        "the snippet runs `ringbar --waybar`"
    );

    let session = Session::start(Compositor::Sway);
    let script = stand_in(
        &session,
        r#"{"text": "CPU 97.0% MEM 23G/24G", "tooltip": "x", "class": ["critical"], "percentage": 97}"#,
    );
    let config = snippet.replace(exec, &format!(r#""exec": "{}","#, script.display()));
    let mut waybar = session.start_waybar(&config, &style);
    waybar.wait_for_log("Bar configured");
    // No height in the snippet: Waybar sizes the bar to its font.
    wait_for("Waybar to reserve its height", WAIT, || {
        session.workspace_y() > 0
    });
    let height = u32::try_from(session.workspace_y()).expect("a height");
    let strip = (0, 0, WIDTH, height);
    let (text, shot) = waybar.read_screen_until(&session, strip, shows_cpu_and_memory);
    session.screenshot_png(
        &format!("0,0 {WIDTH}x{height}"),
        &target_dir().join("waybar-snippet.png"),
    );
    assert!(text.contains("CPU 97.0%"), "read `{text}`");
    // `#custom-ringbar.critical { background-color: #cc342b; }`
    let critical = shot.count(0, height as usize, |[r, g, b]| {
        r.abs_diff(0xcc) < 8 && g.abs_diff(0x34) < 8 && b.abs_diff(0x2b) < 8
    });
    assert!(
        critical > 100 * height as usize,
        "the critical rule of style.css applies ({critical} pixels)"
    );
    let log = waybar.log_text();
    assert!(
        !log.contains("[error]") && !log.contains("[warning]"),
        "Waybar accepts the snippet:\n{log}"
    );
}
