//! Section 3's results: the runs as measured, and the comparison of their means.

use crate::cgroup::Kind;
use crate::report::Report;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Bar {
    Ringbar,
    /// ringbar with clock and workspaces only, to set against the floor.
    RingbarMinimal,
    Waybar,
    Yambar,
    /// The least a GTK4 bar can cost (`examples/label_floor.rs`).
    Floor,
}

impl Bar {
    pub fn name(self) -> &'static str {
        match self {
            Bar::Ringbar => "ringbar",
            Bar::RingbarMinimal => "ringbar-minimal",
            Bar::Waybar => "Waybar",
            Bar::Yambar => "yambar",
            Bar::Floor => "floor",
        }
    }
}

/// One measured run, per minute of wall time.
pub struct Run {
    pub bar: Bar,
    pub interval_ms: u32,
    pub round: usize,
    /// ms of CPU per minute from each cgroup (v2 first where mounted).
    pub groups: Vec<f64>,
    pub ticks: f64,
    pub live_threads: f64,
    pub compositor: f64,
    /// Voluntary context switches of the bar's threads per tick of its interval.
    pub wakeups_per_tick: f64,
    /// System calls per tick, counted apart from the CPU window.
    pub syscalls_per_tick: Option<f64>,
    pub rss_mib: f64,
    pub pss_mib: Option<f64>,
    /// Shared objects mapped at the end of the window.
    pub libraries: usize,
}

/// ringbar and another bar at one interval: CPU ms per minute (the first cgroup's) and
/// RSS MiB, each the mean of the rounds.
pub struct Pair {
    pub interval_ms: u32,
    pub ringbar: (f64, f64),
    pub other: (f64, f64),
}

impl Pair {
    pub fn cpu_ratio(&self) -> f64 {
        self.ringbar.0 / self.other.0
    }

    pub fn rss_ratio(&self) -> f64 {
        self.ringbar.1 / self.other.1
    }
}

fn mean(runs: &[&Run], value: impl Fn(&Run) -> f64) -> f64 {
    runs.iter().map(|r| value(r)).sum::<f64>() / runs.len() as f64
}

/// The comparison with `other`: each bar's mean at each interval, and their ratios.
pub fn comparison(report: &mut Report, runs: &[Run], other: Bar) -> Vec<Pair> {
    let mut rows = Vec::new();
    let mut pairs = Vec::new();
    for interval_ms in [1000u32, 2000] {
        let of = |bar: Bar| -> Vec<&Run> {
            runs.iter()
                .filter(|r| r.bar == bar && r.interval_ms == interval_ms)
                .collect()
        };
        let (ours, theirs) = (of(Bar::Ringbar), of(other));
        let pair = Pair {
            interval_ms,
            ringbar: (mean(&ours, |r| r.groups[0]), mean(&ours, |r| r.rss_mib)),
            other: (mean(&theirs, |r| r.groups[0]), mean(&theirs, |r| r.rss_mib)),
        };
        rows.push(vec![
            format!("{interval_ms} ms"),
            format!("{:.1} ms", pair.ringbar.0),
            format!("{:.1} ms", pair.other.0),
            format!("{:.3}", pair.cpu_ratio()),
            format!("{:.1} MiB", pair.ringbar.1),
            format!("{:.1} MiB", pair.other.1),
            format!("{:.2}", pair.rss_ratio()),
        ]);
        pairs.push(pair);
    }
    let (cpu, rss) = (
        format!("{} CPU/min", other.name()),
        format!("{} RSS", other.name()),
    );
    report.table(
        &[
            "interval",
            "ringbar CPU/min",
            &cpu,
            "CPU ratio",
            "ringbar RSS",
            &rss,
            "RSS ratio",
        ],
        &rows,
    );
    pairs
}

/// Every run, with the cross-checks of its CPU time.
pub fn every_run(report: &mut Report, hierarchies: &[Kind], runs: &[Run]) {
    let mut header: Vec<String> = ["interval", "round", "bar"].map(String::from).to_vec();
    header.extend(
        hierarchies
            .iter()
            .map(|kind| format!("{} ms/min", short(*kind))),
    );
    header.extend(
        [
            "utime+stime ms/min",
            "live threads ms/min",
            "sway ms/min",
            "wake-ups/tick",
            "syscalls/tick",
            "RSS MiB",
            "Pss MiB",
        ]
        .map(String::from),
    );
    let rows: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            let mut row = vec![
                format!("{} ms", r.interval_ms),
                r.round.to_string(),
                r.bar.name().to_owned(),
            ];
            row.extend(r.groups.iter().map(|ms| format!("{ms:.1}")));
            row.extend([
                format!("{:.0}", r.ticks),
                format!("{:.1}", r.live_threads),
                format!("{:.1}", r.compositor),
                format!("{:.1}", r.wakeups_per_tick),
                r.syscalls_per_tick
                    .map_or("–".into(), |calls| format!("{calls:.1}")),
                format!("{:.1}", r.rss_mib),
                r.pss_mib.map_or("–".into(), |p| format!("{p:.1}")),
            ]);
            row
        })
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    report.table(&header, &rows);
    report.note(
        "Every run, as measured. The cgroup columns count all the bar's threads, exited ones \
         included; utime+stime (/proc/PID/stat) counts them too but in whole clock ticks \
         (10 ms); the live threads' schedstat loses a thread that exits during the window, \
         with all the run time it had, start-up work included (a GLib pool thread exits \
         when idle). sway's column is the compositor's own run time over the same window. Wake-ups are \
         the live threads' voluntary context switches over the window, per tick of the \
         interval; system calls are every thread's, counted by `strace -c -f` over 10 s \
         after the window (strace slows what it counts, so not during it), per tick.",
    );
}

fn short(kind: Kind) -> &'static str {
    match kind {
        Kind::V2 => "cgroup v2",
        Kind::V1Cpuacct => "cpuacct v1",
    }
}
