//! The history in the bar: a graph per section drawn under the tooltip's report, its
//! caption naming the peak's culprit, and the `cpu_graph` module's graph in the bar itself,
//! each in the colour the style gives it.

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for, Subject, Subjects};
use crate::*;

/// The CPU graph's colour in the test's style.
fn is_graph_colour([r, g, b]: [u8; 3]) -> bool {
    r > 200 && g < 60 && b > 200
}

#[test]
fn the_tooltip_graphs_the_cpu_and_names_the_spinner_at_its_peak() {
    let _serial = serial();
    require_root();
    let subjects = Subjects::new();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", &format!("interval_ms = 250\n{LEFT_MONITOR}"));
    session.write_config_file("style.css", ".history-graph.cpu { color: #ff00ff; }\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "sampled in");
    // Then a spinner of two threads: the CPU graph rises (unless the machine is busy
    // already) and its peak is the spinner's.
    let _spin = Subject::spawn(
        &subjects.program("rb-hist-spin", "/usr/bin/perl"),
        &[
            "-Mthreads",
            "-e",
            "threads->create(sub { 1 while 1 }); 1 while 1",
        ],
    );
    // The heights, in eighths of 100 %: two spinning threads on two CPUs keep a sample
    // at least half busy, whatever else runs; the first sample after the spinner starts
    // may have caught it for part of its interval only.
    let newest_height = |graphs: &str| {
        let mut cpu = graphs.lines().skip_while(|l| !l.starts_with("cpu "));
        let (_, heights) = (cpu.next(), cpu.next().unwrap_or_default());
        heights.chars().rev().find_map(|c| c.to_digit(10))
    };
    let mut last = String::new();
    wait_for(
        "the CPU graph to name the spinner at its peak, its newest sample half busy",
        WAIT,
        || {
            pointer.move_to(40, 12);
            last = bar.tooltip_graphs();
            let named = last
                .lines()
                .any(|l| l.starts_with("cpu ") && l.contains(", rb-hist-spin"));
            named && newest_height(&last).is_some_and(|h| h >= 4)
        },
    );
    let cpu = last
        .lines()
        .skip_while(|l| !l.starts_with("cpu "))
        .take(2)
        .collect::<Vec<_>>();
    // At least the graph's size, as wide as the tooltip's text.
    let drawn = cpu[0]
        .split_once("drawn=")
        .and_then(|(_, rest)| rest.split_once(' '))
        .map(|(size, _)| size)
        .unwrap_or_default();
    let (width, height) = drawn.split_once('x').unwrap_or_default();
    assert!(
        width.parse::<u32>().is_ok_and(|w| w >= 240) && height == "28",
        "{last}"
    );
    assert!(cpu[0].contains("caption=CPU  last "), "{last}");
    assert!(last.contains("memory used="), "{last}");
    // The text of the tooltip has no sparklines: the graphs replace them.
    assert!(!bar.tooltip_text().contains('▁'), "{}", bar.tooltip_text());

    // Drawn on screen, in the style's colour. The hook speaks when GTK drew the graph;
    // sway shows that frame later, and on a loaded machine (a full run beside builds)
    // once later than a single screenshot.
    let graph_pixels = || {
        session
            .screenshot(0, 0, 600, 600)
            .count(30, 600, is_graph_colour)
    };
    wait_for("the CPU graph on screen in #ff00ff", WAIT, || {
        let pixels = graph_pixels();
        eprintln!("graph pixels: {pixels}");
        pixels > 150
    });
}

#[test]
fn cpu_graph_draws_in_the_bar_and_keeps_the_tooltip() {
    let _serial = serial();
    require_root();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("rb-graph-spin", "/usr/bin/perl"),
        &[
            "-Mthreads",
            "-e",
            "threads->create(sub { 1 while 1 }); 1 while 1",
        ],
    );
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "interval_ms = 250\nmodules_left = [\"cpu_graph\"]\n[cpu_graph]\nwidth = 120\n",
    );
    session.write_config_file("style.css", ".bar-graph.cpu { color: #ff00ff; }\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    // Two spinning threads on two CPUs: every second at least half busy.
    wait_for("three seconds of graph", WAIT, || {
        let graph = bar.field("cpu_graph.graph");
        let heights = graph.split_once("heights=").map_or("", |(_, h)| h);
        let drawn: Vec<u32> = heights.chars().filter_map(|c| c.to_digit(10)).collect();
        drawn.len() >= 3 && drawn[drawn.len() - 2..].iter().all(|&h| h >= 4)
    });
    let graph = bar.field("cpu_graph.graph");
    assert!(graph.contains("drawn=120x"), "{graph}");
    assert_eq!(bar.field("cpu_graph"), "", "no text under the graph");

    // The line in #ff00ff, the area under it a tint of it: at least half of 120×26.
    let shot = session.screenshot(0, 0, 300, 26);
    let tinted = shot.count(0, 26, |[r, g, b]| r > 60 && b > 60 && g < r / 2);
    assert!(
        shot.count(0, 26, is_graph_colour) > 50 && tinted > 120 * 26 / 3,
        "the graph is drawn in the bar in #ff00ff ({tinted} pixels tinted)"
    );
    // The label under the graph still takes the pointer: the monitor's tooltip.
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "rb-graph-spin");
}
