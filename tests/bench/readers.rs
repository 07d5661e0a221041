//! Section 6: what privacy and the probe service cost per sample. `ringbar --bench` in
//! three ways, alternating, on the same machine at the same time: as root (root sees every
//! process's IO: no filtering), as `nobody` through the setcap'd binary (the reader's
//! private tasks filtered), and as `nobody` through the probe service (no capability; the
//! exit reports taken from the socket the service pushes them to).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::common::service::ProbeService;
use crate::report::{median, Report};

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

/// The three medians (µs): root in-process, `nobody` with capabilities, `nobody` through
/// the service.
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
    let mut runs: [Vec<f64>; 3] = Default::default();
    for _ in 0..ROUNDS {
        runs[0].push(bench(&plain, false, none, dir.path()));
        runs[1].push(bench(&caps, true, none, dir.path()));
        runs[2].push(bench(&plain, true, service.socket(), dir.path()));
    }
    let medians = runs.map(|mut r| median(&mut r));
    report.heading(&format!(
        "6. What privacy and the probe service cost: `ringbar --bench {SAMPLES}`, {ROUNDS} rounds alternating"
    ));
    let rows = [
        ("root, in process (sees all: nothing filtered)", medians[0]),
        (
            "nobody, setcap'd binary (other users' IO filtered)",
            medians[1],
        ),
        ("nobody, through ringbar-probe (no capability)", medians[2]),
    ]
    .iter()
    .map(|(how, us)| {
        vec![
            how.to_string(),
            format!("{us:.0} µs"),
            format!("{:.2}", us / medians[0]),
        ]
    })
    .collect::<Vec<_>>();
    report.table(&["reader", "sample (median)", "vs root"], &rows);
    report.note(
        "The filter is a flag the probe sets per task and a test per process while ranking; \
         through the service, a sample also takes the exit reports waiting in its socket \
         (pushed by the service as they come; no round trip).",
    );
    medians
}
