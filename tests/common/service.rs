//! The real probe service, `ringbar-probe`, run as root on a socket of the test's own.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::wait_for;

pub struct ProbeService {
    child: Child,
    socket: PathBuf,
    log: PathBuf,
}

impl ProbeService {
    /// Starts the service listening at `dir/probe.sock`; returns once it serves.
    pub fn start(dir: &Path) -> ProbeService {
        ProbeService::start_with(dir, &[])
    }

    /// As [`ProbeService::start`], with `env` set for the service.
    pub fn start_with(dir: &Path, env: &[(&str, &str)]) -> ProbeService {
        let socket = dir.join("probe.sock");
        let log = dir.join(format!(
            "probe-{}.log",
            std::time::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos())
        ));
        let child = Command::new(env!("CARGO_BIN_EXE_ringbar-probe"))
            .arg("--socket")
            .arg(&socket)
            .env("RINGBAR_LOG", "info")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).expect("log file"))
            .spawn()
            .expect("start ringbar-probe");
        let service = ProbeService { child, socket, log };
        wait_for(
            "the probe service to serve",
            Duration::from_secs(20),
            || service.log_text().contains("serving"),
        );
        service
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL: no chance to say goodbye to its clients.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ProbeService {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Environment of a child process that runs [`client_crowd_child`]: the service's socket.
pub const CROWD_SOCKET: &str = "RINGBAR_TEST_CROWD_SOCKET";
/// Clients the child runs, samples each takes, and milliseconds between samples:
/// "8,10,100".
pub const CROWD_SHAPE: &str = "RINGBAR_TEST_CROWD_SHAPE";

/// The body of a child process started with [`CROWD_SOCKET`] and [`CROWD_SHAPE`] set:
/// that many clients of the service, each on its own thread sampling as a bar does (its
/// records, then its exit reports) at the interval; each prints `client <walked samples>
/// <samples>` at the end. Returns at once without them.
pub fn client_crowd_child() {
    let (Some(socket), Some(shape)) = (
        std::env::var_os(CROWD_SOCKET),
        std::env::var(CROWD_SHAPE).ok(),
    ) else {
        return;
    };
    let shape: Vec<u64> = shape
        .split(',')
        .map(|n| n.parse().expect("number"))
        .collect();
    let [clients, samples, interval_ms] = shape[..] else {
        panic!("{CROWD_SHAPE}: clients,samples,interval_ms");
    };
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let socket = PathBuf::from(&socket);
            std::thread::spawn(move || {
                use ringbar::records::service::client::RemoteProbe;
                let mut remote = RemoteProbe::connect(&socket).expect("connect");
                let mut exits = Vec::new();
                let mut walked = 0;
                for _ in 0..samples {
                    remote.request_walk();
                    remote.read_tasks().expect("tasks");
                    remote.drain_exits(&mut exits).expect("exits");
                    walked += u64::from(remote.walked() && !remote.tasks().is_empty());
                    std::thread::sleep(Duration::from_millis(interval_ms));
                }
                walked
            })
        })
        .collect();
    for thread in threads {
        println!("client {} {samples}", thread.join().expect("client"));
    }
}

/// CPU time (user and system) a process has used.
pub fn cpu_time(pid: u32) -> Duration {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    let after_name = &stat[stat.rfind(')').expect("comm") + 2..];
    let ticks: u64 = after_name
        .split_whitespace()
        .skip(11) // utime is field 14; this slice starts at field 3
        .take(2)
        .map(|f| f.parse::<u64>().expect("ticks"))
        .sum();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    Duration::from_millis(ticks * 1000 / hz)
}

/// Starts `users` children of `test_binary` (its test `child_test`, which calls
/// [`client_crowd_child`]), each as its own uid from 61000 on, with `shape`; returns the
/// children, whose stdout holds their `client` lines.
pub fn start_crowd(
    test_binary: &Path,
    child_test: &str,
    socket: &Path,
    users: u32,
    shape: &str,
) -> Vec<Child> {
    (0..users)
        .map(|user| {
            let uid = format!("--reuid={}", 61000 + user);
            let gid = format!("--regid={}", 61000 + user);
            Command::new("setpriv")
                .args([uid.as_str(), gid.as_str(), "--clear-groups", "--"])
                .arg(test_binary)
                .args(["--exact", child_test, "--nocapture", "--test-threads=1"])
                .env(CROWD_SOCKET, socket)
                .env(CROWD_SHAPE, shape)
                .stdout(Stdio::piped())
                .spawn()
                .expect("start a crowd of clients")
        })
        .collect()
}

/// Waits for the crowd's children: every `(walked, samples)` their clients printed.
pub fn crowd_results(children: Vec<Child>) -> Vec<(u64, u64)> {
    let mut results = Vec::new();
    for child in children {
        let out = child.wait_with_output().expect("crowd child");
        assert!(out.status.success(), "a crowd child failed");
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            // libtest's "test … ... " may come first on the line.
            if let Some((_, rest)) = line.split_once("client ") {
                let numbers: Vec<u64> = rest
                    .split_whitespace()
                    .map(|n| n.parse().expect("number"))
                    .collect();
                results.push((numbers[0], numbers[1]));
            }
        }
    }
    results
}
