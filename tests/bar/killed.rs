//! A bar killed with SIGKILL has no chance to end its scripts' runs: what the scripts
//! started must go all the same, and nothing else.

use std::time::{Duration, Instant};

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

/// Starts a daemon in a session of its own and a loop in a second shell that writes
/// nothing (neither ends with the run's shell, nor by SIGPIPE), and prints a line a second.
const CONFIG: &str = "modules_left = [\"custom/ticker\"]\nmodules_center = []\n\
    modules_right = []\n\
    [custom.ticker]\nexec = \"setsid sleep 600 & sh -c 'while :; do sleep 1; done' & \
    while :; do echo tick; sleep 1; done\"\n";

/// The processes whose environment names one of the runs of the bar `bar_pid`.
fn processes_of_runs(bar_pid: u32) -> Vec<(u32, String)> {
    let needle = format!("RINGBAR_SCRIPT_RUN={bar_pid}.");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let tagged = environ
            .split(|&b| b == 0)
            .any(|var| var.starts_with(needle.as_bytes()));
        if tagged {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            found.push((pid, comm.trim().to_owned()));
        }
    }
    found
}

#[test]
fn a_bar_killed_with_sigkill_leaves_no_process_of_its_scripts_behind() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", CONFIG);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the ticker's line", WAIT, || {
        bar.bars()
            .first()
            .is_some_and(|b| b.get("custom/ticker").is_some_and(|t| t == "tick"))
    });
    let pid = bar.pid();
    let started = processes_of_runs(pid);
    let names: Vec<&str> = started.iter().map(|(_, name)| name.as_str()).collect();
    assert!(
        names.iter().filter(|&&n| n == "sh").count() >= 2 && names.contains(&"sleep"),
        "the run's shell, its loop and the daemon: {started:?}"
    );
    // A click command's process carries no tag: it is meant to outlive the bar.
    let mut bystander = std::process::Command::new("sleep")
        .arg("600")
        .spawn()
        .expect("sleep");

    // SAFETY: kill has no memory-safety preconditions; pid is our child.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    let status = bar.wait_exit(Duration::from_secs(10));
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut left = processes_of_runs(pid);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        left = processes_of_runs(pid);
    }
    assert!(
        left.is_empty(),
        "10 s after SIGKILL, of {started:?} these are left: {left:?}"
    );
    assert!(
        bystander.try_wait().expect("wait").is_none(),
        "an untagged process was ended"
    );
    let _ = bystander.kill();
    let _ = bystander.wait();
}
