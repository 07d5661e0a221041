//! Section 6: what privacy and the probe service cost per sample. `ringbar --bench` in
//! three ways, alternating, on the same machine at the same time: as root (root sees every
//! process's IO: no filtering), as `nobody` through the setcap'd binary (the reader's
//! private tasks filtered), and as `nobody` through the probe service (no capability; the
//! exit reports taken from the socket the service pushes them to).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::common::crowd::Crowd;
use crate::common::service::{self, cpu_time, ProbeService};
use crate::report::{median, Report};
use crate::sampling::tasks_on_machine;

const SAMPLES: &str = "2000";
const ROUNDS: usize = 7;

/// `median_us` of a `--bench` line.
fn median_us(out: &[u8]) -> f64 {
    let text = String::from_utf8_lossy(out);
    text.split_whitespace()
        .find_map(|field| field.strip_prefix("median_us="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no median in `{text}`"))
}

fn bench(program: &Path, nobody: bool, socket: &Path, home: &Path) -> f64 {
    let mut command = if nobody {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(program);
        c
    } else {
        Command::new(program)
    };
    let out = command
        .args(["--bench", SAMPLES])
        .env("RINGBAR_PROBE_SOCKET", socket)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .expect("ringbar --bench");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    median_us(&out.stdout)
}

/// The machine's tasks, then topped up with sleepers to this many (section 1's scenario).
const TOPPED_UP_TASKS: usize = 300;

/// The three medians (µs): root in-process, `nobody` with capabilities, `nobody` through
/// the service; of the scenario where the service compares worst.
pub fn reader_costs(report: &mut Report) -> [f64; 3] {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    let (caps, plain) = (dir.path().join("caps"), dir.path().join("plain"));
    for exe in [&caps, &plain] {
        fs::copy(env!("CARGO_BIN_EXE_ringbar"), exe).expect("copy");
        fs::set_permissions(exe, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let setcap = Command::new("setcap")
        .arg("cap_bpf,cap_perfmon+ep")
        .arg(&caps)
        .status()
        .expect("setcap");
    assert!(setcap.success());
    let service = ProbeService::start(dir.path());
    let none = Path::new("/nonexistent/probe.sock");
    report.heading(&format!(
        "6. What privacy and the probe service cost: `ringbar --bench {SAMPLES}`, {ROUNDS} rounds alternating"
    ));
    let mut rows = Vec::new();
    let mut worst: Option<[f64; 3]> = None;
    let machine_tasks = tasks_on_machine();
    for topped_up in [false, true] {
        let _sleepers =
            topped_up.then(|| Crowd::sleepers(TOPPED_UP_TASKS.saturating_sub(tasks_on_machine())));
        let tasks = tasks_on_machine();
        let mut runs: [Vec<f64>; 3] = Default::default();
        for _ in 0..ROUNDS {
            runs[0].push(bench(&plain, false, none, dir.path()));
            runs[1].push(bench(&caps, true, none, dir.path()));
            runs[2].push(bench(&plain, true, service.socket(), dir.path()));
        }
        let medians = runs.map(|mut r| median(&mut r));
        let readers = [
            "root, in process (sees all: nothing filtered)",
            "nobody, setcap'd binary (other users' IO filtered)",
            "nobody, through ringbar-probe (no capability)",
        ];
        for (how, us) in readers.iter().zip(medians) {
            rows.push(vec![
                tasks.to_string(),
                how.to_string(),
                format!("{us:.0} µs"),
                format!("{:.2}", us / medians[0]),
            ]);
        }
        if worst.is_none_or(|w| medians[2] / medians[1] > w[2] / w[1]) {
            worst = Some(medians);
        }
    }
    report.table(&["tasks", "reader", "sample (median)", "vs root"], &rows);
    report.note(&format!(
        "The machine's own {machine_tasks} tasks, then topped up to {TOPPED_UP_TASKS} with \
         sleepers. The filter is a flag the probe sets per task and a test per process \
         while ranking. Through the service, the service walks the tasks as the client \
         (its SO_PEERCRED ids) into a sealed memfd the client maps read-only; the client \
         asks when its sample starts and reads its sensors meanwhile (on another CPU the \
         walk costs its sample nothing), and takes the exit reports the service pushed to \
         its socket."
    ));
    crowd_load(report, &service);
    worst.expect("two scenarios ran")
}

/// 64 clients (8 users with 8 each, the service's most) sampling every 100 ms for 10 s:
/// the service's CPU and memory while it walks for all of them.
fn crowd_load(report: &mut Report, service: &ProbeService) {
    const SAMPLES: u32 = 100;
    let before = cpu_time(service.pid());
    let started = std::time::Instant::now();
    let children = service::start_crowd(
        &std::env::current_exe().expect("bench binary"),
        "service_crowd_child",
        service.socket(),
        8,
        &format!("8,{SAMPLES},100"),
    );
    let results = service::crowd_results(children);
    let spent = cpu_time(service.pid()) - before;
    let elapsed = started.elapsed();
    let walked: u64 = results.iter().map(|(walked, _)| walked).sum();
    let (rss_mib, _) = crate::usage::memory_mib(service.pid());
    report.heading("6b. The probe service with 64 clients sampling every 100 ms");
    report.table(
        &["clients", "walks", "service CPU", "per walk", "service RSS"],
        &[vec![
            results.len().to_string(),
            walked.to_string(),
            format!(
                "{:.1} % of one core",
                spent.as_secs_f64() / elapsed.as_secs_f64() * 100.0
            ),
            format!("{:.0} µs", spent.as_secs_f64() * 1e6 / walked.max(1) as f64),
            format!("{rss_mib:.1} MiB"),
        ]],
    );
    report.note(
        "CPU from the service's /proc/PID/stat (10 ms ticks) over the whole run, the \
         clients' start and end included; each client is a thread sampling as a bar does.",
    );
}
