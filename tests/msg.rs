//! `ringbar msg` against a real `ringbar --waybar` (the bar's own test is in bar.rs): it
//! acts, it fails cleanly with nothing running, and another user cannot use it.

mod common;

use std::io::{BufRead, BufReader, Lines};
use std::os::unix::fs::PermissionsExt;
use std::process::{Child, ChildStdout, Command, Output, Stdio};

use common::*;
use serde_json::Value as Json;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");
const WAIT: std::time::Duration = std::time::Duration::from_secs(20);

struct Stream {
    child: Child,
    /// Taken by a test that drains them on a thread of its own.
    lines: Option<Lines<BufReader<ChildStdout>>>,
}

impl Stream {
    fn start(home: &std::path::Path) -> Stream {
        Stream::start_with(home, &[])
    }

    fn start_with(home: &std::path::Path, args: &[&str]) -> Stream {
        let mut child = Command::new(RINGBAR)
            .arg("--waybar")
            .args(args)
            .env("HOME", home)
            .env("XDG_RUNTIME_DIR", home.join("run"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_STATE_HOME", home.join("state"))
            .stdout(Stdio::piped())
            .spawn()
            .expect("start --waybar");
        let lines = BufReader::new(child.stdout.take().expect("piped")).lines();
        Stream {
            child,
            lines: Some(lines),
        }
    }

    /// Reads lines until one's tooltip contains `needle` (at most 8 lines).
    fn wait_for(&mut self, needle: &str) -> Json {
        for _ in 0..8 {
            let lines = self.lines.as_mut().expect("not drained");
            let line = lines.next().expect("a line").expect("readable");
            let json: Json = serde_json::from_str(&line).expect("JSON");
            let tooltip = json["tooltip"].as_str().unwrap_or_default();
            let text = json["text"].as_str().unwrap_or_default();
            if tooltip.contains(needle) || text.contains(needle) {
                return json;
            }
        }
        panic!("no line with `{needle}`");
    }
}

impl Drop for Stream {
    /// Ends it as a session does (SIGTERM), and kills it if it has not ended in 10 s.
    fn drop(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A home with its private runtime directory (`run`, mode 0700), as a session has one.
fn private_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(home.path().join("run")).expect("mkdir");
    std::fs::set_permissions(
        home.path().join("run"),
        std::fs::Permissions::from_mode(0o700),
    )
    .expect("chmod");
    home
}

fn msg(home: &std::path::Path, word: &str) -> Output {
    Command::new(RINGBAR)
        .args(["msg", word])
        .env("XDG_RUNTIME_DIR", home.join("run"))
        .output()
        .expect("run msg")
}

#[test]
fn msg_drives_a_running_waybar_stream_and_fails_cleanly_without_one() {
    require_root();
    let home = private_home();

    let none = msg(home.path(), "reload");
    assert_eq!(none.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&none.stderr);
    assert!(
        stderr.starts_with("ringbar: no ringbar is running"),
        "{stderr}"
    );

    let mut stream = Stream::start(home.path());
    stream.wait_for("every 2000 ms · kernel threads excluded");
    let ok = msg(home.path(), "cycle-interval");
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert_eq!(ok.stdout, b"");
    stream.wait_for("every 1000 ms");
    assert_eq!(
        msg(home.path(), "toggle-kernel-threads").status.code(),
        Some(0)
    );
    // Right click's message: apps instead of processes (this machine may have either
    // by default), and back.
    let before = stream.wait_for("kernel threads included");
    let by_app = before["tooltip"]
        .as_str()
        .expect("tooltip")
        .contains("· by app");
    let (next, back) = if by_app {
        ("· by process", "· by app")
    } else {
        ("· by app", "· by process")
    };
    assert_eq!(msg(home.path(), "toggle-group-by").status.code(), Some(0));
    stream.wait_for(next);
    assert_eq!(msg(home.path(), "toggle-group-by").status.code(), Some(0));
    stream.wait_for(back);

    // The running instance keeps its own settings: reload reads its config.
    let config = home.path().join("config/ringbar/config.toml");
    std::fs::create_dir_all(config.parent().expect("dir")).expect("mkdir");
    std::fs::write(&config, "modules_left = [\"memory\"]\n").expect("write");
    assert_eq!(msg(home.path(), "reload").status.code(), Some(0));
    // The lines before the reload show `MEM` too, after the cpu's text: the first line
    // that starts with it is the reloaded config's (one CI run took an earlier one).
    let reloaded = (0..8)
        .map(|_| stream.wait_for("MEM "))
        .find(|line| line["text"].as_str().is_some_and(|t| t.starts_with("MEM ")));
    assert!(reloaded.is_some(), "no line of the memory module alone");
    let state = std::fs::read_to_string(home.path().join("state/ringbar/state.toml"))
        .expect("the choices are remembered");
    assert!(state.contains("interval_ms = 1000") && state.contains("kernel_threads = true"));

    // Another user cannot reach it: the directory is the owner's alone.
    let exe_dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(exe_dir.path(), std::fs::Permissions::from_mode(0o755))
        .expect("chmod");
    let exe = exe_dir.path().join("ringbar");
    crate::common::copy_bar(&exe);
    let as_nobody = || {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(&exe)
            .args(["msg", "cycle-interval"])
            .env("XDG_RUNTIME_DIR", home.path().join("run"))
            .output()
            .expect("run msg as nobody")
    };
    // The copy may be "Text file busy" for a moment: a process another test thread forked
    // while the copy was open for writing holds it until that process execs.
    let mut other = as_nobody();
    for _ in 0..50 {
        if !String::from_utf8_lossy(&other.stderr).contains("Text file busy") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        other = as_nobody();
    }
    assert_eq!(
        other.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    stream.wait_for("every 1000 ms");

    // Killed: its socket is left behind, found stale, and removed.
    drop(stream);
    assert_eq!(msg(home.path(), "cycle-interval").status.code(), Some(1));
    let left: Vec<_> = std::fs::read_dir(home.path().join("run/ringbar"))
        .expect("dir")
        .collect();
    assert!(left.is_empty(), "stale sockets are swept: {left:?}");
}

/// The interval in config.toml wins over a click made before it was edited: on reload,
/// and at the next start.
#[test]
fn an_edited_config_interval_wins_over_an_earlier_click() {
    require_root();
    let home = private_home();
    std::fs::create_dir_all(home.path().join("config/ringbar")).expect("mkdir");
    let config = home.path().join("config/ringbar/config.toml");
    std::fs::write(&config, "interval_ms = 2000\n").expect("config");
    let mut stream = Stream::start(home.path());
    stream.wait_for("every 2000 ms");
    let clicked = || {
        let out = msg(home.path(), "cycle-interval");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    clicked();
    stream.wait_for("every 1000 ms");
    std::fs::write(&config, "interval_ms = 500\n").expect("config");
    assert!(msg(home.path(), "reload").status.success());
    stream.wait_for("every 500 ms");
    clicked();
    stream.wait_for("every 250 ms");
    drop(stream);

    // Edited while nothing ran: the next start takes the config's value.
    std::fs::write(&config, "interval_ms = 1000\n").expect("config");
    let mut stream = Stream::start(home.path());
    stream.wait_for("every 1000 ms");
    drop(stream);
    // Not edited: the click is remembered.
    let mut stream = Stream::start(home.path());
    stream.wait_for("every 1000 ms");
    clicked();
    stream.wait_for("every 500 ms");
    drop(stream);
    let mut stream = Stream::start(home.path());
    stream.wait_for("every 500 ms");
    drop(stream);
    // The command line, as a Waybar user writes it in `exec`.
    let mut stream = Stream::start_with(home.path(), &["--interval-ms", "250"]);
    stream.wait_for("every 250 ms");
}

/// A busy instance is not a missing one: a stopped `--waybar` (the extreme of busy) gets
/// the command queued and carries it out when it runs again, and a thousand clients at
/// once each get their command carried out, none told that nothing runs.
#[test]
fn a_busy_instance_queues_commands_and_loses_none() {
    require_root();
    let home = private_home();
    let mut stream = Stream::start(home.path());
    stream.wait_for("every 2000 ms");
    let pid = stream.child.id().to_string();
    // Its lines are read all along, so a full pipe never stops it.
    let latest = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let (sink, mut lines) = (latest.clone(), stream.lines.take().expect("lines"));
    std::thread::spawn(move || {
        while let Some(Ok(line)) = lines.next() {
            *sink.lock().expect("lock") = line;
        }
    });
    let shows = |needle: &str| latest.lock().expect("lock").contains(needle);

    let signal = |name: &str| {
        let status = Command::new("kill").args([name, &pid]).status();
        assert!(status.expect("kill").success());
    };
    signal("-STOP");
    let stopped = msg(home.path(), "cycle-interval");
    let stderr = String::from_utf8_lossy(&stopped.stderr).into_owned();
    signal("-CONT");
    assert_eq!(stopped.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("is busy: `cycle-interval` waits in its queue"),
        "{stderr}"
    );
    wait_for("the queued command carried out", WAIT, || {
        shows("every 1000 ms")
    });

    // 1001 more: 1001 steps of a 5-step cycle end one step on, at 500 ms.
    let clients: Vec<_> = (0..1001)
        .map(|_| {
            Command::new(RINGBAR)
                .args(["msg", "cycle-interval"])
                .env("XDG_RUNTIME_DIR", home.path().join("run"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start msg")
        })
        .collect();
    let mut failed = Vec::new();
    for client in clients {
        let out = client.wait_with_output().expect("msg ends");
        if !out.status.success() {
            failed.push(String::from_utf8_lossy(&out.stderr).into_owned());
        }
    }
    assert!(
        failed.is_empty(),
        "{} failed, first: {:?}",
        failed.len(),
        failed.first()
    );
    let state = home.path().join("state/ringbar/state.toml");
    let remembered = || std::fs::read_to_string(&state).unwrap_or_default();
    wait_for("every command carried out", WAIT, || {
        remembered().contains("interval_ms = 500") && shows("every 500 ms")
    });
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert!(
        remembered().contains("interval_ms = 500"),
        "{}",
        remembered()
    );
}
