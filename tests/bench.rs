//! The benchmark: ringbar measured side by side with the alternatives on one machine, in
//! one run. Not part of the test suite (it takes minutes and needs Waybar): run it with
//! `scripts/dev.sh bench`, which builds in release mode, or
//! `cargo test --release --features test-support --test bench -- --ignored --exact
//! benchmark --nocapture`.
//!
//! It prints a table and writes `target/bench/report.md`. Ratios, not absolute times, are
//! the results: every pair is measured back to back under the same load.
//! RINGBAR_BENCH_SECONDS sets the whole-bar measuring window (default 60 s per run);
//! RINGBAR_BENCH_SECTIONS=3 runs only the whole-bar section (any of 1 to 10, comma
//! separated) and writes `target/bench/report-sections.md` instead.
//!
//! The sections live in `tests/bench/`: `sampling` (1, 2), `whole_bar` (3, with
//! `yambar`, `cgroup`, `fake_sys`, `usage` and `runs`), `ticks` (4, 5), `readers` (6), `stall`
//! (7), `fallback` (8), `phases` (9) and `network_tax` (10).

#[path = "bench/cgroup.rs"]
mod cgroup;
mod common;
#[path = "bench/fake_sys.rs"]
mod fake_sys;
#[path = "bench/fallback.rs"]
mod fallback;
#[path = "bench/network_tax.rs"]
mod network_tax;
#[path = "bench/phases.rs"]
mod phases;
#[path = "bench/readers.rs"]
mod readers;
#[path = "bench/report.rs"]
mod report;
#[path = "bench/runs.rs"]
mod runs;
#[path = "bench/sampling.rs"]
mod sampling;
#[path = "bench/stall.rs"]
mod stall;
#[path = "bench/ticks.rs"]
mod ticks;
#[path = "bench/usage.rs"]
mod usage;
#[path = "bench/whole_bar.rs"]
mod whole_bar;
#[path = "bench/yambar.rs"]
mod yambar;

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::Path;

use common::alloc::CountingAllocator;
use common::*;
use report::{machine, Report};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Not a test: with the crowd variables set (see `common::service`), one user's clients
/// of the probe service, for section 6.
#[test]
fn service_crowd_child() {
    common::service::client_crowd_child();
}

/// Not a test: a process that holds RINGBAR_BENCH_HOLD_THREADS sleeping threads until its
/// stdin closes. Used by `crowd` in `sampling`.
#[test]
#[ignore]
fn hold_threads() {
    let Some(count) = std::env::var("RINGBAR_BENCH_HOLD_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return;
    };
    let threads: Vec<_> = (0..count)
        .map(|_| {
            std::thread::Builder::new()
                .stack_size(64 * 1024)
                .spawn(std::thread::park)
                .expect("spawn")
        })
        .collect();
    let _ = std::io::stdin().read(&mut [0u8; 1]);
    drop(threads);
    std::process::exit(0);
}

fn write_report(report: &Report, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../bench");
    fs::create_dir_all(&dir).expect("mkdir target/bench");
    let path = dir.join(name);
    fs::write(&path, &report.markdown).expect("write the report");
    println!("\nreport: {}", path.display());
}

#[test]
#[ignore]
fn benchmark() {
    let _serial = serial();
    require_root();
    let mut report = Report::default();
    let machine = machine();
    let _ = writeln!(report.markdown, "Machine: {machine}.");
    println!("Machine: {machine}");
    // RINGBAR_BENCH_SECTIONS=3,5 runs only those sections (for profiling one of them).
    let only = std::env::var("RINGBAR_BENCH_SECTIONS").unwrap_or_default();
    if !only.is_empty() {
        let wanted = |n: &str| only.split(',').any(|s| s.trim() == n);
        if wanted("1") {
            sampling::sample_times(&mut report);
        }
        if wanted("2") {
            sampling::context_switch_tax(&mut report);
        }
        if wanted("3") {
            whole_bar::whole_bar(&mut report);
        }
        if wanted("4") {
            ticks::allocation_counts(&mut report);
        }
        if wanted("5") {
            ticks::startup(&mut report);
        }
        if wanted("6") {
            readers::reader_costs(&mut report);
        }
        if wanted("7") {
            stall::main_loop_stall(&mut report);
        }
        if wanted("8") {
            fallback::fallback_walks(&mut report);
        }
        if wanted("9") {
            phases::phases(&mut report);
        }
        if wanted("10") {
            network_tax::network_tax(&mut report);
        }
        write_report(&report, "report-sections.md");
        return;
    }
    let samples = sampling::sample_times(&mut report);
    let tax = sampling::context_switch_tax(&mut report);
    let bars = whole_bar::whole_bar(&mut report);
    ticks::allocation_counts(&mut report);
    let start_ms = ticks::startup(&mut report);
    let readers = readers::reader_costs(&mut report);
    let stall_ms = stall::main_loop_stall(&mut report);
    let fallback = fallback::fallback_walks(&mut report);
    let growth = phases::phases(&mut report);
    let net_tax = network_tax::network_tax(&mut report);

    report.heading("Goals");
    let at_300 = &samples[0];
    let check = |ok: bool| if ok { "met" } else { "missed" }.to_owned();
    let mut rows = vec![
        vec![
            "sample ≤ 150 µs at 300 tasks".into(),
            format!("{:.0} µs", at_300.1),
            check(at_300.1 <= 150.0),
        ],
        vec![
            "≥ 10× faster than the /proc walk at 300 tasks".into(),
            format!("{:.1}×", at_300.2),
            check(at_300.2 >= 10.0),
        ],
        vec![
            "context-switch tax ≤ 1 %".into(),
            format!("{tax:+.2} %"),
            check(tax <= 1.0),
        ],
        vec![
            "main-loop stall < 16 ms per tick (/proc, 3,000 processes, 100 ms)".into(),
            format!("{stall_ms:.1} ms"),
            check(stall_ms < 16.0),
        ],
        vec![
            "start-up < 300 ms".into(),
            format!("{start_ms:.0} ms"),
            check(start_ms < 300.0),
        ],
    ];
    rows.push(vec![
        "privacy filter ≤ 5 % per sample (nobody with caps vs root)".into(),
        format!("{:.2}", readers[1] / readers[0]),
        check(readers[1] <= readers[0] * 1.05),
    ]);
    rows.push(vec![
        "probe service ≤ 20 % per sample (vs in process)".into(),
        format!("{:.2}", readers[2] / readers[1]),
        check(readers[2] <= readers[1] * 1.2),
    ]);
    rows.push(vec![
        "+3,000 parked processes cost ≤ 4× a sample at ~300 tasks".into(),
        format!("{growth:.1}×"),
        check(growth <= 4.0),
    ]);
    rows.push(vec![
        "network path tax ≤ 1 % (iperf3, TCP with 1 KiB messages, loopback)".into(),
        format!("{net_tax:+.2} %"),
        check(net_tax <= 1.0),
    ]);
    rows.push(vec![
        "fallback ≥ 3× faster than a plain walk at 3,000 processes".into(),
        format!("{fallback:.1}×"),
        check(fallback >= 3.0),
    ]);
    if let Some(at_1000) = bars.waybar.iter().find(|b| b.interval_ms == 1000) {
        let rss = at_1000.ringbar.1;
        rows.push(vec![
            "RSS under 30 MiB (1000 ms, full module set)".into(),
            format!("{rss:.1} MiB"),
            check(rss < 30.0),
        ]);
    }
    for pair in &bars.waybar {
        rows.push(vec![
            format!("CPU ≤ ⅓ of Waybar's at {} ms", pair.interval_ms),
            format!("{:.3}", pair.cpu_ratio()),
            check(pair.cpu_ratio() <= 1.0 / 3.0),
        ]);
        rows.push(vec![
            format!("RSS below Waybar's at {} ms", pair.interval_ms),
            format!("{:.1} vs {:.1} MiB", pair.ringbar.1, pair.other.1),
            check(pair.rss_ratio() < 1.0),
        ]);
    }
    for pair in &bars.yambar {
        rows.push(vec![
            format!("CPU ≤ ½ of yambar's at {} ms", pair.interval_ms),
            format!("{:.3}", pair.cpu_ratio()),
            check(pair.cpu_ratio() <= 0.5),
        ]);
    }
    report.table(&["goal", "measured", ""], &rows);
    write_report(&report, "report.md");
}
