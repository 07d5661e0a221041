//! Scripts that leave processes behind, and reloads that would restart them.

use std::cell::RefCell;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib;
use ringbar::events::script::runner::ScriptRunner;
use ringbar::events::script::ScriptConfig;

use crate::common::ipc::pump;
use crate::common::session::{Compositor, Session};
use crate::common::wait_for;

/// Processes whose command line is exactly `sleep SECONDS`.
fn sleepers(seconds: &str) -> Vec<i32> {
    let wanted = format!("sleep\0{seconds}\0");
    fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted.as_bytes())
        })
        .collect()
}

fn kill_all(pids: &[i32]) {
    for &pid in pids {
        // SAFETY: kill takes plain integers; these are the test's own sleepers.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

fn script(dir: &Path, body: &str) -> String {
    let path = dir.join("daemonize.sh");
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod");
    path.display().to_string()
}

#[test]
fn a_script_that_daemonizes_leaves_no_orphan_at_its_restarts_or_its_end() {
    let seconds = format!("{}.5", 50_000 + std::process::id());
    let dir = tempfile::tempdir().expect("tempdir");
    let runs = dir.path().join("runs");
    let exec = script(
        dir.path(),
        &format!(
            "echo run >> '{}'\nsetsid sleep {seconds} </dev/null >/dev/null 2>&1 &\necho up\nsleep 0.3\nexit 1",
            runs.display()
        ),
    );
    let context = glib::MainContext::new();
    context
        .with_thread_default(|| {
            // As the bar does before its first script.
            ringbar::events::script::runner::adopt_orphans();
            let states = Rc::new(RefCell::new(0usize));
            let seen = states.clone();
            let runner = ScriptRunner::start("daemon", ScriptConfig::new(exec), move |_| {
                *seen.borrow_mut() += 1;
            });
            // A crash loop: runs at 0, 1, 3 and 7 s (the backoff doubles).
            pump(&context, Duration::from_millis(7500));
            let started = fs::read_to_string(&runs)
                .unwrap_or_default()
                .lines()
                .count();
            let left = sleepers(&seconds);
            // A click's command may start what must outlive it (`pavucontrol`).
            let kept = format!("{}.25", 50_000 + std::process::id());
            runner.run_action(&format!("setsid sleep {kept} </dev/null >/dev/null 2>&1 &"));
            pump(&context, Duration::from_millis(500));
            runner.stop();
            pump(&context, Duration::from_millis(1500));
            let after_stop = sleepers(&seconds);
            let clicked = sleepers(&kept);
            kill_all(&left);
            kill_all(&after_stop);
            kill_all(&clicked);
            assert_eq!(clicked.len(), 1, "a click's program outlives the module");
            assert!(started >= 3, "the script restarted: {started} runs");
            assert!(
                left.len() <= 1,
                "{} orphans of {started} runs: {left:?}",
                left.len()
            );
            assert_eq!(after_stop, Vec::<i32>::new(), "none outlives the module");
        })
        .expect("context");
}

#[test]
fn a_reload_keeps_an_unchanged_scripts_backoff() {
    crate::common::require_root();
    let session = Session::start(Compositor::Sway);
    let runs = session.home().join("runs");
    let seconds = format!("{}.75", 50_000 + std::process::id());
    let config = format!(
        "modules_left = [\"custom/crash\"]\nmodules_center = []\nmodules_right = []\n\
         [custom.crash]\nexec = \"echo run >> {}; setsid sleep {seconds} </dev/null >/dev/null 2>&1 & \
         sleep 0.3; exit 1\"\n",
        runs.display()
    );
    session.write_config_file("config.toml", &config);
    let mut bar = session.start_bar(&[]);
    wait_for("the first run", Duration::from_secs(30), || runs.exists());
    // A reload every 200 ms for 4 s: with its backoff kept, the crashing script runs at
    // 0, 1 and 3 s; reset by each reload, it would run some twenty times.
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(4) {
        // SAFETY: kill takes plain integers; the bar is our child.
        unsafe { libc::kill(bar.pid() as i32, libc::SIGUSR1) };
        std::thread::sleep(Duration::from_millis(200));
    }
    let count = fs::read_to_string(&runs)
        .unwrap_or_default()
        .lines()
        .count();
    let left = sleepers(&seconds);
    // SAFETY: as above.
    unsafe { libc::kill(bar.pid() as i32, libc::SIGTERM) };
    bar.wait_exit(Duration::from_secs(10));
    let after_exit = sleepers(&seconds);
    kill_all(&left);
    kill_all(&after_exit);
    assert!(
        (2..=4).contains(&count),
        "{count} runs in 4 s of reloads: {}",
        bar.log_text()
    );
    assert!(
        left.len() <= 1,
        "the bar ends what its runs started: {left:?}"
    );
    assert_eq!(after_exit, Vec::<i32>::new(), "and all of it when it exits");
}
