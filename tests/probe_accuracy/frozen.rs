//! A frozen task is a D row.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use crate::common::*;
use crate::*;

/// A cgroup of the v1 freezer, whose frozen tasks sleep in TASK_FROZEN (/proc shows D).
/// (The cgroup v2 freezer parks tasks in an interruptible sleep: S.)
struct FrozenCgroup {
    dir: PathBuf,
    _mount: Option<FreezerMount>,
}

/// A freezer hierarchy mounted for the test when the machine has none mounted.
struct FreezerMount(tempfile::TempDir);

impl Drop for FreezerMount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.0.path())
            .status();
    }
}

impl FrozenCgroup {
    fn new() -> FrozenCgroup {
        let mounts = fs::read_to_string("/proc/mounts").expect("/proc/mounts");
        let mounted = mounts.lines().find_map(|line| {
            let f: Vec<_> = line.split_whitespace().collect();
            (f.get(2) == Some(&"cgroup")
                && f.get(3)
                    .is_some_and(|o| o.split(',').any(|o| o == "freezer")))
            .then(|| PathBuf::from(f[1]))
        });
        let (root, mount) = match mounted {
            Some(root) => (root, None),
            None => {
                let dir = tempfile::tempdir().expect("tempdir");
                let status = std::process::Command::new("mount")
                    .args(["-t", "cgroup", "-o", "freezer", "ringbar-test"])
                    .arg(dir.path())
                    .status()
                    .expect("run mount");
                assert!(status.success(), "cannot mount the cgroup v1 freezer");
                (dir.path().to_owned(), Some(FreezerMount(dir)))
            }
        };
        let dir = root.join(format!("ringbar-test-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("create cgroup");
        FrozenCgroup { dir, _mount: mount }
    }

    fn freeze(&self, pid: u32) {
        fs::write(self.dir.join("tasks"), pid.to_string()).expect("move into cgroup");
        fs::write(self.dir.join("freezer.state"), "FROZEN").expect("freeze");
        wait_for("the cgroup to freeze", Duration::from_secs(5), || {
            fs::read_to_string(self.dir.join("freezer.state")).is_ok_and(|s| s.trim() == "FROZEN")
        });
    }
}

impl Drop for FrozenCgroup {
    fn drop(&mut self) {
        let _ = fs::write(self.dir.join("freezer.state"), "THAWED");
        if let Ok(tasks) = fs::read_to_string(self.dir.join("tasks")) {
            for pid in tasks.lines().filter_map(|p| p.parse::<i32>().ok()) {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        wait_for("the test cgroup to empty", Duration::from_secs(5), || {
            fs::read_to_string(self.dir.join("tasks")).map_or(true, |t| t.trim().is_empty())
        });
        let _ = fs::remove_dir(&self.dir);
    }
}

pub(crate) fn a_frozen_task_is_a_d_row(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let sleeper = Subject::spawn(&subjects.program("rb-frozen", "/bin/sleep"), &["600"]);
    let cgroup = FrozenCgroup::new();
    cgroup.freeze(sleeper.pid());
    assert_eq!(
        state_of(sleeper.pid()),
        Some('D'),
        "/proc shows a frozen task as D"
    );

    let mut c = collector(source, false);
    let s = sample(&mut c);
    let rows: Vec<_> = s
        .stuck
        .rows()
        .map(|(state, r)| (state.letter(), r.tgid, name(&r.comm)))
        .collect();
    assert!(
        rows.contains(&('D', sleeper.pid(), "rb-frozen".to_owned())),
        "D row expected: {rows:?}"
    );
    drop(cgroup);
}
