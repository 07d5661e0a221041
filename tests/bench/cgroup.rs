//! CPU time of everything a bar runs, from a cgroup of its own: every thread of every
//! process in it, those that already exited included, to the µs (v2) or ns (v1).
//!
//! The v2 hierarchy is found in /proc/self/mountinfo: at /sys/fs/cgroup on a desktop that
//! runs pure v2, at /sys/fs/cgroup/unified on a hybrid machine, where the controllers are
//! v1. Its `cpu.stat` counts `usage_usec` whether the cpu controller is enabled or not.
//! Without v2, the v1 `cpuacct` hierarchy's `cpuacct.usage` (ns) does the same. Where both
//! exist, a bar is put in both, and the v1 figure is a cross-check of the v2 one.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `cpu.stat`, `usage_usec`.
    V2,
    /// `cpuacct.usage`, ns.
    V1Cpuacct,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::V2 => "cgroup v2 `cpu.stat` usage_usec",
            Kind::V1Cpuacct => "cgroup v1 `cpuacct.usage`",
        }
    }
}

/// The mounted hierarchies that count CPU time, v2 first.
pub fn hierarchies() -> Vec<(Kind, PathBuf)> {
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").expect("/proc/self/mountinfo");
    let mut found = parse_mountinfo(&mountinfo);
    found.sort_by_key(|(kind, _)| *kind != Kind::V2);
    found.dedup_by_key(|(kind, _)| *kind);
    found
}

/// `ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPER_OPTIONS`
fn parse_mountinfo(text: &str) -> Vec<(Kind, PathBuf)> {
    text.lines()
        .filter_map(|line| {
            let (mount, filesystem) = line.split_once(" - ")?;
            let mount_point = mount.split(' ').nth(4)?;
            let mut fields = filesystem.split(' ');
            let kind = match (fields.next()?, fields.nth(1)) {
                ("cgroup2", _) => Kind::V2,
                ("cgroup", Some(options)) if options.split(',').any(|o| o == "cpuacct") => {
                    Kind::V1Cpuacct
                }
                _ => return None,
            };
            // Octal escapes (`\040` for a space) do not occur in cgroup mount points.
            Some((kind, PathBuf::from(mount_point)))
        })
        .collect()
}

/// A cgroup made for one measured process tree; removed when dropped (once empty).
pub struct CpuGroup {
    kind: Kind,
    dir: PathBuf,
}

impl CpuGroup {
    /// `NAME` under the hierarchy's root, emptied of any leftover of an earlier run.
    pub fn create((kind, mount): &(Kind, PathBuf), name: &str) -> CpuGroup {
        let dir = mount.join(format!("ringbar-bench-{}-{name}", std::process::id()));
        let _ = fs::remove_dir(&dir);
        fs::create_dir(&dir)
            .unwrap_or_else(|e| panic!("mkdir {} (needs root): {e}", dir.display()));
        CpuGroup { kind: *kind, dir }
    }

    /// The file a process writes its pid to, to join (with all its threads and its
    /// children to come).
    pub fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// The CPU time of all tasks that ever ran in the group, in ns.
    pub fn usage_ns(&self) -> u64 {
        match self.kind {
            Kind::V2 => {
                let stat = read(&self.dir.join("cpu.stat"));
                let usec = stat
                    .lines()
                    .find_map(|l| l.strip_prefix("usage_usec "))
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .expect("usage_usec in cpu.stat");
                usec * 1000
            }
            Kind::V1Cpuacct => read(&self.dir.join("cpuacct.usage"))
                .trim()
                .parse()
                .expect("cpuacct.usage is a number"),
        }
    }

    /// The pids in the group now.
    pub fn pids(&self) -> Vec<u32> {
        read(&self.procs())
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

impl Drop for CpuGroup {
    fn drop(&mut self) {
        // A killed process leaves its cgroup once reaped; give the kernel a moment.
        for _ in 0..50 {
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        eprintln!("could not remove {}", self.dir.display());
    }
}

#[test]
fn mountinfo_of_a_hybrid_and_a_pure_v2_machine() {
    let hybrid = "\
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    assert_eq!(
        parse_mountinfo(hybrid),
        [
            (Kind::V1Cpuacct, PathBuf::from("/sys/fs/cgroup/cpuacct")),
            (Kind::V2, PathBuf::from("/sys/fs/cgroup/unified")),
        ]
    );
    let pure = "35 24 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate\n\
                 24 1 0:22 / /sys rw shared:2 - sysfs sysfs rw\n";
    assert_eq!(
        parse_mountinfo(pure),
        [(Kind::V2, PathBuf::from("/sys/fs/cgroup"))]
    );
    let v1_combined = "30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
    assert_eq!(
        parse_mountinfo(v1_combined),
        [(Kind::V1Cpuacct, PathBuf::from("/sys/fs/cgroup/cpu,cpuacct"))]
    );
}
