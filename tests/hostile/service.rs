//! The probe service against users who hoard connections or never read what it sends.

use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ringbar::records::wire;

use crate::common::service::ProbeService;
use crate::common::{serial, wait_for};
use crate::{text, Running};

/// A process of user `uid` that opens `count` connections to the service at `socket`,
/// reads nothing from them, and waits to be killed.
fn hoarder(uid: u32, socket: &Path, count: usize) -> Running {
    let script = format!(
        "import socket, sys, time\n\
         held = []\n\
         for _ in range({count}):\n\
         \x20   s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n\
         \x20   s.connect(sys.argv[1])\n\
         \x20   held.append(s)\n\
         print('holding', flush=True)\n\
         time.sleep(3600)\n"
    );
    python_as(uid, &script, socket, "holding")
}

/// `script` run by Debian's python3 as user `uid` with `socket` as its argument, once it
/// printed `ready`.
fn python_as(uid: u32, script: &str, socket: &Path, ready: &str) -> Running {
    let mut child = Command::new("setpriv")
        .args([
            &format!("--reuid={uid}"),
            &format!("--regid={uid}"),
            "--clear-groups",
            "--",
            // Debian's own: a user's pyenv shim is not reachable by another user.
            "/usr/bin/python3",
            "-c",
            script,
        ])
        .arg(socket)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 as another user");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the script's first line");
    assert_eq!(line.trim(), ready);
    Running(child)
}

fn world_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    dir
}

/// `ringbar --once --json` as `uid`, with no capability, through the service.
fn once_as(uid: u32, dir: &Path, socket: &Path) -> (serde_json::Value, String) {
    let plain = dir.join("ringbar-plain");
    if !plain.exists() {
        fs::copy(crate::RINGBAR, &plain).expect("copy");
        fs::set_permissions(&plain, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let out = Command::new("setpriv")
        .args([
            &format!("--reuid={uid}"),
            &format!("--regid={uid}"),
            "--clear-groups",
            "--",
        ])
        .arg(&plain)
        .args(["--once", "--json", "--interval-ms", "300"])
        .env("HOME", dir)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_RUNTIME_DIR")
        .env("RINGBAR_PROBE_SOCKET", socket)
        .output()
        .expect("ringbar --once");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    (serde_json::from_slice(&out.stdout).expect("JSON"), stderr)
}

#[test]
fn one_user_cannot_take_the_service_from_everyone_and_is_told_why() {
    crate::common::require_root();
    let dir = world_dir();
    let service = ProbeService::start(dir.path());
    let _hoard = hoarder(40_001, service.socket(), 64);
    wait_for("the refusals", Duration::from_secs(10), || {
        service.log_text().matches("client refused").count() >= 56
    });

    let (doc, stderr) = once_as(40_002, dir.path(), service.socket());
    assert_eq!(
        doc["source"], "bpf-service",
        "another user is served: {stderr}"
    );

    let (doc, stderr) = once_as(40_001, dir.path(), service.socket());
    assert_eq!(doc["source"], "proc", "{stderr}");
    assert!(
        stderr.contains("cannot serve this bar")
            && stderr.contains("refused: this user already holds 8 connections"),
        "the refused user is told plainly: {stderr}"
    );
    assert!(!stderr.contains("wrong size"), "{stderr}");
    assert!(!stderr.contains("setcap"), "{stderr}");
}

/// Failed `sendmsg` calls of `pid` over `span`, counted by strace.
fn failed_sends(pid: u32, span: Duration) -> u64 {
    let out = Command::new("timeout")
        .args(["-s", "INT", &format!("{}", span.as_secs())])
        .args([
            "strace",
            "-f",
            "-c",
            "-e",
            "trace=sendmsg",
            "-p",
            &pid.to_string(),
        ])
        .output()
        .expect("strace");
    let summary = text(&out.stderr);
    // `% time seconds usecs/call calls errors syscall`; errors is empty when none failed.
    summary
        .lines()
        .find(|l| l.trim_end().ends_with(" sendmsg"))
        .map_or(0, |line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() >= 6 {
                fields[4].parse().unwrap_or(0)
            } else {
                0
            }
        })
}

#[test]
fn clients_that_never_read_do_not_make_the_service_spin() {
    crate::common::require_root();
    let _serial = serial();
    let dir = world_dir();
    let service = ProbeService::start(dir.path());
    let hoarders: Vec<Running> = (0..7)
        .map(|i| hoarder(41_000 + i, service.socket(), 8))
        .collect();
    wait_for("56 clients", Duration::from_secs(10), || {
        service.log_text().matches("client connected").count() >= 56
    });
    // Process churn: every exit is pushed to every client, whose sockets fill.
    let churn = Running(
        Command::new("sh")
            .args(["-c", "while :; do /bin/true; done"])
            .spawn()
            .expect("churn"),
    );
    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(8));
    let failed = failed_sends(service.pid(), Duration::from_secs(3));
    drop(churn);
    drop(hoarders);
    assert!(
        failed < 56 * 4,
        "{failed} sends that would block in 3 s after {:?}: the service retries instead of \
         waiting for room",
        started.elapsed()
    );
}

/// A process of user `uid` that asks the service for walks back to back, on `count`
/// connections, reading each answer (and the exit reports between) as it comes, until
/// killed.
fn walk_spammer(uid: u32, socket: &Path, count: usize) -> Running {
    let script = format!(
        "import socket, struct, sys, threading, time\n\
         request = b'RBPS' + struct.pack('<HH', {version}, {walk})\n\
         def spam():\n\
         \x20   s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n\
         \x20   s.connect(sys.argv[1])\n\
         \x20   s.recv(65536)\n\
         \x20   while True:\n\
         \x20       s.send(request)\n\
         \x20       while struct.unpack('<H', s.recv(65536)[6:8])[0] != {walk}:\n\
         \x20           pass\n\
         for _ in range({count}):\n\
         \x20   threading.Thread(target=spam, daemon=True).start()\n\
         print('spamming', flush=True)\n\
         time.sleep(3600)\n",
        version = wire::VERSION,
        walk = wire::Op::Walk as u16,
    );
    python_as(uid, &script, socket, "spamming")
}

/// The service walks for one request of each client at a time, in turn, and each user gets
/// a share of its time: a user whose 8 connections ask without pause gets its walks, then
/// its share only, and another user's bar gets every sample walked, none timing out.
#[test]
fn clients_that_ask_for_walks_without_pause_starve_no_one() {
    use ringbar::records::service::client::RemoteProbe;
    crate::common::require_root();
    let _serial = serial();
    let dir = world_dir();
    let service = ProbeService::start(dir.path());
    let spammer = walk_spammer(41_100, service.socket(), 8);
    wait_for("8 spamming clients", Duration::from_secs(10), || {
        service.log_text().matches("client connected").count() >= 8
    });
    let spent_before = crate::common::service::cpu_time(service.pid());
    let mut bar = RemoteProbe::connect(service.socket()).expect("connect");
    let mut exits = Vec::new();
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let started = Instant::now();
        bar.request_walk();
        bar.read_tasks().expect("a sample beside the spammer");
        bar.drain_exits(&mut exits).expect("exits");
        slowest = slowest.max(started.elapsed());
        assert!(bar.walked() && bar.tasks().len() > 10, "walked for the bar");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Its burst (2 s of the service's time) spent, the spammer gets 50 ms a second.
    let cpu = || crate::common::service::cpu_time(service.pid());
    wait_for("the spammer's burst spent", Duration::from_secs(20), || {
        cpu() - spent_before >= Duration::from_millis(2300)
    });
    let before = cpu();
    std::thread::sleep(Duration::from_secs(3));
    let spent = cpu() - before;
    let log = service.log_text();
    drop(spammer);
    assert!(
        !log.contains("client gone"),
        "the spammer was served: {log}"
    );
    assert!(
        spent < Duration::from_millis(600),
        "the service spent {spent:?} of 3 s walking for one user"
    );
    println!("slowest sample beside 8 spamming clients: {slowest:?}; then {spent:?} in 3 s");
}
