//! Sections 1 and 2: the collector's sample time on the BPF probe against a /proc walk,
//! at several task counts, and the probe's tax on context switches.

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ringbar::records::collector::Collector;

use crate::common::crowd::Crowd;
use crate::report::{median, percentile, Report};

pub fn tasks_on_machine() -> usize {
    fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .map(|pid| fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count()))
        .sum()
}

/// `count` processes, each with `threads` threads (the main one included), asleep.
pub fn crowd(count: usize, threads: usize) -> Crowd {
    if threads <= 1 {
        return Crowd::sleepers(count);
    }
    let holders = (0..count)
        .map(|_| {
            // This test binary again, as a holder of threads (see hold_threads).
            Command::new(std::env::current_exe().expect("current exe"))
                .args(["--ignored", "--exact", "hold_threads", "--nocapture"])
                .env("RINGBAR_BENCH_HOLD_THREADS", (threads - 1).to_string())
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .spawn()
                .expect("spawn a thread holder")
        })
        .collect();
    Crowd::of(holders)
}

/// Median and p99 of `samples` timed samples, after a warm-up.
fn time_samples(collector: &mut Collector, samples: usize) -> (f64, f64) {
    for _ in 0..5 {
        collector.sample().expect("sample");
    }
    let mut micros: Vec<f64> = (0..samples)
        .map(|_| {
            let started = Instant::now();
            collector.sample().expect("sample");
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    (median(&mut micros), percentile(&mut micros, 0.99))
}

pub fn sample_times(report: &mut Report) -> Vec<(String, f64, f64)> {
    report.heading("1. Collector sample time: BPF probe vs a /proc walk");
    let base = tasks_on_machine();
    let scenarios: [(&str, usize, usize); 3] = [
        ("about 300 tasks", 300usize.saturating_sub(base), 1),
        ("3,000 threads in 3 processes", 3, 1000),
        ("3,000 single-thread processes", 3000, 1),
    ];
    let mut rows = Vec::new();
    let mut results = Vec::new();
    for (name, count, threads) in scenarios {
        let _crowd = crowd(count, threads);
        std::thread::sleep(Duration::from_secs(2));
        let mut probe = Collector::with_probe(false).expect("the probe loads");
        let mut walk = Collector::with_proc(false);
        let (bpf_median, bpf_p99) = time_samples(&mut probe, 200);
        let (proc_median, proc_p99) = time_samples(&mut walk, 50);
        let tasks = probe.snapshot().tasks;
        rows.push(vec![
            name.to_owned(),
            tasks.to_string(),
            format!("{bpf_median:.0} / {bpf_p99:.0}"),
            format!("{proc_median:.0} / {proc_p99:.0}"),
            format!("{:.1}×", proc_median / bpf_median),
        ]);
        results.push((name.to_owned(), bpf_median, proc_median / bpf_median));
    }
    report.table(
        &[
            "scenario",
            "tasks",
            "BPF median / p99 µs",
            "/proc walk median / p99 µs",
            "ratio (median)",
        ],
        &rows,
    );
    report.note(
        "Both columns are a whole sample: records, model update and ranking. The /proc walk \
         is ringbar's own fallback collector (files held open and read with pread; section 8 \
         compares it with a plain open/read/close walk).",
    );
    results
}

/// `perf bench sched pipe` on one CPU: µs per operation.
fn sched_pipe_usecs() -> f64 {
    let out = Command::new("taskset")
        .args(["-c", "0", "perf", "bench", "sched", "pipe", "-l", "200000"])
        .output()
        .expect("run taskset perf (linux-perf, util-linux)");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.trim().strip_suffix("usecs/op"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no usecs/op in perf output:\n{text}"))
}

pub fn context_switch_tax(report: &mut Report) -> f64 {
    report.heading("2. Context-switch tax: perf bench sched pipe, pinned to CPU 0");
    const ROUNDS: usize = 15;
    let (mut without, mut with, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let a = sched_pipe_usecs();
        let mut probe = Collector::with_probe(false).expect("the probe loads");
        probe.sample().expect("sample");
        let b = sched_pipe_usecs();
        probe.sample().expect("sample");
        without.push(a);
        with.push(b);
        ratios.push(b / a);
    }
    let (a, b) = (median(&mut without), median(&mut with));
    let tax = (median(&mut ratios) - 1.0) * 100.0;
    report.table(
        &["", "median µs/op (15 rounds)"],
        &[
            vec!["no probe".into(), format!("{a:.3}")],
            vec!["ringbar's probe attached".into(), format!("{b:.3}")],
            vec![
                "difference (median of paired rounds)".into(),
                format!("{tax:+.2} %"),
            ],
        ],
    );
    report.note(
        "Each round runs without the probe, then with it, back to back; the difference is \
         the median over rounds of with/without. The probe has no hook on context switches, \
         so what remains is the machine's noise.",
    );
    tax
}
