//! Within fd limits: `ringbar` run as `nobody` under `prlimit --nofile=300:300` lists
//! every process of 3,000 and more, as it does without the limit; and a walk whose limit
//! drops below the files it holds closes some and reads on, losing no process.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
use serde_json::Value as Json;

use ringbar::records::procwalk::ProcWalk;

use crate::common::crowd::processes_on_machine;
use crate::common::*;
use crate::{open_fds, walk_n, Sleepers};

/// `ringbar --once --json` as `nobody`, optionally under `prlimit --nofile=N:N`.
fn once(exe: &Path, home: &Path, nofile: Option<u32>) -> Json {
    let mut command = Command::new("prlimit");
    if let Some(n) = nofile {
        command.arg(format!("--nofile={n}:{n}"));
    }
    let out = command
        .args([
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
        ])
        .arg(exe)
        .args([
            "--once",
            "--json",
            "--kernel-threads",
            "--interval-ms",
            "300",
        ])
        .env("HOME", home)
        .env("RINGBAR_PROBE_SOCKET", "/nonexistent/probe.sock")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .expect("run ringbar");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.lines().all(|l| l.contains("BPF probe off")),
        "nothing but the fallback's line: {stderr}"
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn ringbar_under_300_fds_lists_every_one_of_3000_processes() {
    require_root();
    let _serial = serial();
    let subjects = Subjects::new();
    let _sleepers = Sleepers::spawn(&subjects, "rb-limited", 3000);
    let place = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(place.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    let exe = place.path().join("ringbar");
    crate::common::copy_bar(&exe);
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).expect("chmod");
    for nofile in [Some(300), None, Some(300)] {
        let before = processes_on_machine();
        let doc = once(&exe, place.path(), nofile);
        let after = processes_on_machine();
        assert_eq!(doc["source"], "proc");
        let listed = doc["processes"].as_u64().expect("processes");
        // Another run shares the machine: its processes come and go around ours.
        let (low, high) = (before.min(after) as u64, before.max(after) as u64);
        assert!(
            listed + 50 >= low && listed <= high + 50 && listed >= 3000,
            "{nofile:?}: {listed} processes listed, /proc had {before} then {after}"
        );
        let unknown = doc["io"]["unknown_processes"].as_u64().expect("count");
        assert!(
            unknown >= 3000,
            "{nofile:?}: root's io is n/a to nobody: {unknown}"
        );
    }
}

#[test]
fn a_limit_below_the_held_files_loses_no_process() {
    require_root();
    let _serial = serial();
    ringbar::records::fdlimit::raise();
    let subjects = Subjects::new();
    let sleepers = Sleepers::spawn(&subjects, "rb-squeezed", 600);
    let mut walk = ProcWalk::new(Path::new("/proc"));
    walk_n(&mut walk, 3);
    let holding = open_fds();
    assert!(holding > 1800, "{holding}");
    let saved = getrlimit(Resource::Nofile);
    // Below what is open: every new open fails until held files are closed.
    let low = Rlimit {
        current: Some(holding as u64 / 2),
        maximum: saved.maximum,
    };
    setrlimit(Resource::Nofile, low).expect("lower the limit");
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for _ in 0..3 {
            walk.read_tasks().expect("walk");
            for pid in sleepers.pids() {
                assert!(crate::record(&walk, pid).is_some(), "{pid} lost");
            }
        }
        open_fds()
    }));
    setrlimit(Resource::Nofile, saved).expect("restore the limit");
    let open = result.expect("walks");
    assert!(
        open < holding / 2,
        "{open} open of {holding}, limit {}",
        holding / 2
    );
}
