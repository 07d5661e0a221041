//! Nothing slow on the GTK thread: with the /proc fallback slowed down by 3,000 extra
//! processes (more on a machine fast enough to walk them in under 10 ms) at a 100 ms
//! interval, a 16 ms timer on the main loop still fires on time
//! (the test hook's `stalls` file, one line per sample), and a `ringbar msg` or a click
//! takes effect at once. A stderr nobody reads (a full pipe) holds up nothing.

use std::time::{Duration, Instant};

use crate::common::crowd::Crowd;
use crate::common::session::{Compositor, Session, WIDTH};
use crate::common::{require_root, serial, thread_names, wait_for};
use crate::*;

/// One line of `stalls`: the main loop's worst stall since the previous sample and how
/// long the sample took (µs), and its interval (ms).
#[derive(Clone, Copy, Debug)]
struct Tick {
    stall_us: u64,
    sample_us: u64,
    interval_ms: u32,
}

fn ticks(session: &Session) -> Vec<Tick> {
    let text = std::fs::read_to_string(session.hook_dir().join("stalls")).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(' ');
            Some(Tick {
                stall_us: fields.next()?.parse().ok()?,
                sample_us: fields.next()?.parse().ok()?,
                interval_ms: fields.next()?.parse().ok()?,
            })
        })
        .collect()
}

/// A sample long enough that a stall of its length would stand far out of the main
/// loop's own jitter (about a millisecond), and above the 4 ms past which samples leave
/// the main loop (the debug build: 20 to 30 ms here with 3,000 more processes).
const SLOW_SAMPLE_US: u64 = 10_000;
/// Crowds of 3,000 sleeping processes at most, should one not slow the walk enough.
const MOST_CROWDS: usize = 4;

fn sorted(mut values: Vec<u64>) -> Vec<u64> {
    values.sort_unstable();
    values
}

/// Waits for a sample at `interval_ms` after `ticks_before` lines; how long it took.
fn time_to_interval(session: &Session, ticks_before: usize, interval_ms: u32) -> Duration {
    let asked = Instant::now();
    wait_for(&format!("a sample every {interval_ms} ms"), WAIT, || {
        ticks(session)
            .iter()
            .skip(ticks_before)
            .any(|t| t.interval_ms == interval_ms)
    });
    asked.elapsed()
}

#[test]
fn the_main_loop_keeps_running_while_the_proc_walk_is_slow() {
    let _serial = serial();
    require_root();
    let mut crowds = vec![Crowd::sleepers(3000)];
    let session = Session::start(Compositor::Sway);
    // The CPU label at the right end: the ⚠ marker (the probe is off) is at the left.
    session.write_config_file(
        "config.toml",
        "interval_ms = 100\nmodules_left = []\nmodules_center = []\nmodules_right = [\"cpu\"]\n",
    );
    // Without capabilities the probe cannot load: the numbers come from /proc.
    let bar = session.start_bar_without_capabilities();
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("ten samples", WAIT, || ticks(&session).len() >= 10);
    // Five seconds of samples; on a machine that walks the crowd quickly, again with
    // another crowd.
    let (steady, samples) = loop {
        let seen = ticks(&session).len();
        std::thread::sleep(Duration::from_secs(5));
        let steady: Vec<Tick> = ticks(&session).into_iter().skip(seen).collect();
        let samples = sorted(steady.iter().map(|t| t.sample_us).collect());
        let median = samples.get(samples.len() / 2).copied().unwrap_or(0);
        if median >= SLOW_SAMPLE_US || crowds.len() == MOST_CROWDS {
            break (steady, samples);
        }
        crowds.push(Crowd::sleepers(3000));
    };
    assert!(steady.len() >= 10, "samples in 5 s: {steady:?}");
    assert!(steady.iter().all(|t| t.interval_ms == 100), "{steady:?}");
    let stalls = sorted(steady.iter().map(|t| t.stall_us).collect());
    let sample_us = samples[samples.len() / 2];
    let p90_stall_us = stalls[stalls.len() * 9 / 10];
    eprintln!(
        "{} samples with {} more processes: median {sample_us} µs; main-loop stall per \
         sample: median {} µs, 90th percentile {p90_stall_us} µs, worst {} µs",
        steady.len(),
        crowds.len() * 3000,
        stalls[stalls.len() / 2],
        stalls[stalls.len() - 1]
    );
    assert!(
        sample_us >= SLOW_SAMPLE_US,
        "{} more processes make the /proc walk slow: {samples:?}",
        crowds.len() * 3000
    );
    let threads = thread_names(bar.pid());
    assert!(
        threads
            .iter()
            .any(|name| name == ringbar::app::worker::THREAD_NAME),
        "long samples stay on the sampling thread: {threads:?}"
    );
    assert!(
        p90_stall_us * 4 < sample_us,
        "the main loop stalls for a sample's duration: stalls {stalls:?}, samples {samples:?}"
    );

    // `ringbar msg` is answered, and the new interval sampled, at once: 100 → 2000 ms.
    let ringbar = session.path().join("ringbar-nocaps");
    let before = ticks(&session).len();
    let asked = Instant::now();
    let out = session
        .as_user(&ringbar)
        .args(["msg", "cycle-interval"])
        .output()
        .expect("run ringbar msg");
    eprintln!(
        "`ringbar msg cycle-interval` answered in {:?}",
        asked.elapsed()
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    bar.wait_for_log("interval=2000ms");
    let took = time_to_interval(&session, before, 2000);
    eprintln!("the first sample at 2000 ms came after {took:?}");

    // A click: 2000 → 1000 ms, sampled at once rather than at the next 2 s tick.
    let mut pointer = session.pointer();
    // Over the CPU label: the pointer enters the bar, then moves on it.
    for x in [WIDTH - 25, WIDTH - 30] {
        pointer.move_to(x, 12);
        std::thread::sleep(Duration::from_millis(500));
    }
    let before = ticks(&session).len();
    pointer.click("left");
    bar.wait_for_log("interval=1000ms");
    let took = time_to_interval(&session, before, 1000);
    eprintln!("the first sample at 1000 ms came {took:?} after the click");
    assert!(
        took < Duration::from_millis(1000),
        "a click samples at once: {took:?}"
    );
}

/// A bar started with its stderr on a pipe that is full and never read, as a log pipe
/// whose reader is stuck would be: its log lines are written by a thread of their own,
/// so the bar still draws and its main loop stays on time.
#[test]
fn a_full_stderr_pipe_holds_up_nothing() {
    use std::io::Write;
    use std::os::fd::AsRawFd;

    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "interval_ms = 250\nmodules_left = [\"memory\"]\nmodules_center = [\"clock\"]\n\
         modules_right = [\"cpu\"]\n",
    );
    let (reader, mut writer) = std::io::pipe().expect("a pipe");
    // The smallest pipe the kernel makes (a page), filled: the next write would wait.
    // SAFETY: F_SETPIPE_SZ on a pipe this test owns; it returns the size set or -1.
    let size = unsafe { libc::fcntl(writer.as_raw_fd(), libc::F_SETPIPE_SZ, 4096) };
    assert!(size > 0, "F_SETPIPE_SZ");
    let size = usize::try_from(size).expect("a pipe's size");
    writer.write_all(&vec![b'x'; size]).expect("fill the pipe");
    let window = crate::common::stalls::Window::open(&session.hook_dir());
    let mut bar = session.start_bar_with_stderr(writer.into());
    wait_for("the bar drawn", WAIT, || {
        bar.field("memory").starts_with("MEM")
    });
    std::thread::sleep(Duration::from_secs(3));
    assert!(bar.try_wait().is_none(), "the bar runs");
    window.assert_on_time("a full stderr pipe");
    drop(reader);
    bar.stop();
}
