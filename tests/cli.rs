//! The `ringbar` binary as a user runs it. Needs root (the probe loads for real).

mod common;

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};

use common::*;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

fn run(args: &[&str]) -> Output {
    Command::new(RINGBAR)
        .args(args)
        .output()
        .expect("run ringbar")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The row of a section whose name field (the last, after two spaces) is `name`.
fn row_value<'a>(section: &'a [&'a str], name: &str) -> Option<&'a str> {
    section.iter().find_map(|line| {
        let (value, row_name) = line.trim_start().split_once("  ")?;
        (row_name == name).then_some(value.trim())
    })
}

#[test]
fn once_prints_the_three_sections_with_the_busy_process() {
    require_root();
    let _serial = serial();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("rb-cli-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    let out = run(&["--once", "--interval-ms", "1000"]);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "ringbar --once failed: {}",
        text(&out.stderr)
    );

    let lines: Vec<&str> = stdout.lines().collect();
    let section = |title: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(title))
            .unwrap_or_else(|| panic!("no {title} section in:\n{stdout}"))
    };
    let (cpu, memory, io) = (section("CPU  "), section("Memory  "), section("IO  "));
    assert!(
        cpu < memory && memory < io,
        "sections out of order:\n{stdout}"
    );
    assert!(
        lines[cpu].contains("100% = one core"),
        "the CPU header says what per-process % means"
    );

    let value = row_value(&lines[cpu + 1..memory], "rb-cli-spin")
        .unwrap_or_else(|| panic!("no spinner row:\n{stdout}"));
    let percent: f64 = value.trim_end_matches('%').parse().expect("a percentage");
    assert!(
        (90.0..=105.0).contains(&percent),
        "spinner at {percent}%:\n{stdout}"
    );
    assert!(lines[memory].contains(" used"), "{}", lines[memory]);
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("sampled in ") && l.contains("every 1000 ms")),
        "{stdout}"
    );
}

#[test]
fn bench_ends_with_one_summary_line() {
    require_root();
    let out = run(&["--bench", "20"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().expect("output");
    let fields: Vec<(&str, u64)> = last
        .split(' ')
        .map(|f| {
            let (k, v) = f
                .split_once('=')
                .unwrap_or_else(|| panic!("not key=value: {f}"));
            (k, v.parse().unwrap_or_else(|_| panic!("not a number: {f}")))
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys,
        ["samples", "tasks", "procs", "median_us", "p99_us", "max_us"]
    );
    let value = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .expect("field")
    };
    assert_eq!(value("samples"), 20);
    assert!(value("tasks") >= value("procs") && value("procs") > 1);
    assert!(value("median_us") <= value("p99_us") && value("p99_us") <= value("max_us"));
}

#[test]
fn without_privileges_one_line_names_the_cause_and_the_fix() {
    require_root();
    // A copy an unprivileged user can execute, wherever the checkout lives.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let exe = dir.path().join("ringbar");
    std::fs::copy(RINGBAR, &exe).expect("copy");
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&exe)
        .arg("--once")
        .output()
        .expect("run setpriv");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line, not a libbpf dump: {stderr}"
    );
    assert!(stderr.contains("CAP_BPF and CAP_PERFMON"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "sudo setcap cap_bpf,cap_perfmon+ep {}",
            exe.display()
        )),
        "{stderr}"
    );
}
