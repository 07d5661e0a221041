//! `--waybar` against a Waybar that stops reading, and against the signals Waybar users
//! send to their bars.

use std::io::Read;
use std::os::fd::AsRawFd;
use std::process::{ChildStdout, Stdio};
use std::time::{Duration, Instant};

use crate::common::wait_for;
use crate::{exits_within, Home, Lines, Running};

const WAIT: Duration = Duration::from_secs(60);

fn start(home: &Home) -> Running {
    std::fs::write(home.config(), "interval_ms = 100\n").expect("config");
    home.waybar()
}

/// Bytes waiting in the pipe.
fn queued(stdout: &ChildStdout) -> usize {
    let mut bytes: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int; the fd is our pipe's read end.
    unsafe { libc::ioctl(stdout.as_raw_fd(), libc::FIONREAD, &mut bytes) };
    bytes as usize
}

/// Waits until the pipe takes no more: what it holds stays the same for 1.5 s while ten
/// lines a second are offered (a pipe's 16 pages fill unevenly, so no byte count says it).
fn wait_until_full(stdout: &ChildStdout) {
    let deadline = Instant::now() + WAIT;
    let (mut last, mut same) = (queued(stdout), 0);
    while same < 3 || last < 16 * 1024 {
        assert!(
            Instant::now() < deadline,
            "the pipe never filled: {last} bytes"
        );
        std::thread::sleep(Duration::from_millis(500));
        let now = queued(stdout);
        same = if now == last { same + 1 } else { 0 };
        last = now;
    }
}

fn msg_works(home: &Home) -> bool {
    let mut command = home.command(&["msg", "toggle-kernel-threads"]);
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = command.spawn().expect("ringbar msg");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return status.success();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sockets(home: &Home) -> Vec<String> {
    std::fs::read_dir(home.path("run/ringbar"))
        .map(|dir| {
            dir.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_full_stdout_never_stops_the_main_loop_and_lines_stay_whole() {
    crate::common::require_root();
    let home = Home::new();
    let mut waybar = start(&home);
    let mut stdout = waybar.0.stdout.take().expect("stdout");
    wait_until_full(&stdout);
    assert!(
        msg_works(&home),
        "`ringbar msg` is served while the pipe is full"
    );

    // A reader that comes back gets whole lines, and new ones follow.
    let mut taken = vec![0u8; queued(&stdout)];
    stdout.read_exact(&mut taken).expect("read the backlog");
    let mut rest = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while rest.iter().filter(|&&b| b == b'\n').count() < 3 {
        assert!(Instant::now() < deadline, "no new lines after the backlog");
        let mut chunk = [0u8; 65536];
        let n = stdout.read(&mut chunk).expect("read");
        rest.extend_from_slice(&chunk[..n]);
    }
    taken.extend_from_slice(&rest);
    let text = String::from_utf8(taken).expect("UTF-8");
    let complete = &text[..text.rfind('\n').expect("a line")];
    for line in complete.lines() {
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(line);
        assert!(parsed.is_ok(), "a broken line: {line:?}");
    }

    // Full again: SIGTERM still ends it, and it leaves no socket behind.
    wait_until_full(&stdout);
    // SAFETY: kill takes plain integers; our child.
    unsafe { libc::kill(waybar.0.id() as i32, libc::SIGTERM) };
    assert!(
        exits_within(&mut waybar, Duration::from_secs(10)),
        "SIGTERM ends it"
    );
    assert_eq!(sockets(&home), Vec::<String>::new(), "no stale socket");
    drop(stdout);
}

#[test]
fn realtime_signals_neither_kill_it_nor_leave_a_socket() {
    crate::common::require_root();
    let home = Home::new();
    let mut waybar = start(&home);
    let lines = Lines::of(&mut waybar.0);
    lines.next("from --waybar", WAIT);
    wait_for("the control socket", WAIT, || msg_works(&home));
    let pid = waybar.0.id() as i32;
    for offset in [1, 8, 15] {
        // SAFETY: kill takes plain integers; our child.
        unsafe { libc::kill(pid, libc::SIGRTMIN() + offset) };
    }
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGRTMAX()) };
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        matches!(waybar.0.try_wait(), Ok(None)),
        "it survives SIGRTMIN+N"
    );
    lines.next("after the signals", WAIT);
    assert!(msg_works(&home));
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    assert!(exits_within(&mut waybar, Duration::from_secs(10)));
    assert_eq!(sockets(&home), Vec::<String>::new(), "no stale socket");
}
