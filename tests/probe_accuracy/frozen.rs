//! A frozen task is a D row once it has stayed in D across two samples, with how long it
//! has been stuck and its wait channel.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// The D row of `pid` in `s`: how long it has been stuck (ns) and its wait channel.
fn d_row(s: &Snapshot, pid: u32) -> Option<(u64, String, String)> {
    s.stuck
        .rows()
        .find(|(state, r)| state.letter() == 'D' && r.tgid == pid)
        .map(|(_, r)| {
            let wchan = String::from_utf8_lossy(r.wchan.as_bytes()).into_owned();
            (r.blocked_ns, name(&r.comm), wchan)
        })
}

pub(crate) fn a_frozen_task_is_a_d_row(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let sleeper = Subject::spawn(&subjects.program("rb-frozen", "/bin/sleep"), &["600"]);
    let pid = sleeper.pid();
    // Just spawned, it may still be in D while its program is read in: a sample then
    // would see it in D twice. Asleep, it is S.
    wait_for("the sleeper to sleep", Duration::from_secs(5), || {
        state_of(pid) == Some('S')
    });
    let cgroup = FrozenCgroup::new();
    let mut c = collector(source, false);
    let asleep = Instant::now();
    sample(&mut c); // before: sleeping (S)

    cgroup.freeze(pid);
    let frozen = Instant::now();
    assert_eq!(state_of(pid), Some('D'), "/proc shows a frozen task as D");

    // The first sample that finds it in D does not show it: it may be a passing wait.
    let first = Instant::now();
    let s = sample(&mut c);
    let first_done = Instant::now();
    assert_eq!(d_row(&s, pid), None, "shown before it persisted");

    std::thread::sleep(Duration::from_millis(1500));
    let second = Instant::now();
    let mut s = sample(&mut c);
    let second_done = Instant::now();
    ringbar::records::wchan::fill(&mut s.stuck);
    let Some((blocked_ns, comm, wchan)) = d_row(&s, pid) else {
        panic!(
            "no D row for the frozen task: {:?}",
            s.stuck.rows().collect::<Vec<_>>()
        );
    };
    assert_eq!(comm, "rb-frozen");
    let blocked = Duration::from_nanos(blocked_ns);
    // The probe takes the kernel's time since the task last ran, which for a sleeper the
    // freezer put in D without waking it goes back to its sleep: no further back than
    // the sample that found it asleep. The /proc walk counts from the first sample that
    // found it in D. The kernel's clock (sched_clock) follows CLOCK_MONOTONIC to within
    // milliseconds: 50 ms of slack.
    let slack = Duration::from_millis(50);
    let (low, high) = match source {
        Source::Probe => (second - frozen, second_done - asleep + slack),
        Source::Proc => (second - first_done, second_done - first),
    };
    assert!(
        blocked + slack >= low && blocked <= high,
        "stuck for {blocked:?}, expected {low:?} to {high:?}"
    );
    // The wait channel is what /proc says of the task (root may read it).
    let truth = fs::read_to_string(format!("/proc/{pid}/task/{pid}/wchan")).expect("wchan");
    assert!(!truth.trim().is_empty() && truth.trim() != "0", "{truth:?}");
    assert_eq!(wchan, truth.trim());
    drop(cgroup);
}
