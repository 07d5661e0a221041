//! The soak test: the bar at its fastest interval (100 ms) in headless sway while
//! processes and threads are created and reaped without pause. After a warm-up, RSS may
//! grow by less than 1 MiB, the fd count must not change, nothing may be logged at warn or
//! error level, and the bar must keep updating.
//!
//! The full run is 10 minutes: `scripts/dev.sh soak` (or RINGBAR_SOAK_SECONDS=600). The
//! test suite runs a shorter one (RINGBAR_SOAK_SECONDS, default 60 s), with the churn
//! target scaled to its length.

mod common;

use std::fs;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use common::session::{Compositor, Session};
use common::*;

/// Processes and threads the full 10-minute run must create and reap.
const CHURN_PER_10_MIN: u64 = 50_000;

fn soak_seconds() -> u64 {
    std::env::var("RINGBAR_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s >= 30)
        .unwrap_or(60)
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

fn rss_kib(pid: u32) -> u64 {
    fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("the bar is alive")
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// The bar's open fds, the fewest of a few looks 20 ms apart: a file it reads for a
/// moment (a process's cmdline for its name) is not a leak, one that stays open is.
fn fd_count(pid: u32) -> usize {
    (0..5)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(20));
            fs::read_dir(format!("/proc/{pid}/fd"))
                .expect("the bar's fds")
                .count()
        })
        .min()
        .unwrap_or(0)
}

/// Warnings and errors in the bar's log.
fn complaints(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR") || l.contains("CRITICAL"))
        .collect()
}

#[test]
fn the_bar_stays_small_and_quiet_under_churn_at_100_ms() {
    let _serial = serial();
    require_root();
    let seconds = soak_seconds();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "interval_ms = 100\n");
    let bar = session.start_bar(&[]);
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
    let log = bar.log_text();
    assert!(complaints(&log).is_empty(), "{log}");
}
