//! `[[bar]]` on real sway with two headless outputs: a left, vertical bar on one and a
//! top bar on the other, each with its own modules; checked by the test hook, by OCR
//! and by the space sway reserves for each (its workspaces' rects). An output added
//! later gets the bar whose `output` matches it. The left bar turns its labels' text
//! (`rotate = 270`) but for the clock's, which its own table keeps upright.

use std::collections::HashMap;

use crate::common::session::{Compositor, Session};
use crate::common::{ocr, require_root, serial, wait_for};
use crate::*;

const CONFIG: &str = "[clock]\nformat = \"%H:%M\"\nrotate = 0\n\
    [[bar]]\noutput = \"HEADLESS-1\"\nposition = \"left\"\nwidth = 64\nrotate = 270\n\
    modules_left = [\"clock\"]\nmodules_center = [\"memory\"]\nmodules_right = [\"cpu\"]\n\
    [[bar]]\noutput = \"!HEADLESS-1\"\nposition = \"top\"\nheight = 30\n\
    modules_left = [\"workspaces\"]\nmodules_center = []\nmodules_right = [\"memory\"]\n";

/// Each output's rect and its workspace's rect, by output name: (x, y, w, h) twice.
fn rects(session: &Session) -> HashMap<String, ([i64; 4], [i64; 4])> {
    let rect = |v: &serde_json::Value| {
        ["x", "y", "width", "height"].map(|k| v["rect"][k].as_i64().expect("rect field"))
    };
    let outputs: serde_json::Value =
        serde_json::from_str(&session.swaymsg(&["-t", "get_outputs", "-r"])).expect("JSON");
    let workspaces: serde_json::Value =
        serde_json::from_str(&session.swaymsg(&["-t", "get_workspaces", "-r"])).expect("JSON");
    let mut found = HashMap::new();
    for output in outputs.as_array().expect("outputs") {
        let name = output["name"].as_str().expect("name").to_owned();
        let workspace = workspaces
            .as_array()
            .expect("workspaces")
            .iter()
            .find(|w| w["output"] == output["name"]);
        if let Some(workspace) = workspace {
            found.insert(name, (rect(output), rect(workspace)));
        }
    }
    found
}

fn bar_on<'a>(bars: &'a [HashMap<String, String>], output: &str) -> &'a HashMap<String, String> {
    bars.iter()
        .find(|b| b["output"] == output)
        .unwrap_or_else(|| panic!("a bar on {output}: {bars:?}"))
}

fn numbers(field: &str) -> Vec<i64> {
    field
        .split([',', 'x'])
        .filter_map(|n| n.parse().ok())
        .collect()
}

#[test]
fn each_output_gets_the_bar_that_names_it() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.swaymsg(&["create_output"]);
    session.write_config_file("config.toml", CONFIG);
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    bar.wait_for_log("bar on output HEADLESS-2");
    wait_for("both bars drawn", WAIT, || {
        let bars = bar.bars();
        bars.len() == 2
            && bars.iter().all(|b| b["mapped"] == "true")
            && bars
                .iter()
                .any(|b| b.get("cpu").is_some_and(|c| c.ends_with('%')))
            && bars
                .iter()
                .any(|b| b.get("memory").is_some_and(|m| !m.is_empty()))
    });
    let bars = bar.bars();
    let (left, top) = (bar_on(&bars, "HEADLESS-1"), bar_on(&bars, "HEADLESS-2"));
    assert_eq!((left["spec"].as_str(), top["spec"].as_str()), ("0", "1"));
    // Each bar has its own modules.
    assert!(
        left.contains_key("clock") && left.contains_key("cpu"),
        "{left:?}"
    );
    assert!(!left.contains_key("workspaces"), "{left:?}");
    assert!(
        top.contains_key("memory") && top.contains_key("workspaces"),
        "{top:?}"
    );
    assert!(!top.contains_key("cpu") && !top.contains_key("clock"));

    // The left bar is 64 px wide and as tall as its output; the top one 30 px tall.
    let rects = rects(&session);
    let (out1, ws1) = rects["HEADLESS-1"];
    let (out2, ws2) = rects["HEADLESS-2"];
    assert_eq!(numbers(&left["size"]), [64, out1[3]], "{left:?}");
    assert_eq!(numbers(&top["size"]), [out2[2], 30], "{top:?}");
    // sway keeps each bar's edge free of windows: the exclusive zones.
    assert_eq!(
        (ws1[0] - out1[0], ws1[1] - out1[1]),
        (64, 0),
        "{ws1:?} on {out1:?}"
    );
    assert_eq!(ws1[2], out1[2] - 64);
    assert_eq!(
        (ws2[0] - out2[0], ws2[1] - out2[1]),
        (0, 30),
        "{ws2:?} on {out2:?}"
    );

    // Stacked top to bottom, each label within the width: the clock at the top, the
    // CPU at the bottom. The memory and CPU labels are turned: taller than wide.
    let clock = numbers(&left["clock.bounds"]);
    let memory = numbers(&left["memory.bounds"]);
    let cpu = numbers(&left["cpu.bounds"]);
    for (name, bounds) in [("clock", &clock), ("memory", &memory), ("cpu", &cpu)] {
        assert!(
            bounds[0] >= 0 && bounds[0] + bounds[2] <= 64,
            "{name} {bounds:?}"
        );
    }
    assert!(
        clock[1] < 60 && cpu[1] > out1[3] / 2,
        "clock {clock:?}, cpu {cpu:?}"
    );
    assert!(clock[2] > clock[3], "the clock upright: {clock:?}");
    assert!(memory[3] > memory[2], "the memory label turned: {memory:?}");
    let turned = session.screenshot(
        (out1[0] + memory[0]) as u32,
        (out1[1] + memory[1]) as u32,
        memory[2] as u32,
        memory[3] as u32,
    );
    let text = ocr::read_text(&turned.turned_clockwise());
    assert!(
        text.starts_with("MEM"),
        "the turned memory label reads {text:?}"
    );
    // Read by OCR: the clock on the left bar, the memory label on the top one.
    let time = ocr::read_text(&session.screenshot(
        (out1[0] + clock[0]) as u32,
        (out1[1] + clock[1]) as u32,
        clock[2] as u32,
        clock[3] as u32,
    ));
    assert!(
        time.len() == 5 && time.as_bytes()[2] == b':',
        "the clock reads {time:?}"
    );
    let strip = ocr::read_text(&session.screenshot(
        (out2[0] + out2[2] - 400) as u32,
        out2[1] as u32,
        400,
        30,
    ));
    assert!(strip.contains("MEM"), "the top bar reads {strip:?}");

    // An output plugged in later gets the bar that matches it: the top one.
    session.swaymsg(&["create_output"]);
    bar.wait_for_log("bar on output HEADLESS-3");
    wait_for("a bar on HEADLESS-3", WAIT, || {
        bar.bars()
            .iter()
            .any(|b| b["output"] == "HEADLESS-3" && b["spec"] == "1" && b["mapped"] == "true")
    });
    assert_eq!(bar.bars().len(), 3, "one bar per output");
}

/// Waybar's `separate-outputs`: the bar on the output without the focus shows the window
/// last focused there, by sway's tree; the focused output's bar shows the focused one.
#[test]
fn separate_outputs_show_each_outputs_own_window() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.swaymsg(&["create_output"]);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"window\"]\nmodules_center = []\nmodules_right = []\n\
         [window]\nformat = \"{title} ({app_id})\"\nseparate-outputs = true\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-2");
    session.swaymsg(&["focus", "output", "HEADLESS-2"]);
    let mut flower = session
        .as_user("weston-flower")
        .spawn()
        .expect("start weston-flower");
    // Its app id is `weston-flower` or, in newer westons, `org.freedesktop.weston.flower`.
    let is_flower = |shown: Option<String>| {
        shown.is_some_and(|s| s.starts_with("Flower (") && s.ends_with("flower)"))
    };
    let window_on = |output: &str| {
        let bars = bar.bars();
        let bar = bar_on(&bars, output);
        (bar["window.visible"] == "true").then(|| bar["window"].clone())
    };
    wait_for("the flower on HEADLESS-2's bar", WAIT, || {
        is_flower(window_on("HEADLESS-2")) && window_on("HEADLESS-1").is_none()
    });
    // The focus goes to the other output, whose workspace is empty: no window there,
    // and HEADLESS-2's bar still shows its own.
    session.swaymsg(&["focus", "output", "HEADLESS-1"]);
    wait_for("each bar with its output's window", WAIT, || {
        is_flower(window_on("HEADLESS-2")) && window_on("HEADLESS-1").is_none()
    });
    let focused: serde_json::Value =
        serde_json::from_str(&session.swaymsg(&["-t", "get_workspaces", "-r"])).expect("JSON");
    let focused_output = focused
        .as_array()
        .expect("workspaces")
        .iter()
        .find(|w| w["focused"] == true)
        .map(|w| w["output"].clone());
    assert_eq!(
        focused_output,
        Some("HEADLESS-1".into()),
        "sway moved the focus"
    );
    let _ = flower.kill();
    let _ = flower.wait();
    wait_for("no window left", WAIT, || window_on("HEADLESS-2").is_none());
}

/// An output given a new mode: its bar spans the new width, with its right-hand module
/// at the new right edge, and sway's space for windows starts below the bar again.
#[test]
fn a_bar_follows_its_output_to_a_new_size() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "height = 30\nmodules_left = []\nmodules_center = []\nmodules_right = [\"clock\"]\n\
         [clock]\nformat = \"%Y\"\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    for (width, height) in [(1024, 600), (1600, 900)] {
        session.swaymsg(&["output", "HEADLESS-1", "mode", &format!("{width}x{height}")]);
        let right_edge = || {
            let bars = bar.bars();
            let first = bars.first().cloned().unwrap_or_default();
            let bounds: Vec<i64> = first
                .get("clock.bounds")
                .map(|b| b.split(',').filter_map(|n| n.parse().ok()).collect())
                .unwrap_or_default();
            (
                first.get("size").cloned(),
                bounds.first().zip(bounds.get(2)).map(|(x, w)| x + w),
            )
        };
        wait_for(&format!("the bar {width} wide"), WAIT, || {
            let (size, right) = right_edge();
            size.as_deref() == Some(&format!("{width}x30")) && right.is_some_and(|r| r > width - 40)
        });
        let (_, workspace) = rects(&session)["HEADLESS-1"];
        assert_eq!(
            workspace,
            [0, 30, width, height - 30],
            "sway's space for windows on a {width}x{height} output"
        );
    }
}
