//! Held files never outlive the reader's permission. `nobody` walks /proc while its own
//! process, readable at first, execs a setuid-root binary: the kernel refuses the held
//! `io` at the next read (it checks ptrace access at every read), and on a `hidepid` mount
//! the process leaves the walk (the kernel checks `hidepid` only at open, so the walk
//! sees the verdict change in `stat` and opens again, which fails).

use std::fs;
use std::io::Write;
use std::os::fd::AsFd;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use ringbar::model::procstat::ProcStat;
use ringbar::model::record::TASK_IO_UNKNOWN;
use ringbar::records::procwalk::ProcWalk;

use crate::common::*;
use crate::{open_fds, record, walk_n};

const SUID: &str = "RINGBAR_TEST_SUID";
const ROOT: &str = "RINGBAR_TEST_PROC_ROOT";

fn pread_text(file: &fs::File) -> Result<String, std::io::Error> {
    let mut buf = [0u8; 4096];
    let n = rustix::io::pread(file.as_fd(), &mut buf, 0)?;
    Ok(String::from_utf8_lossy(&buf[..n]).into_owned())
}

/// Not a test: run as `nobody` by [`permission_outlives_no_held_file`].
#[test]
#[ignore]
fn setuid_helper() {
    let (Ok(suid), Ok(root)) = (std::env::var(SUID), std::env::var(ROOT)) else {
        return;
    };
    let mut child = Command::new("/bin/sh")
        .args(["-c", "read line; exec \"$0\" 600", &suid])
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    std::thread::sleep(Duration::from_millis(200));
    let io = fs::File::open(format!("{root}/{pid}/io")).expect("own io opens");
    let stat = fs::File::open(format!("{root}/{pid}/stat")).expect("own stat opens");
    let io_before = pread_text(&io).map(|_| "ok".to_owned());
    let mut walk = ProcWalk::new(Path::new(&root));
    let fds = open_fds();
    walk_n(&mut walk, 3);
    let held = open_fds() - fds;
    let listed = walk.tasks().len();
    let before = record(&walk, pid).map(|r| r.flags & TASK_IO_UNKNOWN == 0);
    writeln!(child.stdin.as_mut().expect("stdin")).expect("write");
    wait_for("the setuid exec", Duration::from_secs(5), || {
        comm_of(pid).as_deref() == Some("rb-suid")
    });
    let io_after = pread_text(&io).map_err(|e| e.raw_os_error());
    let permitted_after = pread_text(&stat)
        .ok()
        .and_then(|t| ProcStat::parse(t.as_bytes()))
        .map(|s| s.permitted);
    walk.read_tasks().expect("walk");
    let after = record(&walk, pid).map(|r| r.flags & TASK_IO_UNKNOWN == 0);
    println!(
        "RESULT io_before={io_before:?} io_after={io_after:?} \
         permitted_after={permitted_after:?} listed_io_known_before={before:?} \
         listed_io_known_after={after:?} held={held} listed={listed}"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// The helper's report, run as `nobody` on the /proc at `root`.
fn run_helper(place: &Path, root: &Path) -> String {
    let exe = place.join("tests");
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&exe)
        .args([
            "--ignored",
            "--exact",
            "privacy::setuid_helper",
            "--nocapture",
        ])
        .env(SUID, place.join("rb-suid"))
        .env(ROOT, root)
        .output()
        .expect("run the helper");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .unwrap_or_else(|| panic!("no result in {text}"))
        .to_owned()
}

#[test]
fn permission_outlives_no_held_file() {
    require_root();
    let _serial = serial();
    let place = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(place.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let tests = place.path().join("tests");
    fs::copy(std::env::current_exe().expect("exe"), &tests).expect("copy");
    fs::set_permissions(&tests, fs::Permissions::from_mode(0o755)).expect("chmod");
    // A setuid-root sleep, owned by root (we are).
    let suid = place.path().join("rb-suid");
    fs::copy("/bin/sleep", &suid).expect("copy sleep");
    fs::set_permissions(&suid, fs::Permissions::from_mode(0o4755)).expect("setuid");

    // The plain /proc: the process stays listed, its io becomes unknown.
    let plain = run_helper(place.path(), Path::new("/proc"));
    println!("/proc: {plain}");
    assert!(plain.contains("io_before=Ok(\"ok\")"), "{plain}");
    assert!(
        plain.contains("io_after=Err(Some(13))"),
        "EACCES at read: {plain}"
    );
    assert!(
        plain.contains("permitted_after=Some(Some(false))"),
        "{plain}"
    );
    assert!(
        plain.contains("listed_io_known_before=Some(true)"),
        "{plain}"
    );
    assert!(
        plain.contains("listed_io_known_after=Some(false)"),
        "{plain}"
    );
    // Other users' io is refused and not held: 2 fds for most processes, not 3.
    let number = |key: &str| -> usize {
        plain
            .split_whitespace()
            .find_map(|f| f.strip_prefix(key)?.parse().ok())
            .expect("number")
    };
    let (held, listed) = (number("held="), number("listed="));
    assert!(held < 2 * listed + 20, "{held} fds for {listed} processes");

    // A hidepid mount: the process leaves the walk once it is no longer readable. With
    // `invisible` the kernel drops it from the listing; with `noaccess` it stays listed
    // and only an open fails, so the walk must notice and open again.
    for hidepid in ["invisible", "noaccess"] {
        let hidden = tempfile::tempdir().expect("tempdir");
        fs::set_permissions(hidden.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
        let status = Command::new("mount")
            .args(["-t", "proc", "-o", &format!("hidepid={hidepid}"), "proc"])
            .arg(hidden.path())
            .status()
            .expect("mount");
        assert!(status.success());
        let result = std::panic::catch_unwind(|| run_helper(place.path(), hidden.path()));
        let _ = Command::new("umount").arg(hidden.path()).status();
        let report = result.expect("the helper ran");
        println!("hidepid={hidepid}: {report}");
        assert!(
            report.contains("listed_io_known_before=Some(true)"),
            "{report}"
        );
        assert!(
            report.contains("listed_io_known_after=None"),
            "hidden now: {report}"
        );
    }
}
