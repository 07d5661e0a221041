//! The heap start-up left free is given back: when the sampling thread has handed its
//! sampler to the main loop, malloc's free pages (the ended thread's arena among them)
//! go back to the system, as the kernel counts the bar's resident memory around the trim;
//! after start-up the bar's private anonymous memory is below what it held as it first
//! showed; and the bar goes on sampling. Read from the bar's log and its
//! `/proc/PID/smaps_rollup`.

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial};
use crate::*;

/// Resident KiB of private anonymous memory in process `pid`.
fn anonymous_kib(pid: u32) -> u64 {
    let rollup =
        std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).expect("smaps_rollup");
    rollup
        .lines()
        .find_map(|line| line.strip_prefix("Anonymous:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no Anonymous line in {rollup}"))
}

/// The KiB the bar's log says the trim after `what` gave back.
fn given_back_kib(log: &str, what: &str) -> u64 {
    let line = format!("heap trimmed after {what}: ");
    log.lines()
        .find_map(|l| l.split_once(&line)?.1.strip_suffix(" KiB given back"))
        .and_then(|kib| kib.parse().ok())
        .unwrap_or_else(|| panic!("no `{line}` in the bar's log:\n{log}"))
}

#[test]
fn the_heap_start_up_left_free_is_given_back() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "interval_ms = 250\nmodules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\n\
         modules_right = [\"cpu\", \"memory\"]\n",
    );
    let bar = session.start_bar(&[
        ("SWAYSOCK", &session.swaysock()),
        ("RINGBAR_LOG", "ringbar::ui=debug,ringbar::app=debug"),
    ]);
    wait_for("the cpu", WAIT, || !bar.field("cpu").is_empty());
    let first = anonymous_kib(bar.pid());
    // The sampler comes to the main loop after some short samples (2 s at 250 ms).
    bar.wait_for_log("heap trimmed after the sampling thread");
    let handed_over = given_back_kib(&bar.log_text(), "the sampling thread");
    // 660 to 750 KiB in runs here.
    assert!(
        handed_over >= 256,
        "{handed_over} KiB given back after the sampling thread"
    );
    // Start-up's memory is given back 10 s after the bars show.
    bar.wait_for_log("heap trimmed after start-up");
    let later = anonymous_kib(bar.pid());
    eprintln!("{handed_over} KiB given back after the sampling thread; {first} -> {later} KiB");
    assert!(
        later < first,
        "{first} KiB of private anonymous memory as the bar showed, {later} KiB later; \
         the bar's log:\n{}",
        bar.log_text()
    );
    // Still sampling on the main loop: a spinning thread moves the cpu label.
    let cpu = bar.field("cpu");
    let spinning = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let spinner = std::thread::spawn({
        let spinning = spinning.clone();
        move || while spinning.load(std::sync::atomic::Ordering::Relaxed) {}
    });
    wait_for("a new cpu reading", WAIT, || bar.field("cpu") != cpu);
    spinning.store(false, std::sync::atomic::Ordering::Relaxed);
    spinner.join().expect("the spinner");
}
