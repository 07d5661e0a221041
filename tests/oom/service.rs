//! The probe service forwards OOM kills to its clients, another user's victim included:
//! without `hidepid` /proc showed that user the victim's pid, name and memory while it
//! lived, so the bar of `nobody` names root's victim.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::service::ProbeService;
use crate::common::*;
use crate::{lines_of, oom_kill_one, oom_line};

#[test]
fn a_bar_without_privileges_gets_the_oom_kill_through_the_service() {
    require_root();
    let _serial = serial();
    let mounts = fs::read_to_string("/proc/self/mountinfo").expect("mountinfo");
    assert_eq!(
        ringbar::model::HidePid::from_mountinfo(&mounts),
        ringbar::model::HidePid::Off,
        "this test expects /proc without hidepid"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    // A copy without file capabilities, run as nobody: only the service's probe.
    let plain = dir.path().join("ringbar-plain");
    crate::common::copy_bar(&plain);
    fs::set_permissions(&plain, fs::Permissions::from_mode(0o755)).expect("chmod");
    let service = ProbeService::start(dir.path());
    let mut bar = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&plain)
        .arg("--waybar")
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env_remove("XDG_RUNTIME_DIR")
        .env("RINGBAR_PROBE_SOCKET", service.socket())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ringbar --waybar as nobody");
    let lines = lines_of(&mut bar);
    let first = lines.recv_timeout(Duration::from_secs(10)).expect("a line");
    assert!(!first.contains("probe-off"), "the service's probe: {first}");

    let subjects = Subjects::new();
    let pid = oom_kill_one(&subjects);
    let notice = oom_line(&lines);
    let _ = bar.kill();
    let _ = bar.wait();
    let notice = notice.expect("a line with the class oom");
    assert!(
        notice["text"]
            .as_str()
            .is_some_and(|t| t.contains("OOM: rb-oom ")),
        "{notice}"
    );
    let tooltip = notice["tooltip"].as_str().expect("tooltip");
    assert!(
        tooltip.contains(&format!(" · pid {pid} · cgroup limit 64M")),
        "{tooltip}"
    );
}
