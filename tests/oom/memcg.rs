//! A memory cgroup with a limit, in cgroup v2 where its unified hierarchy has the memory
//! controller (desktops), else in cgroup v1's memory hierarchy (this test machine).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct MemoryCgroup {
    dir: PathBuf,
}

/// A cgroup v2 mount point (`/sys/fs/cgroup` or a hybrid's `unified`) whose root offers
/// the memory controller.
fn v2_with_memory() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/mounts").ok()?;
    mounts.lines().find_map(|line| {
        let f: Vec<_> = line.split_whitespace().collect();
        let root = PathBuf::from(f.get(1)?);
        let controllers = fs::read_to_string(root.join("cgroup.controllers")).ok()?;
        (f.get(2) == Some(&"cgroup2") && controllers.split_whitespace().any(|c| c == "memory"))
            .then_some(root)
    })
}

/// The mount point of cgroup v1's memory hierarchy.
fn v1_memory() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/mounts").ok()?;
    mounts.lines().find_map(|line| {
        let f: Vec<_> = line.split_whitespace().collect();
        (f.get(2) == Some(&"cgroup") && f.get(3)?.split(',').any(|o| o == "memory"))
            .then(|| PathBuf::from(f[1]))
    })
}

/// Writes `value` to the cgroup file `name` when the kernel has it (swap limits do not
/// exist without swap accounting).
fn write_if_present(dir: &Path, name: &str, value: &str) {
    if dir.join(name).exists() {
        fs::write(dir.join(name), value).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

impl MemoryCgroup {
    /// A new cgroup limited to `limit` bytes of memory and no swap.
    pub fn new(limit: u64) -> MemoryCgroup {
        let name = format!("ringbar-oom-test-{}", std::process::id());
        let limit = limit.to_string();
        if let Some(root) = v2_with_memory() {
            // The children of the root get the controller through its subtree_control.
            fs::write(root.join("cgroup.subtree_control"), "+memory").expect("+memory");
            let dir = root.join(name);
            fs::create_dir_all(&dir).expect("create cgroup");
            fs::write(dir.join("memory.max"), &limit).expect("memory.max");
            write_if_present(&dir, "memory.swap.max", "0");
            return MemoryCgroup { dir };
        }
        let root = v1_memory().expect("a memory cgroup controller, v1 or v2");
        let dir = root.join(name);
        fs::create_dir_all(&dir).expect("create cgroup");
        fs::write(dir.join("memory.limit_in_bytes"), &limit).expect("memory.limit_in_bytes");
        write_if_present(&dir, "memory.memsw.limit_in_bytes", &limit);
        MemoryCgroup { dir }
    }

    pub fn add(&self, pid: u32) {
        fs::write(self.dir.join("cgroup.procs"), pid.to_string()).expect("move into cgroup");
    }
}

impl Drop for MemoryCgroup {
    fn drop(&mut self) {
        // Empty once its processes are reaped; the kernel may need a moment to let go.
        // (No panic here: this may run while a failed test unwinds.)
        for _ in 0..50 {
            if fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!("could not remove {}", self.dir.display());
    }
}
