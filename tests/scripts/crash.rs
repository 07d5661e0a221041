//! A crashed ringbar leaves no script running.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ringbar::events::script::ScriptConfig;

use crate::*;

/// With RINGBAR_TEST_CRASH_DIR set, this test is the child of the next one: it starts a
/// continuous script in that directory, lets it run, then dies without any cleanup.
#[test]
fn crashing_child() {
    let Some(dir) = std::env::var_os("RINGBAR_TEST_CRASH_DIR") else {
        return;
    };
    let dir = PathBuf::from(dir);
    on_own_context(|context, _| {
        let exec = script(
            &dir,
            "loop.sh",
            "echo $$ > pid\nwhile :; do echo x; sleep 0.1; done",
        );
        let (runner, _) = start(ScriptConfig::new(exec));
        assert!(run_until(context, Duration::from_secs(3), || text_of(
            &runner.state()
        ) == Some(
            "x"
        )));
        // SAFETY: _exit ends the process at once, as a crash would: no destructor runs.
        unsafe { libc::_exit(9) };
    });
}

#[test]
fn a_crashed_ringbar_leaves_no_script_running() {
    let dir = tempfile::tempdir().expect("tempdir");
    let status = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "crash::crashing_child", "--test-threads=1"])
        .env("RINGBAR_TEST_CRASH_DIR", dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run the child");
    assert_eq!(status.code(), Some(9), "the child crashed on purpose");
    let pid = read_pid(&dir.path().join("pid")).expect("the script ran");
    let Some(group) = group_of(pid) else {
        return; // Gone already.
    };
    // The shell dies with its parent (PR_SET_PDEATHSIG), the script at its next line
    // (SIGPIPE: nobody reads the pipe any more).
    let deadline = Instant::now() + Duration::from_secs(2);
    while group_members(group) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        group_members(group),
        0,
        "no process of the script's group is left"
    );
}
