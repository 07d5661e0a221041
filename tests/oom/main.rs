//! Real OOM kills: a process in a memory-limited cgroup allocates until the kernel kills
//! it. The probe reports it (pid, name, about the memory it held, a cgroup's OOM), the
//! `oom` module shows the notice, and `--waybar` and `--once --json`, running while it
//! happens, carry it. Needs root and a memory cgroup controller.

#[path = "../common/mod.rs"]
mod common;
mod memcg;
mod service;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::*;
use memcg::MemoryCgroup;
use ringbar::model::OomKill;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");
const LIMIT: u64 = 64 << 20;

/// Runs `rb-oom` (perl) in a cgroup limited to [`LIMIT`]: it waits for a line, then
/// allocates 16 MiB strings until the kernel kills it. Returns its pid once it is dead,
/// after checking that SIGKILL ended it.
fn oom_kill_one(subjects: &Subjects) -> u32 {
    let cgroup = MemoryCgroup::new(LIMIT);
    let perl = subjects.program("rb-oom", "/usr/bin/perl");
    let script = "<STDIN>; my @a; while (1) { push @a, 'x' x (16 << 20) }";
    let mut hog = Subject::spawn(&perl, &["-e", script]);
    let pid = hog.pid();
    cgroup.add(pid);
    hog.send_line("go");
    let status = hog.child.wait().expect("wait for rb-oom");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(9),
        "the OOM killer ends rb-oom: {status:?}"
    );
    pid
}

/// anon-rss + file-rss + shmem-rss in bytes of the kernel log's `Killed process PID`
/// line, which the OOM killer prints right after it marks the victim.
fn kernel_log_rss(pid: u32) -> Option<u64> {
    let log = Command::new("dmesg").output().expect("dmesg").stdout;
    let log = String::from_utf8_lossy(&log);
    let needle = format!("Killed process {pid} ");
    let line = log.lines().rev().find(|line| line.contains(&needle))?;
    let kb = |key: &str| -> Option<u64> {
        let rest = &line[line.find(key)? + key.len()..];
        rest[..rest.find("kB")?].parse().ok()
    };
    Some((kb("anon-rss:")? + kb("file-rss:")? + kb("shmem-rss:")?) * 1024)
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// ringbar as a user runs it, with a config and state of its own (the defaults).
fn ringbar(args: &[&str], home: &Path) -> Command {
    let mut command = Command::new(RINGBAR);
    command
        .args(args)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    command
}

#[test]
fn the_probe_reports_a_cgroup_oom_kill_with_pid_name_and_size() {
    require_root();
    let _serial = serial();
    let mut sampler = probe_sampler();
    sampler.take();
    assert_eq!(sampler.sample().oom_kills.total(), 0, "no kill before");
    let subjects = Subjects::new();
    let before = unix_ms();
    let pid = oom_kill_one(&subjects);
    let mut kill: Option<OomKill> = None;
    wait_for("the OOM kill report", Duration::from_secs(5), || {
        let sample = sampler.take();
        kill = sample
            .oom_kills
            .newest_first()
            .find(|k| k.pid == pid)
            .copied();
        kill.is_some()
    });
    let kill = kill.expect("reported");
    assert_eq!(name(&kill.comm), "rb-oom");
    assert!(kill.memcg, "a cgroup's OOM: {kill:?}");
    assert!(!kill.hidden);
    assert_eq!(kill.limit_bytes, LIMIT, "the cgroup's limit");
    // What it held when killed, as the kernel's own report of the kill counts it.
    let logged = kernel_log_rss(pid).expect("the kernel logs the kill");
    let rss = kill.rss_bytes as f64;
    assert!(
        (rss - logged as f64).abs() <= 0.02 * logged as f64,
        "rss {rss} against the kernel log's {logged}"
    );
    assert!(rss > 0.5 * LIMIT as f64, "most of the limit: {rss}");
    assert!(
        kill.unix_ms + 1000 >= before && kill.unix_ms <= unix_ms() + 1000,
        "kill time {} between {before} and now",
        kill.unix_ms
    );

    // The notice of the default layout's `oom` module, and the report's list.
    let sample = sampler.sample();
    let config = ringbar::config::Config::default();
    let module = config
        .modules
        .all()
        .find(|m| m.name() == "oom")
        .expect("oom");
    let mut text = String::new();
    let status = module.text(&input(sample), &mut text).expect("shown");
    assert!(text.starts_with("OOM: rb-oom "), "{text}");
    assert_eq!(status.class, Some("oom"));
    let mut report = String::new();
    ringbar::render::report::write(&mut ringbar::text::Plain(&mut report), sample);
    let line = format!("rb-oom {} · pid {pid} · cgroup limit 64M", &text[12..]);
    assert!(report.contains(&line), "{line:?} in:\n{report}");
}

/// The lines a running `--waybar` prints, as they come.
fn lines_of(child: &mut std::process::Child) -> mpsc::Receiver<String> {
    let (lines_tx, lines) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// The first line with the class `oom`, within 5 s of each other line.
fn oom_line(lines: &mpsc::Receiver<String>) -> Option<serde_json::Value> {
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(5)) {
        let doc: serde_json::Value = serde_json::from_str(&line).expect("JSON line");
        let classes = doc["class"].as_array().cloned().unwrap_or_default();
        if classes.iter().any(|c| c == "oom") {
            return Some(doc);
        }
    }
    None
}

#[test]
fn waybar_and_once_json_running_meanwhile_carry_the_notice() {
    require_root();
    let _serial = serial();
    let home = tempfile::tempdir().expect("tempdir");
    let mut waybar = ringbar(&["--waybar"], home.path())
        .spawn()
        .expect("ringbar --waybar");
    let lines = lines_of(&mut waybar);
    lines
        .recv_timeout(Duration::from_secs(10))
        .expect("a first line");
    // --once takes its two samples 4 s apart: the kill falls between them.
    let once = ringbar(&["--once", "--json", "--interval-ms", "4000"], home.path())
        .spawn()
        .expect("ringbar --once");
    std::thread::sleep(Duration::from_millis(1000));

    let subjects = Subjects::new();
    let pid = oom_kill_one(&subjects);

    let notice = oom_line(&lines);
    let _ = waybar.kill();
    let _ = waybar.wait();
    let notice = notice.expect("a --waybar line with the class oom");
    let text = notice["text"].as_str().expect("text");
    assert!(text.contains("OOM: rb-oom "), "{text}");
    let tooltip = notice["tooltip"].as_str().expect("tooltip");
    assert!(
        tooltip.contains(&format!(" · pid {pid} · cgroup limit 64M")),
        "{tooltip}"
    );

    let output = once.wait_with_output().expect("--once");
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).expect("--json");
    let latest = &doc["oom_kills"]["latest"][0];
    assert_eq!(latest["pid"], pid, "{doc:#}");
    assert_eq!(latest["name"], "rb-oom");
    assert_eq!(latest["cgroup"], true);
    assert_eq!(latest["limit_bytes"], LIMIT);
    let module = doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .find(|m| m["name"] == "oom")
        .expect("the oom module");
    assert!(
        module["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("OOM: rb-oom ")),
        "{module}"
    );
}
