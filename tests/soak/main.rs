//! The soak test: the bar at its fastest interval (100 ms) in headless sway while
//! processes and threads are created and reaped without pause. After a warm-up, RSS may
//! grow by less than 1 MiB, the fd count (less the /proc files the fallback holds, none
//! of which may belong to a process that is gone) must not change, nothing may be logged
//! at warn or error level, and the bar must keep updating.
//!
//! Run on the BPF probe, and on the /proc fallback among 3,000 sleeping processes.
//!
//! The full run is 10 minutes: `scripts/dev.sh soak` (or RINGBAR_SOAK_SECONDS=600). The
//! test suite runs a shorter one (RINGBAR_SOAK_SECONDS, default 60 s), with the churn
//! target scaled to its length.
//!
//! `daily` soaks the whole bar instead, every module on real services under a day's churn.

#[path = "../common/mod.rs"]
mod common;
mod daily;
// Shared with the benchmark and the tray tests, which use the rest.
#[allow(dead_code)]
#[path = "../bench/fake_sys.rs"]
mod fake_sys;
#[allow(dead_code, unused_imports)]
#[path = "../tray/support.rs"]
mod tray_support;

use std::fs;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use common::session::{Compositor, Session};
use common::*;

/// Processes and threads the full 10-minute run must create and reap.
const CHURN_PER_10_MIN: u64 = 50_000;

/// The run's length in seconds from `variable`: `default` unless it says `minimum` or more.
fn seconds_from(variable: &str, minimum: u64, default: u64) -> u64 {
    std::env::var(variable)
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s >= minimum)
        .unwrap_or(default)
}

/// `processes` of /proc/stat: forks since boot (threads included).
fn forks_since_boot() -> u64 {
    fs::read_to_string("/proc/stat")
        .expect("/proc/stat")
        .lines()
        .find_map(|l| l.strip_prefix("processes "))
        .and_then(|n| n.trim().parse().ok())
        .expect("processes line")
}

/// A /proc file the fallback holds (`/proc/PID/stat`, `statm`, `io`): its process.
fn held_proc_file(link: &std::path::Path) -> Option<u32> {
    let rest = link.to_str()?.strip_prefix("/proc/")?;
    let (pid, file) = rest.split_once('/')?;
    matches!(file, "stat" | "statm" | "io").then_some(())?;
    pid.parse().ok()
}

/// The bar's fds other than the /proc files the fallback holds (those follow the machine's
/// processes, which another run sharing the machine starts and ends), and how many of
/// those belong to processes that are gone.
fn fds(pid: u32) -> (usize, usize) {
    let (mut other, mut gone) = (0, 0);
    for entry in fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("the bar's fds")
        .flatten()
    {
        match fs::read_link(entry.path())
            .ok()
            .as_deref()
            .and_then(held_proc_file)
        {
            Some(owner) if !std::path::Path::new(&format!("/proc/{owner}")).exists() => gone += 1,
            Some(_) => {}
            None => other += 1,
        }
    }
    (other, gone)
}

/// The bar's open fds (but the fallback's held /proc files), the fewest of a few looks
/// 20 ms apart: a file it reads for a moment (a process's cmdline for its name) is not a
/// leak, one that stays open is. Held files of a process that is gone must be closed by
/// the next sample: none in at least one look.
fn fd_count(pid: u32) -> usize {
    let looks: Vec<(usize, usize)> = (0..5)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(20));
            fds(pid)
        })
        .collect();
    let gone = looks.iter().map(|l| l.1).min().unwrap_or(0);
    assert_eq!(gone, 0, "the bar holds files of processes that are gone");
    looks.iter().map(|l| l.0).min().unwrap_or(0)
}

/// Fds on /proc/PID files, all told.
fn held_count(pid: u32) -> usize {
    fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("the bar's fds")
        .flatten()
        .filter(|e| {
            fs::read_link(e.path())
                .ok()
                .as_deref()
                .and_then(held_proc_file)
                .is_some()
        })
        .count()
}

/// Warnings and errors in the bar's log.
fn complaints(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR") || l.contains("CRITICAL"))
        .collect()
}

#[test]
fn the_bar_stays_small_and_quiet_under_churn_at_100_ms() {
    soak(Source::Probe, 0);
}

/// The same on the /proc fallback (a copy without capabilities), among 3,000 more
/// sleeping processes: their files stay open from sample to sample, and the fd count
/// must still not change while the churn's short-lived processes come and go.
#[test]
fn the_fallback_stays_small_and_quiet_among_3000_processes() {
    soak(Source::Proc, 3000);
}

#[derive(Clone, Copy, PartialEq)]
enum Source {
    Probe,
    Proc,
}

fn soak(source: Source, sleepers: usize) {
    let _serial = serial();
    require_root();
    let seconds = seconds_from("RINGBAR_SOAK_SECONDS", 30, 60);
    let crowd = Subjects::new();
    let sleep = crowd.program("rb-crowd", "/bin/sleep");
    let _crowd: Vec<Subject> = (0..sleepers)
        .map(|_| Subject::spawn(&sleep, &["3600"]))
        .collect();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "interval_ms = 100\n");
    let bar = match source {
        Source::Probe => session.start_bar(&[]),
        Source::Proc => session.start_bar_without_capabilities(),
    };
    bar.wait_for_log("interval=100ms");
    bar.wait_for_log("bar on output HEADLESS-1");
    let pid = bar.pid();

    // Churn: a shell forking and reaping /bin/true, and short-lived threads here.
    let subjects = Subjects::new();
    let _forker = Subject::spawn(
        &subjects.program("rb-churn", "/bin/sh"),
        &["-c", "while :; do /bin/true; done"],
    );
    let stop = Arc::new(AtomicBool::new(false));
    let threads_made = Arc::new(AtomicU64::new(0));
    let spawner = {
        let (stop, made) = (stop.clone(), threads_made.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let batch: Vec<_> = (0..20)
                    .map(|_| std::thread::spawn(|| std::hint::black_box(1 + 1)))
                    .collect();
                for thread in batch {
                    thread.join().expect("join");
                }
                made.fetch_add(20, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };

    let started = Instant::now();
    let forks_before = forks_since_boot();
    // GTK, glib and the model's tables reach their working size in the first ~20 s.
    let warm_up = Duration::from_secs((seconds / 5).max(20));
    std::thread::sleep(warm_up);
    let (rss_warm, fds_warm) = (rss_kib(pid), fd_count(pid));
    let mut rss_max = rss_warm;

    // Every few seconds: the bar still updates (the test hook rewrites its state on
    // every tick), and its fds stay the same.
    let hook = session.hook_dir().join("bars");
    while started.elapsed() < Duration::from_secs(seconds) {
        std::thread::sleep(Duration::from_secs(5));
        let written = fs::metadata(&hook)
            .and_then(|m| m.modified())
            .expect("the bar's state file");
        let age = SystemTime::now()
            .duration_since(written)
            .unwrap_or_default();
        assert!(
            age < Duration::from_secs(2),
            "the bar stopped updating {age:?} ago"
        );
        assert_eq!(fd_count(pid), fds_warm, "fds changed");
        let rss = rss_kib(pid);
        println!("{:>4}s RSS {rss} KiB", started.elapsed().as_secs());
        rss_max = rss_max.max(rss);
    }
    stop.store(true, Ordering::Relaxed);
    spawner.join().expect("spawner");
    let churn = forks_since_boot() - forks_before;
    let rss_end = rss_kib(pid);
    rss_max = rss_max.max(rss_end);

    let wanted = CHURN_PER_10_MIN * seconds / 600;
    println!(
        "soak {seconds}s: {churn} processes and threads ({} threads from the test), \
         RSS {rss_warm} KiB after warm-up, {rss_end} KiB at the end, {rss_max} KiB max, \
         {fds_warm} fds",
        threads_made.load(Ordering::Relaxed)
    );
    assert!(
        churn >= wanted,
        "only {churn} processes and threads, wanted {wanted}"
    );
    assert!(
        rss_max < rss_warm + 1024,
        "RSS grew from {rss_warm} KiB to {rss_max} KiB"
    );
    assert_eq!(fd_count(pid), fds_warm);
    let bars = bar.bars();
    assert!(bars[0]["cpu"].ends_with('%'), "{bars:?}");
    if source == Source::Proc {
        // Held: at least stat and statm of each of the crowd (root's io is refused).
        let held = held_count(pid);
        assert!(held >= 2 * sleepers, "{held} /proc files held");
    }
    let log = bar.log_text();
    // The fallback's one warning at start-up says why; nothing else may complain.
    let complaints: Vec<_> = complaints(&log)
        .into_iter()
        .filter(|l| source == Source::Probe || !l.contains("BPF probe"))
        .collect();
    assert!(complaints.is_empty(), "{log}");
}
