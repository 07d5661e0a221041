//! The benchmark: ringbar measured side by side with the alternatives on one machine, in
//! one run. Not part of the test suite (it takes minutes and needs Waybar): run it with
//! `scripts/dev.sh bench`, which builds in release mode, or
//! `cargo test --release --test bench -- --ignored --nocapture`.
//!
//! It prints a table and writes `target/bench/report.md`. Ratios, not absolute times, are
//! the results: every pair is measured back to back under the same load.
//! RINGBAR_BENCH_SECONDS shortens the whole-bar runs (default 60 s each);
//! RINGBAR_BENCH_SECTIONS=3 runs only the whole-bar section (3 and 5 are selectable).

mod common;

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::alloc::{allocations, CountingAllocator};
use common::session::{Compositor, Session};
use common::*;
use ringbar::collector::Collector;
use ringbar::config::Config;
use ringbar::render::Markup;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The report: markdown for the file, the same rows as a plain table on stdout.
#[derive(Default)]
struct Report {
    markdown: String,
}

impl Report {
    fn heading(&mut self, text: &str) {
        println!("\n{text}");
        let _ = writeln!(self.markdown, "\n### {text}\n");
    }

    fn table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        let widths: Vec<usize> = (0..header.len())
            .map(|i| {
                rows.iter()
                    .map(|r| r[i].chars().count())
                    .chain([header[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: Vec<String>| {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        println!("{}", line(header.iter().map(|h| h.to_string()).collect()));
        for row in rows {
            println!("{}", line(row.clone()));
        }
        let _ = writeln!(self.markdown, "| {} |", header.join(" | "));
        let _ = writeln!(self.markdown, "|{}", "---|".repeat(header.len()));
        for row in rows {
            let _ = writeln!(self.markdown, "| {} |", row.join(" | "));
        }
    }

    fn note(&mut self, text: &str) {
        println!("{text}");
        let _ = writeln!(self.markdown, "\n{text}");
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn percentile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * q).round() as usize]
}

fn sh(command: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", command])
        .output()
        .expect("run sh");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn machine() -> String {
    format!(
        "{} · {} CPUs · {} · {} · Linux {}",
        sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'"),
        sh("nproc"),
        sh("awk '/MemTotal/ { printf \"%.0f GiB RAM\", $2 / 1048576 }' /proc/meminfo"),
        sh(". /etc/os-release && echo \"$PRETTY_NAME\""),
        sh("uname -r"),
    )
}

fn tasks_on_machine() -> usize {
    fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .map(|pid| fs::read_dir(format!("/proc/{pid}/task")).map_or(0, |d| d.count()))
        .sum()
}

/// Processes kept alive for a scenario; killed on drop.
struct Crowd(Vec<Child>);

impl Crowd {
    /// `count` processes, each with `threads` threads (the main one included), asleep.
    fn spawn(count: usize, threads: usize) -> Crowd {
        let children = (0..count)
            .map(|_| {
                if threads <= 1 {
                    Command::new("sleep")
                        .arg("3600")
                        .spawn()
                        .expect("spawn sleep")
                } else {
                    // This test binary again, as a holder of threads (see hold_threads).
                    Command::new(std::env::current_exe().expect("current exe"))
                        .args(["--ignored", "--exact", "hold_threads", "--nocapture"])
                        .env("RINGBAR_BENCH_HOLD_THREADS", (threads - 1).to_string())
                        .stdin(Stdio::piped())
                        .stdout(Stdio::null())
                        .spawn()
                        .expect("spawn a thread holder")
                }
            })
            .collect();
        Crowd(children)
    }
}

impl Drop for Crowd {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Not a test: a process that holds RINGBAR_BENCH_HOLD_THREADS sleeping threads until its
/// stdin closes. Used by [`Crowd::spawn`].
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

fn sample_times(report: &mut Report) -> Vec<(String, f64, f64)> {
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
        let _crowd = Crowd::spawn(count, threads);
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
         opens, reads and closes `stat`, `statm` and `io` of every process (ringbar's own \
         fallback collector).",
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

fn context_switch_tax(report: &mut Report) -> f64 {
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

/// CPU time of a process in ms, to the ns: the sum of its threads' run time
/// (`/proc/PID/task/*/schedstat`). utime/stime count whole 10 ms ticks, too coarse for a
/// bar that runs a few ms a minute.
fn cpu_ms(pid: u32) -> f64 {
    fs::read_dir(format!("/proc/{pid}/task"))
        .expect("the process's threads")
        .filter_map(|e| e.ok())
        .filter_map(|e| fs::read_to_string(e.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum::<u64>() as f64
        / 1e6
}

fn rss_mib(pid: u32) -> f64 {
    fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("status")
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .expect("VmRSS")
        / 1024.0
}

/// CPU time used over `seconds` after a warm-up, and RSS at the end.
fn measure(pid: u32, seconds: u64) -> (f64, f64) {
    std::thread::sleep(Duration::from_secs(3));
    let before = cpu_ms(pid);
    std::thread::sleep(Duration::from_secs(seconds));
    (cpu_ms(pid) - before, rss_mib(pid))
}

fn waybar_config(dir: &Path, seconds: u32) -> (PathBuf, PathBuf) {
    // Waybar's temperature module reads one file; give it one (this VM has no sensors).
    let temp = dir.join("temp1_input");
    fs::write(&temp, "45000\n").expect("write");
    let config = dir.join("waybar.json");
    fs::write(
        &config,
        format!(
            "{{\"layer\": \"top\", \"height\": 26, \"modules-right\": [\"cpu\", \"memory\", \
             \"temperature\"], \"cpu\": {{\"interval\": {seconds}}}, \"memory\": {{\"interval\": \
             {seconds}}}, \"temperature\": {{\"interval\": {seconds}, \"hwmon-path\": \"{}\"}}}}",
            temp.display()
        ),
    )
    .expect("write");
    let style = dir.join("waybar.css");
    fs::write(&style, "* { font-family: monospace; font-size: 11pt; }\n").expect("write");
    (config, style)
}

/// One whole-bar run: the interval, ringbar's CPU ms and RSS MiB, and Waybar's.
struct BarRun {
    interval_ms: u32,
    cpu_ms: f64,
    rss_mib: f64,
    waybar: Option<(f64, f64)>,
}

fn whole_bar(report: &mut Report) -> Vec<BarRun> {
    let seconds: u64 = std::env::var("RINGBAR_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    report.heading(&format!(
        "3. Whole bar in headless sway, {seconds} s each: ringbar vs Waybar"
    ));
    let waybar = Command::new("waybar").arg("--version").output().ok();
    let waybar_version = waybar
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let mut rows = Vec::new();
    let mut results = Vec::new();
    for interval_ms in [2000u32, 1000, 100] {
        let session = Session::start(Compositor::Sway);
        session.write_config_file("config.toml", &format!("interval_ms = {interval_ms}\n"));
        let bar = session.start_bar_unhooked();
        bar.wait_for_log("bar on output HEADLESS-1");
        let (ours_cpu, ours_rss) = measure(bar.pid(), seconds);
        drop(bar);

        // Waybar's intervals are whole seconds: it has no 100 ms setting.
        let theirs = match (&waybar_version, interval_ms % 1000) {
            (Some(_), 0) => {
                let (config, style) = waybar_config(&session.home(), interval_ms / 1000);
                let mut child = session
                    .as_user("waybar")
                    .arg("-c")
                    .arg(&config)
                    .arg("-s")
                    .arg(&style)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("start waybar");
                wait_for("Waybar's bar", Duration::from_secs(20), || {
                    session.workspace_y() == 26
                });
                let measured = measure(child.id(), seconds);
                let _ = child.kill();
                let _ = child.wait();
                Some(measured)
            }
            _ => None,
        };
        let per_minute = |ms: f64| ms * 60.0 / seconds as f64;
        rows.push(vec![
            format!("{interval_ms} ms"),
            format!("{:.1} ms", per_minute(ours_cpu)),
            format!("{ours_rss:.1} MiB"),
            theirs.map_or("–".into(), |(cpu, _)| {
                format!("{:.1} ms", per_minute(cpu))
            }),
            theirs.map_or("–".into(), |(_, rss)| format!("{rss:.1} MiB")),
            theirs.map_or("–".into(), |(cpu, _)| format!("{:.2}", ours_cpu / cpu)),
            theirs.map_or("–".into(), |(_, rss)| format!("{:.2}", ours_rss / rss)),
        ]);
        results.push(BarRun {
            interval_ms,
            cpu_ms: ours_cpu,
            rss_mib: ours_rss,
            waybar: theirs,
        });
    }
    report.table(
        &[
            "interval",
            "ringbar CPU/min",
            "ringbar RSS",
            "Waybar CPU/min",
            "Waybar RSS",
            "CPU ratio",
            "RSS ratio",
        ],
        &rows,
    );
    report.note(&format!(
        "CPU is the run time of all the bar's threads (schedstat, ns) per minute of wall \
         time, after a 3 s warm-up; RSS is VmRSS at the end. Waybar: {} with its cpu, memory and temperature \
         modules at the same interval (its intervals are whole seconds, so it has no 100 ms \
         run). Both run in the same headless sway 1.7, one after the other.",
        waybar_version.as_deref().unwrap_or("not installed")
    ));
    results
}

fn allocation_counts(report: &mut Report) {
    report.heading("4. Heap allocations (Rust side), once warm");
    let mut sampler = common::probe_sampler();
    let config = Config::default();
    let (mut label, mut tooltip) = (String::with_capacity(256), String::with_capacity(8192));
    let mut tick = || {
        let sample = sampler.take();
        for module in config.modules.all() {
            label.clear();
            module.text(&common::input(sample), &mut label);
        }
    };
    for _ in 1..=10 {
        tick();
    }
    let before = allocations();
    for _ in 11..=510 {
        tick();
    }
    let per_tick = (allocations() - before) as f64 / 500.0;
    let sample = sampler.sample();
    let cpu = config.modules.left.first().expect("the cpu module");
    for _ in 0..5 {
        tooltip.clear();
        cpu.tooltip(&mut Markup(&mut tooltip), &common::input(sample));
    }
    let before = allocations();
    for _ in 0..500 {
        tooltip.clear();
        cpu.tooltip(&mut Markup(&mut tooltip), &common::input(sample));
    }
    let per_tooltip = (allocations() - before) as f64 / 500.0;
    report.table(
        &["", "allocations"],
        &[
            vec![
                "per tick (sampler: probe sample, model, sensors; every module's text)".into(),
                format!("{per_tick:.2}"),
            ],
            vec![
                "per tooltip refresh (markup text)".into(),
                format!("{per_tooltip:.2}"),
            ],
        ],
    );
    report.note(
        "Counted by a global allocator over 500 ticks and 500 refreshes. GTK's own work \
         (setting label text, Pango layout) happens in C and is not counted; the bar sets a \
         label only when its text changed, and builds the tooltip only while it is shown.",
    );
}

fn startup(report: &mut Report) -> f64 {
    report.heading("5. Start-up: exec to the bar's first frame");
    let session = Session::start(Compositor::Sway);
    let first_frame = session.hook_dir().join("first-frame");
    let mut millis: Vec<f64> = (0..10)
        .map(|_| {
            let _ = fs::remove_file(&first_frame);
            let started = Instant::now();
            let bar = session.start_bar(&[]);
            while !first_frame.exists() {
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "no first frame"
                );
                std::thread::sleep(Duration::from_micros(500));
            }
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            drop(bar);
            ms
        })
        .collect();
    let (med, max) = (median(&mut millis), percentile(&mut millis, 1.0));
    report.table(
        &["", "ms"],
        &[
            vec!["median of 10 starts".into(), format!("{med:.0}")],
            vec!["slowest".into(), format!("{max:.0}")],
        ],
    );
    report.note(
        "From spawning the process (setpriv as the session's user, probe load, GTK start) \
         until GTK's frame clock has painted the bar's first frame.",
    );
    med
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
    let wanted = |n: &str| only.is_empty() || only.split(',').any(|s| s.trim() == n);
    if !only.is_empty() {
        if wanted("3") {
            whole_bar(&mut report);
        }
        if wanted("5") {
            startup(&mut report);
        }
        return;
    }
    let samples = sample_times(&mut report);
    let tax = context_switch_tax(&mut report);
    let bars = whole_bar(&mut report);
    allocation_counts(&mut report);
    let start_ms = startup(&mut report);

    report.heading("Goals");
    let at_300 = &samples[0];
    let at_1000 = bars.iter().find(|b| b.interval_ms == 1000);
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
            "start-up < 300 ms".into(),
            format!("{start_ms:.0} ms"),
            check(start_ms < 300.0),
        ],
    ];
    if let Some(BarRun {
        cpu_ms: cpu,
        rss_mib: rss,
        waybar: theirs,
        ..
    }) = at_1000
    {
        rows.push(vec![
            "RSS under 30 MiB".into(),
            format!("{rss:.1} MiB"),
            check(*rss < 30.0),
        ]);
        if let Some((their_cpu, their_rss)) = theirs {
            rows.push(vec![
                "CPU ≤ ½ of Waybar's at 1000 ms".into(),
                format!("{:.2}", cpu / their_cpu),
                check(*cpu <= their_cpu / 2.0),
            ]);
            rows.push(vec![
                "RSS below Waybar's".into(),
                format!("{rss:.1} vs {their_rss:.1} MiB"),
                check(rss < their_rss),
            ]);
        }
    }
    report.table(&["goal", "measured", ""], &rows);

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("../bench");
    fs::create_dir_all(&dir).expect("mkdir target/bench");
    let path = dir.join("report.md");
    fs::write(&path, &report.markdown).expect("write the report");
    println!("\nreport: {}", path.display());
}
