//! Section 9: where a sample's time goes, at about 300 tasks and with 3,000 parked
//! processes more: `ringbar --bench` (as root, the probe in process) prints the median of
//! each phase, and `perf record` of the same run splits the kernel's part into the BPF
//! program, the task walk around it and the copy to user space.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::crowd::Crowd;
use crate::report::Report;
use crate::sampling::tasks_on_machine;

const SAMPLES: &str = "2000";
const PARKED: usize = 3000;

/// `key=value` fields of a `--bench` line.
fn field(line: &str, key: &str) -> f64 {
    line.split_whitespace()
        .find_map(|f| f.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in `{line}`"))
}

/// Shares (percent of samples) of: the BPF program, the kernel's task walk and seq_file
/// work, copies to user space, the rest of the kernel, user space.
fn perf_shares(data: &Path) -> [f64; 5] {
    let out = Command::new("perf")
        .args([
            "report",
            "--stdio",
            "--no-children",
            "--sort",
            "dso,sym",
            "-g",
            "none",
            "-i",
        ])
        .arg(data)
        .output()
        .expect("perf report (linux-perf)");
    let mut shares = [0.0; 5];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(percent) = fields
            .first()
            .and_then(|p| p.strip_suffix('%'))
            .and_then(|p| p.parse::<f64>().ok())
        else {
            continue;
        };
        // `PERCENT DSO [k] SYMBOL` (kernel mode) or `PERCENT DSO [.] SYMBOL` (user).
        let dso = fields.get(1).copied().unwrap_or("");
        let kernel_mode = fields.get(2) == Some(&"[k]");
        let symbol = fields.last().copied().unwrap_or("");
        let walk = [
            "task_seq",
            "task_iter",
            "get_pid_task",
            "pid_nr_ns",
            "find_ge_pid",
            "idr_get_next",
            "radix_tree",
            "bpf_iter",
            "bpf_seq",
            "seq_read",
        ];
        let bucket = match (kernel_mode, dso) {
            (false, _) => 4,
            // JIT code: named after the program where perf could resolve it.
            (true, dso) if dso.starts_with("bpf_prog_") || dso == "[unknown]" => 0,
            _ if symbol.contains("copy_to_user") || symbol.contains("copy_user") => 2,
            _ if walk.iter().any(|s| symbol.contains(s)) => 1,
            _ => 3,
        };
        shares[bucket] += percent;
    }
    shares
}

/// One `ringbar --bench` under `perf record`: its line and the perf shares. `iterator`:
/// the records through the task iterator even where the walker would read them.
fn profiled_bench(dir: &Path, name: &str, iterator: bool) -> (String, [f64; 5]) {
    let data = dir.join(format!("{name}.perf"));
    let mut perf = Command::new("perf");
    if iterator {
        perf.env("RINGBAR_NO_WALKER", "1");
    }
    let out = perf
        .args(["record", "-q", "-F", "2999", "-o"])
        .arg(&data)
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_ringbar"))
        .args(["--bench", SAMPLES])
        .env("RINGBAR_PROBE_SOCKET", "/nonexistent/probe.sock")
        .env("HOME", dir)
        .output()
        .expect("perf record (linux-perf)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.contains("median_us="))
        .expect("a --bench line")
        .to_owned();
    (line, perf_shares(&data))
}

/// Returns the growth: the median sample with the parked processes over the one without.
pub fn phases(report: &mut Report) -> f64 {
    report
        .heading("9. Where a sample's time goes: about 300 tasks, and 3,000 parked processes more");
    let dir = tempfile::tempdir().expect("tempdir");
    let _base = Crowd::sleepers(300usize.saturating_sub(tasks_on_machine()));
    std::thread::sleep(Duration::from_secs(1));
    let quiet = profiled_bench(dir.path(), "quiet", false);
    let quiet_iterated = profiled_bench(dir.path(), "quiet-iterator", true);
    let crowd = Crowd::sleepers(PARKED);
    std::thread::sleep(Duration::from_secs(2));
    let parked = profiled_bench(dir.path(), "parked", false);
    let parked_iterated = profiled_bench(dir.path(), "parked-iterator", true);
    drop(crowd);
    let mut phase_rows = Vec::new();
    let mut perf_rows = Vec::new();
    for (load, (line, shares)) in [
        ("about 300 tasks", &quiet),
        ("about 300 tasks", &quiet_iterated),
        ("+3,000 parked processes", &parked),
        ("+3,000 parked processes", &parked_iterated),
    ] {
        let reader = if field(line, "walker") == 1.0 {
            "walker"
        } else {
            "iterator"
        };
        let load = format!("{load}, {reader}");
        let mut row = vec![load.clone(), format!("{:.0}", field(line, "tasks"))];
        for key in [
            "median_us",
            "records_us",
            "model_us",
            "rank_us",
            "system_us",
            "rest_us",
        ] {
            row.push(format!("{:.0}", field(line, key)));
        }
        phase_rows.push(row);
        let mut row = vec![load];
        row.extend(shares.iter().map(|s| format!("{s:.1} %")));
        perf_rows.push(row);
    }
    report.table(
        &[
            "load",
            "tasks",
            "sample µs",
            "records",
            "model",
            "ranking",
            "system files",
            "rest",
        ],
        &phase_rows,
    );
    report.note(
        "Medians of each phase in µs (`ringbar --bench`, the probe in process, as root): the \
         records are the walker's run (one program run walks the task list and writes every \
         record into a map ringbar has mapped; Linux 6.7+) or the iterator's reads (the kernel \
         finds each task and runs the BPF program on it, then copies the records out; \
         `RINGBAR_NO_WALKER=1`), and the exit reports; the model looks up and \
         aggregates each task and computes the deltas; the system files are /proc/meminfo, \
         vmstat and loadavg; the rest is sensors, real names, wait channels and history.",
    );
    report.table(
        &[
            "load",
            "BPF program",
            "kernel task walk",
            "copy to user",
            "other kernel",
            "user space",
        ],
        &perf_rows,
    );
    report.note(
        "Shares of `perf record -F 2999` samples of the same runs (start-up included). The \
         task walk is the work around the program: finding the next task (the walker's \
         kfuncs; the iterator's pid lookups and seq_file).",
    );
    field(&parked.0, "median_us") / field(&quiet.0, "median_us")
}
