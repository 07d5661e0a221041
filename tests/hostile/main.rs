//! Hostile cases, one file per thing attacked: files the user controls (config, style,
//! state, the runtime directory), the probe service, the `--waybar` stream, scripts,
//! the config's size, and names processes give themselves. Each case was once a defect;
//! each test fails without its fix. Every process a test starts is ended by its pid or
//! process group. Needs root (the probe loads for real; second users).

#[path = "../common/mod.rs"]
mod common;

mod files;
mod layout;
mod names;
mod scripts;
mod service;
mod waybar;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

/// A home of its own: `XDG_CONFIG_HOME`, `XDG_STATE_HOME` and a private
/// `XDG_RUNTIME_DIR` under one temporary directory.
pub struct Home {
    pub dir: tempfile::TempDir,
}

impl Default for Home {
    fn default() -> Self {
        Home::new()
    }
}

impl Home {
    pub fn new() -> Home {
        let home = Home {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        for sub in ["config/ringbar", "state/ringbar", "run"] {
            std::fs::create_dir_all(home.path(sub)).expect("mkdir");
        }
        home
    }

    pub fn path(&self, sub: &str) -> PathBuf {
        self.dir.path().join(sub)
    }

    pub fn config(&self) -> PathBuf {
        self.path("config/ringbar/config.toml")
    }

    /// `ringbar ARGS` in this home, without a display.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(RINGBAR);
        command
            .args(args)
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env("XDG_STATE_HOME", self.path("state"))
            .env("XDG_RUNTIME_DIR", self.path("run"))
            .env("WAYLAND_DISPLAY", "ringbar-hostile-none")
            .env_remove("DISPLAY")
            .env_remove("RINGBAR_PROBE_SOCKET")
            .stdin(Stdio::null());
        command
    }
}

impl Home {
    /// `ringbar --waybar` in this home, its stdout piped to the test.
    pub fn waybar(&self) -> Running {
        Running(
            self.command(&["--waybar"])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn --waybar"),
        )
    }
}

/// Runs `command` to its end, or kills it after `limit` and fails.
pub fn finish(mut command: Command, limit: Duration) -> Output {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ringbar");
    let pid = child.id();
    let deadline = Instant::now() + limit;
    let waiter = std::thread::spawn(move || child.wait_with_output());
    while !waiter.is_finished() {
        if Instant::now() > deadline {
            kill(pid);
            let _ = waiter.join();
            panic!("ringbar (pid {pid}) still ran after {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    waiter.join().expect("waiter").expect("wait")
}

pub fn kill(pid: u32) {
    // SAFETY: kill takes plain integers; `pid` is a child of this test.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A running child killed and reaped when dropped.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether the process ends (and is reaped) within `limit`.
pub fn exits_within(running: &mut Running, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = running.0.try_wait() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A child's stdout read line by line on a thread of its own, so a test never waits on
/// a child that hangs longer than it allows.
pub struct Lines(std::sync::mpsc::Receiver<String>);

impl Lines {
    pub fn of(child: &mut Child) -> Lines {
        use std::io::BufRead;
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Lines(receiver)
    }

    /// The next line, or a failure naming `what` after `limit`.
    pub fn next(&self, what: &str, limit: Duration) -> String {
        self.0
            .recv_timeout(limit)
            .unwrap_or_else(|err| panic!("no line {what} within {limit:?}: {err}"))
    }

    /// Reads lines until one contains `needle`; fails after `limit`.
    pub fn until(&self, needle: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.next(&format!("with {needle:?}"), left);
            if line.contains(needle) {
                return line;
            }
        }
    }
}

pub fn mkfifo(path: &Path) {
    let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
}
