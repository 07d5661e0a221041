//! `--once`, `--once --json` and `--waybar` from the real binary: what they print on fake
//! machines (sysfs trees in the kernel's documented layouts, mounted over /sys in a private
//! mount namespace, the kernel's own /sys/kernel kept so the probe still loads), JSON
//! checked with a parser against /proc, and `ringbar msg` against a running `--waybar`.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::Duration;

use common::*;
use ringbar::sensors::fixtures;
use serde_json::Value as Json;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

/// The kinds of machine the sensors know, as sysfs trees.
#[derive(Clone, Copy, Debug)]
enum Machine {
    /// k10temp, an amdgpu card, a platform profile.
    AmdDesktop,
    /// coretemp, cpufreq, i915 with RC6 and throttle reasons, a platform profile, a battery
    /// half full and discharging at 12 W (beside its charger and a mouse's battery).
    IntelLaptop,
    /// No sensor at all.
    Bare,
}

fn build(machine: Machine, sys: &Path) {
    match machine {
        Machine::AmdDesktop => {
            fixtures::amd_desktop(sys);
            fixtures::write(sys, "firmware/acpi/platform_profile", "performance\n");
            fixtures::write(
                sys,
                "firmware/acpi/platform_profile_choices",
                "low-power balanced performance\n",
            );
        }
        Machine::IntelLaptop => {
            fixtures::intel_i915_laptop(sys);
            fixtures::battery(
                sys,
                "BAT0",
                "Discharging",
                30_000_000,
                60_000_000,
                12_000_000,
            );
            fixtures::charger_and_mouse(sys, false);
        }
        Machine::Bare => {}
    }
}

/// `ringbar ARGS` on `machine`: its tree over /sys, with the real /sys/kernel (BTF) in it.
fn on(machine: Machine, args: &[&str]) -> (Command, tempfile::TempDir) {
    fake_sys::ringbar_on(|sys| build(machine, sys), args)
}

fn run_on(machine: Machine, args: &[&str]) -> Output {
    let (mut command, _dir) = on(machine, args);
    let out = command.output().expect("run ringbar");
    assert!(
        out.status.success(),
        "ringbar {args:?} on {machine:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "the probe loads and nothing goes wrong"
    );
    out
}

fn once_text(machine: Machine) -> String {
    let out = run_on(machine, &["--once", "--interval-ms", "300"]);
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn once_json(machine: Machine, extra: &[&str]) -> Json {
    let mut args = vec!["--once", "--json", "--interval-ms", "300"];
    args.extend_from_slice(extra);
    let out = run_on(machine, &args);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The entry of `modules[]` for `name`.
fn module<'a>(doc: &'a Json, name: &str) -> &'a Json {
    doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no module {name}: {doc}"))
}

/// The first `n` lines `--waybar` prints, each parsed.
fn waybar_lines(mut child: Child, n: usize) -> Vec<Json> {
    let stdout: ChildStdout = child.stdout.take().expect("piped");
    let mut lines = BufReader::new(stdout).lines();
    let parsed = (0..n)
        .map(|_| {
            let line = lines.next().expect("a line").expect("readable");
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
        })
        .collect();
    let _ = child.kill();
    let _ = child.wait();
    parsed
}

fn waybar_on(machine: Machine) -> Vec<Json> {
    let (mut command, _dir) = on(machine, &["--waybar"]);
    let child = command.stdout(Stdio::piped()).spawn().expect("start");
    waybar_lines(child, 2)
}

#[test]
fn an_amd_desktop_shows_its_sensors_in_every_output() {
    require_root();
    let text = once_text(Machine::AmdDesktop);
    let first = text.lines().next().expect("modules line");
    assert!(
        first.contains("°C") && first.contains("  GPU 37% 61°C"),
        "{text}"
    );
    assert!(
        text.contains("\nGPU\n  card1 amdgpu  37.0% · 1800 MHz · 61°C · VRAM 1.2G / 8.0G\n"),
        "{text}"
    );
    assert!(
        text.contains("\nPower  performance (low-power balanced performance)\n"),
        "{text}"
    );

    let doc = once_json(Machine::AmdDesktop, &[]);
    let gpu = &doc["gpus"][0];
    assert_eq!(
        (gpu["card"].as_str(), gpu["driver"].as_str()),
        (Some("card1"), Some("amdgpu"))
    );
    assert_eq!(gpu["busy_percent"], 37.0);
    assert_eq!(gpu["temperature_celsius"], 61.0);
    assert_eq!(
        gpu["vram_total_bytes"], 8_573_157_376u64,
        "mem_info_vram_total"
    );
    assert!(doc["cpu"]["temperature_celsius"].is_f64(), "k10temp: {doc}");
    assert_eq!(doc["power_profile"]["current"], "performance");
    assert_eq!(module(&doc, "gpu")["text"], "GPU 37% 61°C");

    let lines = waybar_on(Machine::AmdDesktop);
    let text = lines[1]["text"].as_str().expect("text");
    assert!(
        text.contains("GPU 37% 61°C") && text.contains("MEM "),
        "{text}"
    );
    let tooltip = lines[1]["tooltip"].as_str().expect("tooltip");
    assert!(
        tooltip.contains("card1 amdgpu") && tooltip.contains("<b>Power</b>"),
        "{tooltip}"
    );
}

#[test]
fn an_intel_laptop_shows_its_sensors_in_every_output() {
    require_root();
    let text = once_text(Machine::IntelLaptop);
    let first = text.lines().next().expect("modules line");
    assert!(
        first.contains("  CPU ") && first.contains("°C") && first.contains("GHz"),
        "{text}"
    );
    assert!(first.contains("  GPU "), "{text}");
    assert!(text.contains("\n  card0 i915  "), "{text}");
    assert!(first.ends_with("  BAT 50% 2:30"), "{text}");
    assert!(
        text.contains("\nBattery  50% · discharging · 12.0 W · 2:30 left\n  BAT0  50% · 30.0 / 60.0 Wh · health 90%\n"),
        "{text}"
    );
    assert!(
        text.contains("\nPower  balanced (low-power balanced performance)\n"),
        "{text}"
    );

    let doc = once_json(Machine::IntelLaptop, &[]);
    let gpu = &doc["gpus"][0];
    assert_eq!(gpu["driver"], "i915");
    assert!(
        gpu["busy_percent"].is_f64() && gpu["max_mhz"].is_f64(),
        "{gpu}"
    );
    assert!(gpu["throttle"].is_array(), "{gpu}");
    assert!(doc["cpu"]["average_mhz"].is_f64(), "{doc}");
    assert_eq!(doc["battery"]["capacity_percent"], 50.0);
    assert_eq!(doc["battery"]["seconds_left"], 9000);
    assert_eq!(
        doc["batteries"].as_array().map(Vec::len),
        Some(1),
        "not the mouse"
    );
    assert_eq!(doc["batteries"][0]["power_w"], 12.0);
    assert_eq!(module(&doc, "battery")["text"], "BAT 50% 2:30");

    let lines = waybar_on(Machine::IntelLaptop);
    let tooltip = lines[1]["tooltip"].as_str().expect("tooltip");
    assert!(tooltip.contains("card0 i915"), "{tooltip}");
    assert!(tooltip.contains("<b>Battery</b>  50%"), "{tooltip}");
    assert!(lines[1]["text"]
        .as_str()
        .expect("text")
        .ends_with("BAT 50% 2:30"));
}

#[test]
fn a_machine_without_sensors_shows_none_and_no_dashes() {
    require_root();
    let text = once_text(Machine::Bare);
    assert!(
        !text.contains("GPU") && !text.contains("°C") && !text.contains('–'),
        "{text}"
    );
    assert!(!text.contains("Power"), "{text}");
    let doc = once_json(Machine::Bare, &[]);
    assert_eq!(doc["gpus"], Json::Array(Vec::new()));
    assert!(doc["cpu"].get("temperature_celsius").is_none(), "{doc}");
    assert!(doc["power_profile"].is_null());
    assert_eq!(module(&doc, "gpu")["visible"], false);
    assert_eq!(
        module(&doc, "battery")["visible"],
        false,
        "no battery, no battery module"
    );
    assert_eq!(doc["battery"], Json::Null);
    let lines = waybar_on(Machine::Bare);
    assert!(!lines[1]["text"].as_str().expect("text").contains("GPU"));
}

/// A value of /proc/meminfo in bytes.
fn meminfo(key: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/meminfo").expect("meminfo");
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{key}:")))
        .expect("key");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .expect("value")
        .parse()
        .expect("number");
    kib * 1024
}

#[test]
fn once_json_agrees_with_proc() {
    require_root();
    let _serial = serial();
    let subjects = Subjects::new();
    let spin = Subject::spawn(
        &subjects.program("rb-json-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    std::thread::sleep(Duration::from_millis(200));
    let out = Command::new(RINGBAR)
        .args([
            "--once",
            "--json",
            "--interval-ms",
            "1000",
            "--kernel-threads",
        ])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Json = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["source"], "bpf");
    assert_eq!(
        (doc["interval_ms"].as_u64(), doc["kernel_threads"].as_bool()),
        (Some(1000), Some(true))
    );
    assert_eq!(
        doc["memory"]["total_bytes"].as_u64(),
        Some(meminfo("MemTotal"))
    );
    let row = doc["cpu"]["top"]
        .as_array()
        .expect("top")
        .iter()
        .find(|row| row["pid"].as_u64() == Some(u64::from(spin.pid())))
        .unwrap_or_else(|| panic!("the spinner in the CPU list: {doc}"));
    assert_eq!(row["name"], "rb-json-spin");
    let percent = row["core_percent"].as_f64().expect("a number");
    // The value's accuracy is tests/probe_accuracy's (exact windows); here, its form.
    assert!(percent > 0.0 && percent <= 105.0, "{percent}");
    let busy = doc["cpu"]["busy_percent"].as_f64().expect("a number");
    assert!(busy >= 45.0, "one of two CPUs spins: {busy}");
    let cpu = module(&doc, "cpu");
    assert!(cpu["percentage"]
        .as_f64()
        .is_some_and(|p| (p - busy).abs() < 1e-9));
    // No compositor here: its modules are hidden; the clock shows.
    assert_eq!(module(&doc, "workspaces")["visible"], false);
    assert_eq!(module(&doc, "clock")["visible"], true);
}

#[test]
fn a_closed_pipe_ends_once_quietly() {
    require_root();
    let out = Command::new("sh")
        .args(["-c", &format!("{RINGBAR} --once --interval-ms 100 | head -c 1 >/dev/null; echo \"${{PIPESTATUS:-}}\"")])
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    // Without bash's PIPESTATUS, check the exit status directly through a FIFO-less pipe.
    let mut child = Command::new(RINGBAR)
        .args(["--once", "--interval-ms", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take()); // the reader goes away at once
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Waybar's cpu frequency fields on the laptop's cpufreq (2.1, 0.9 and 3.0 GHz online,
/// a fourth core offline at 0.4), each rounded up to 10 MHz as Waybar rounds them.
#[test]
fn the_cpu_frequency_fields_come_from_the_online_cores() {
    require_root();
    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"cpu\"]\n\
        [cpu]\nformat = \"{min_frequency}/{avg_frequency}/{max_frequency} GHz\"\n";
    let doc = fake_sys::once_json_with(|sys| build(Machine::IntelLaptop, sys), config);
    let cpu = doc["modules"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == "cpu"))
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(cpu["text"], "0.9/2/3 GHz", "{cpu}");
    assert_eq!(doc["cpu"]["lowest_mhz"], 900.0, "{doc}");
}
