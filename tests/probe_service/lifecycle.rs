//! The service killed under a running bar, socket-activated as systemd does, and its units.

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::service::ProbeService;
use crate::common::*;
use crate::*;

#[test]
fn a_bar_outlives_the_service_killed_mid_sample_and_reconnects() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let plain = dir.path().join("ringbar-plain");
    crate::common::copy_bar(&plain);
    fs::set_permissions(&plain, fs::Permissions::from_mode(0o755)).expect("chmod");
    let config = dir.path().join(".config/ringbar");
    fs::create_dir_all(&config).expect("mkdir");
    fs::write(config.join("config.toml"), "interval_ms = 100\n").expect("config");
    let status = Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(dir.path().join(".config"))
        .status()
        .expect("chown");
    assert!(status.success());

    let mut service = ProbeService::start(dir.path());
    let mut bar = as_nobody(&plain)
        .arg("--waybar")
        .env("HOME", dir.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_RUNTIME_DIR")
        .env("RINGBAR_PROBE_SOCKET", service.socket())
        .stdout(Stdio::piped())
        .stderr(fs::File::create(dir.path().join("bar.log")).expect("log"))
        .spawn()
        .expect("start ringbar --waybar");
    let lines = Arc::new(Mutex::new(Vec::<(Instant, String)>::new()));
    let reader = {
        let lines = Arc::clone(&lines);
        let stdout = bar.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                lines.lock().expect("lines").push((Instant::now(), line));
            }
        })
    };
    let count = || lines.lock().expect("lines").len();
    wait_for("the first lines", Duration::from_secs(10), || count() >= 3);

    // Killed at moments that fall anywhere in the 100 ms sample cycle, five times.
    for round in 0..5u64 {
        std::thread::sleep(Duration::from_millis(170 + 37 * round));
        service.kill();
        std::thread::sleep(Duration::from_millis(250));
        assert!(
            bar.try_wait().expect("wait").is_none(),
            "the bar died with the service"
        );
        service = ProbeService::start(dir.path());
    }
    let connections = || service_connections(&service);
    wait_for(
        "the bar to connect to the last service",
        Duration::from_secs(10),
        || connections() >= 1,
    );
    let before = count();
    wait_for(
        "lines after the last restart",
        Duration::from_secs(10),
        || count() >= before + 5,
    );
    assert!(bar.try_wait().expect("wait").is_none(), "still running");
    // The service may keep a sample waiting up to the client's timeout, so its samples
    // stay on the sampling thread, short as they are (dozens of them by now).
    let threads = thread_names(bar.id());
    assert!(
        threads
            .iter()
            .any(|name| name == ringbar::app::worker::THREAD_NAME),
        "a sampling thread among {threads:?}"
    );
    let _ = bar.kill();
    let _ = bar.wait();
    let _ = reader.join();
    let log = fs::read_to_string(dir.path().join("bar.log")).unwrap_or_default();
    assert!(log.contains("connecting again"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
    let last = lines
        .lock()
        .expect("lines")
        .last()
        .cloned()
        .expect("a line");
    let doc: serde_json::Value = serde_json::from_str(&last.1).expect("a Waybar JSON line");
    assert!(
        doc["text"].as_str().is_some_and(|t| t.contains("CPU")),
        "{doc}"
    );
}

fn service_connections(service: &ProbeService) -> usize {
    service
        .log_text()
        .matches("client connected uid=65534")
        .count()
}

/// Socket activation as systemd does it (`systemd-socket-activate` passes the listening
/// socket as fd 3 with LISTEN_FDS/LISTEN_PID), and a bar without capabilities served by it.
/// The service starts 2 s late (a shell sleeps, then becomes the service: the same pid, as
/// LISTEN_PID wants), longer than a request's timeout, as the probe's verification can
/// take on a busy machine: the bar's first connection waits for it.
#[test]
fn a_socket_activated_service_serves_a_bar_without_capabilities() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let socket = dir.path().join("activated.sock");
    let log = dir.path().join("activated.log");
    let mut activator = Command::new("systemd-socket-activate")
        .args(["--seqpacket", "--listen"])
        .arg(&socket)
        .args(["sh", "-c", "sleep 2; exec \"$0\""])
        .arg(env!("CARGO_BIN_EXE_ringbar-probe"))
        .stderr(fs::File::create(&log).expect("log"))
        .spawn()
        .expect("systemd-socket-activate (package systemd)");
    wait_for("the activation socket", Duration::from_secs(10), || {
        socket.exists()
    });
    fs::set_permissions(&socket, fs::Permissions::from_mode(0o666)).expect("chmod");
    let plain = dir.path().join("ringbar-plain");
    crate::common::copy_bar(&plain);
    fs::set_permissions(&plain, fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = as_nobody(&plain)
        .args(["--once", "--json", "--interval-ms", "500"])
        .env("HOME", dir.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .env("RINGBAR_PROBE_SOCKET", &socket)
        .output()
        .expect("ringbar --once");
    let _ = activator.kill();
    let _ = activator.wait();
    let log = fs::read_to_string(&log).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\n{log}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["source"], "bpf-service", "{log}");
    assert!(doc["cpu"]["busy_percent"].as_f64().is_some(), "{doc}");
    assert!(log.contains("client connected uid=65534"), "{log}");
}

/// The units in data/systemd pass `systemd-analyze verify` (with ExecStart pointed at
/// this build: verify checks that the program exists).
#[test]
fn the_systemd_units_verify() {
    let dir = tempfile::tempdir().expect("tempdir");
    let units = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/systemd");
    for name in ["ringbar-probe.socket", "ringbar-probe.service"] {
        let text = fs::read_to_string(units.join(name)).expect("unit");
        let text = text.replace(
            "/usr/local/bin/ringbar-probe",
            env!("CARGO_BIN_EXE_ringbar-probe"),
        );
        fs::write(dir.path().join(name), text).expect("write");
    }
    let out = Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(dir.path().join("ringbar-probe.socket"))
        .arg(dir.path().join("ringbar-probe.service"))
        .output()
        .expect("systemd-analyze (package systemd)");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.trim().is_empty(), "{said}");
}
