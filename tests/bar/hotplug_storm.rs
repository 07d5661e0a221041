//! A hotplug storm: 100 outputs of a nested sway plugged and unplugged in random order
//! within about 20 s, while the monitor's tooltip is open and clicks come in. After it,
//! one bar per remaining output and none for a gone one, the bar alive, no GTK warning,
//! and its memory and file descriptors back within 10 % of where they were with the same
//! outputs.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::common::session::{Compositor, RunningBar, Session};
use crate::common::storm::{Dice, Footprint};
use crate::common::{require_root, serial, wait_for};
use crate::*;

/// The inner sway's outputs, by name.
fn outputs_of(session: &Session) -> BTreeSet<String> {
    let json: serde_json::Value =
        serde_json::from_str(&session.swaymsg(&["-t", "get_outputs", "-r"])).expect("JSON");
    json.as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o["name"].as_str().map(str::to_owned))
        .collect()
}

/// The bars, the bar's log and the end of the inner sway's log, for a failure.
fn diagnosis(session: &Session, bar: &RunningBar) -> String {
    let log = std::fs::read_to_string(session.path().join("nested.log")).unwrap_or_default();
    let lines: Vec<&str> = log.lines().collect();
    format!(
        "bars {:?}; the bar's log:\n{}\nthe end of sway's log:\n{}",
        bar.bars()
            .iter()
            .map(|b| b["output"].clone())
            .collect::<Vec<_>>(),
        bar.log_text(),
        lines[lines.len().saturating_sub(40)..].join("\n")
    )
}

#[test]
fn a_hotplug_storm_leaves_one_bar_per_output_and_nothing_behind() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::NestedSway);
    // Each nested output is a window of the outer sway. Tiled, every new one would resize
    // the others, which real monitors never do; and GTK 4.8 keeps, for good, the buffer a
    // window showed when it was resized (a known GDK defect, fixed in later GTK).
    session.swaymsg_outer(&["for_window [title=\"^wlroots - \"] floating enable"]);
    session.write_config_file("config.toml", LEFT_MONITOR);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output WL-1");
    let pid = bar.pid();
    // Where GLib still has its slice allocator (before 2.76), which keeps what a storm
    // freed, the bar has started again without it, under its own name.
    let environ = std::fs::read(format!("/proc/{pid}/environ")).expect("environ");
    let slice_off = environ
        .split(|b| *b == 0)
        .any(|v| v == b"G_SLICE=always-malloc");
    let old_glib = gtk4::glib::check_version(2, 76, 0).is_some();
    assert_eq!(slice_off, old_glib, "G_SLICE in the bar's environment");
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).expect("comm");
    assert_eq!(comm.trim(), "ringbar");
    let shown = |bar: &RunningBar| -> BTreeSet<String> {
        bar.bars().iter().map(|b| b["output"].clone()).collect()
    };
    // Warm up with a few outputs that come and go, then measure with WL-1 alone.
    for _ in 0..3 {
        session.swaymsg(&["create_output"]);
    }
    wait_for("four bars", WAIT, || shown(&bar).len() == 4);
    for name in outputs_of(&session).into_iter().filter(|n| n != "WL-1") {
        session.swaymsg_outer(&[&format!("[title=\"wlroots - {name}\"]"), "kill"]);
    }
    let settled = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(200));
        shown(&bar) == outputs_of(&session)
    });
    assert!(settled, "one bar again: {}", diagnosis(&session, &bar));
    // The tooltip shown once, and closed, before and after: its fonts are loaded, and no
    // buffer of its window is counted.
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "every 2000 ms");
    pointer.move_to(600, 400);
    std::thread::sleep(Duration::from_secs(2));
    let before = Footprint::of(pid);

    hover_until_tooltip_shows(&mut pointer, &bar, "every 2000 ms");
    let seed = u64::from(std::process::id()) | 1;
    eprintln!("storm seed {seed}");
    let mut dice = Dice(seed);
    let (mut plugged, mut unplugged) = (0, BTreeSet::new());
    let started = Instant::now();
    while plugged < 100 {
        // An output whose window was just closed may still be listed for a moment.
        let alive: Vec<String> = outputs_of(&session)
            .into_iter()
            .filter(|n| n != "WL-1" && !unplugged.contains(n))
            .collect();
        if alive.is_empty() || dice.roll(2) == 0 {
            session.swaymsg(&["create_output"]);
            plugged += 1;
            if plugged % 25 == 0 {
                pointer.click("left");
            }
        } else {
            let gone = alive[dice.roll(alive.len())].clone();
            // A window the outer sway has not mapped yet matches nothing: roll again.
            if session.try_swaymsg_outer(&[&format!("[title=\"wlroots - {gone}\"]"), "kill"]) {
                unplugged.insert(gone);
            }
        }
    }
    eprintln!(
        "100 outputs plugged and {} unplugged in {:?}",
        unplugged.len(),
        started.elapsed()
    );

    let remaining = outputs_of(&session);
    let one_each = || {
        let bars = bar.bars();
        bars.len() == remaining.len() && shown(&bar) == remaining
    };
    let settled = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(200));
        one_each()
    });
    assert!(
        settled,
        "outputs {remaining:?}; {}",
        diagnosis(&session, &bar)
    );
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());

    // The same outputs as before.
    for name in remaining.iter().filter(|n| *n != "WL-1") {
        session.swaymsg_outer(&[&format!("[title=\"wlroots - {name}\"]"), "kill"]);
    }
    wait_for("WL-1's bar alone", WAIT, || {
        shown(&bar) == BTreeSet::from(["WL-1".to_owned()])
    });
    pointer.move_to(600, 400);
    // Windows go half a second after their output, and the heap is trimmed a second later.
    std::thread::sleep(Duration::from_secs(3));
    let after = Footprint::of(pid);
    eprintln!("before {before:?}, after {after:?}");
    // The bar and its tooltip.
    after.assert_back_to(&before, 2);
    let log = bar.log_text();
    assert!(
        !log.contains("Gtk-CRITICAL") && !log.contains("Gtk-WARNING") && !log.contains("panicked"),
        "{log}"
    );
    wait_for("numbers still drawn", WAIT, || {
        bar.field("cpu").ends_with('%')
    });
}
