//! What a measured bar used: CPU time four ways (its cgroups, the process's utime+stime,
//! its live threads' run time, and the compositor's run time alongside), its wake-ups,
//! its system calls, and its memory.

use std::fs;

use crate::cgroup::CpuGroup;

/// Cumulative counters at one moment.
pub struct Counters {
    /// Per cgroup, in the order given: ns.
    groups: Vec<u64>,
    /// utime + stime of the process (/proc/PID/stat), exited threads included: ns, in
    /// whole clock ticks.
    ticks_ns: u64,
    /// The run time of the threads alive now (/proc/PID/task/*/schedstat): ns.
    live_threads_ns: u64,
    /// The compositor's run time: what drawing the bar costs it.
    compositor_ns: u64,
    /// The times the live threads went to sleep and were woken again (their voluntary
    /// context switches).
    wakeups: u64,
}

/// The difference of two [`Counters`], in ms.
pub struct Used {
    pub groups: Vec<f64>,
    pub ticks: f64,
    pub live_threads: f64,
    pub compositor: f64,
    pub wakeups: u64,
}

impl Counters {
    pub fn read(pid: u32, groups: &[CpuGroup], compositor: u32) -> Counters {
        Counters {
            groups: groups.iter().map(CpuGroup::usage_ns).collect(),
            ticks_ns: utime_stime_ns(pid),
            live_threads_ns: threads_ns(pid),
            compositor_ns: threads_ns(compositor),
            wakeups: threads_wakeups(pid),
        }
    }

    pub fn since(&self, before: &Counters) -> Used {
        let ms = |after: u64, before: u64| after.saturating_sub(before) as f64 / 1e6;
        Used {
            groups: self
                .groups
                .iter()
                .zip(&before.groups)
                .map(|(a, b)| ms(*a, *b))
                .collect(),
            ticks: ms(self.ticks_ns, before.ticks_ns),
            live_threads: ms(self.live_threads_ns, before.live_threads_ns),
            compositor: ms(self.compositor_ns, before.compositor_ns),
            wakeups: self.wakeups.saturating_sub(before.wakeups),
        }
    }
}

fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(hz).ok().filter(|&hz| hz > 0).unwrap_or(100)
}

/// Fields 14 and 15 of /proc/PID/stat, after the parenthesised name.
fn utime_stime_ns(pid: u32) -> u64 {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).expect("the bar's stat");
    let rest = &stat[stat.rfind(')').expect("(comm)") + 2..];
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .map(|v| v.parse::<u64>().expect("a tick count"))
        .sum();
    ticks * 1_000_000_000 / clock_ticks_per_second()
}

/// The sum of the first field of each live thread's schedstat (ns on the CPU).
fn threads_ns(pid: u32) -> u64 {
    fs::read_dir(format!("/proc/{pid}/task"))
        .map(|threads| {
            threads
                .filter_map(|e| e.ok())
                .filter_map(|e| fs::read_to_string(e.path().join("schedstat")).ok())
                .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
                .sum()
        })
        .unwrap_or(0)
}

/// The sum of each live thread's `voluntary_ctxt_switches`.
fn threads_wakeups(pid: u32) -> u64 {
    fs::read_dir(format!("/proc/{pid}/task"))
        .map(|threads| {
            threads
                .filter_map(|e| e.ok())
                .filter_map(|e| fs::read_to_string(e.path().join("status")).ok())
                .filter_map(|status| {
                    let line = status
                        .lines()
                        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))?;
                    line.trim().parse::<u64>().ok()
                })
                .sum()
        })
        .unwrap_or(0)
}

/// The system calls of every thread of `pid` during `seconds`, counted by `strace -c -f`
/// (which slows the bar while it counts: measured apart from its CPU); `None` without
/// strace.
pub fn syscalls(pid: u32, seconds: u64) -> Option<u64> {
    let out = std::process::Command::new("timeout")
        .args([
            "-s",
            "INT",
            &seconds.to_string(),
            "strace",
            "-c",
            "-f",
            "-qq",
            "-p",
        ])
        .arg(pid.to_string())
        .output()
        .ok()?;
    let summary = String::from_utf8_lossy(&out.stderr);
    let total = summary.lines().find(|l| l.trim_end().ends_with(" total"))?;
    // % time, seconds, usecs/call, calls, [errors,] "total".
    total.split_whitespace().nth(3)?.parse().ok()
}

/// A `NAME:   1234 kB` line's value in MiB.
fn kib_field(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kib| kib / 1024.0)
}

/// VmRSS (/proc/PID/status) and Pss (/proc/PID/smaps_rollup), in MiB.
/// How many shared objects (`.so` files) a process has mapped.
pub fn mapped_libraries(pid: u32) -> usize {
    crate::common::mapped_objects(pid).len()
}

pub fn memory_mib(pid: u32) -> (f64, Option<f64>) {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).expect("the bar's status");
    let rss = kib_field(&status, "VmRSS").expect("VmRSS");
    let pss = fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|rollup| kib_field(&rollup, "Pss"));
    (rss, pss)
}
