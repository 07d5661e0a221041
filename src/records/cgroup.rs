//! Cgroup v2 ids to apps, for an unprivileged bar: the probe reports each task's cgroup as
//! its directory's inode number; this walks the v2 hierarchy (found in
//! /proc/self/mountinfo: `/sys/fs/cgroup` on a pure v2 system, `/sys/fs/cgroup/unified` on a
//! hybrid one), reading each directory's inode from readdir, and caches what it finds.
//! The walk runs only when a sample brings an id the cache does not know, so a steady
//! sample looks up and allocates nothing. An id unused for `grace` samples (its cgroup
//! emptied or removed) leaves the cache.

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::{DirEntryExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::model::app::{app_name, App, AppNames};

/// Directories visited per walk at most, and how deep.
const MAX_DIRS: usize = 20_000;
const MAX_DEPTH: usize = 16;
/// Entries kept free after a walk.
const SPARE_ENTRIES: usize = 64;
/// Samples an unused id stays cached by default.
pub const GRACE_SAMPLES: u64 = 30;

#[derive(Clone, Copy, Debug)]
struct Entry {
    app: Option<App>,
    used: u64,
}

#[derive(Debug)]
pub struct CgroupNames {
    root: Option<PathBuf>,
    cache: HashMap<u64, Entry>,
    sample: u64,
    /// The sample of the last walk: at most one walk per sample.
    walked: Option<u64>,
    grace: u64,
    has_apps: bool,
}

impl CgroupNames {
    /// The v2 hierarchy this process sees, or one that finds nothing without it.
    pub fn new() -> CgroupNames {
        let root = fs::read_to_string("/proc/self/mountinfo")
            .ok()
            .and_then(|info| cgroup2_mount(&info));
        CgroupNames::at(root, GRACE_SAMPLES)
    }

    /// Walks `root` (a cgroup2 mount); ids unused for `grace` samples leave the cache.
    pub fn at(root: Option<PathBuf>, grace: u64) -> CgroupNames {
        let mut names = CgroupNames {
            root,
            cache: HashMap::new(),
            sample: 0,
            walked: None,
            grace,
            has_apps: false,
        };
        names.walk();
        names
    }

    /// Whether `id` is cached (tests: a removed cgroup leaves).
    #[cfg(feature = "test-support")]
    pub fn is_cached(&self, id: u64) -> bool {
        self.cache.contains_key(&id)
    }

    fn walk(&mut self) {
        self.walked = Some(self.sample);
        let Some(root) = self.root.clone() else {
            return;
        };
        let Ok(meta) = fs::metadata(&root) else {
            return;
        };
        let mut found = Vec::new();
        let mut pending = vec![(root, meta.ino(), None::<App>, 0)];
        while let Some((dir, ino, app, depth)) = pending.pop() {
            found.push((ino, app));
            if depth >= MAX_DEPTH || found.len() + pending.len() >= MAX_DIRS {
                continue;
            }
            let Ok(entries) = fs::read_dir(&dir) else {
                continue; // removed meanwhile
            };
            for entry in entries.flatten() {
                if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                    continue;
                }
                let child_ino = entry.ino();
                let name = entry.file_name();
                let own = name.to_str().and_then(app_name).map(|label| App {
                    id: child_ino,
                    label,
                });
                self.has_apps |= own.is_some_and(|_| is_desktop_app(&name));
                pending.push((entry.path(), child_ino, own.or(app), depth + 1));
            }
        }
        for (ino, app) in found {
            let used = self.sample;
            self.cache
                .entry(ino)
                .and_modify(|e| e.app = app)
                .or_insert(Entry { app, used });
        }
        // Room for ids outside the tree (other cgroup namespaces), remembered as no app.
        self.cache.reserve(SPARE_ENTRIES);
    }
}

impl Default for CgroupNames {
    fn default() -> Self {
        CgroupNames::new()
    }
}

/// `app-…` directories are what a desktop session launches apps in (not mere services).
fn is_desktop_app(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().starts_with(b"app-")
}

impl AppNames for CgroupNames {
    fn app(&mut self, cgroup_id: u64) -> Option<App> {
        if !self.cache.contains_key(&cgroup_id) && self.walked != Some(self.sample) {
            self.walk();
        }
        let sample = self.sample;
        let entry = self.cache.entry(cgroup_id).or_insert(Entry {
            app: None, // not in the tree (another cgroup namespace, or gone): no app
            used: sample,
        });
        entry.used = sample;
        entry.app
    }

    fn next_sample(&mut self) {
        self.sample += 1;
        let (sample, grace) = (self.sample, self.grace);
        self.cache.retain(|_, e| sample - e.used <= grace);
    }

    fn has_apps(&self) -> bool {
        self.has_apps
    }
}

/// The cgroup2 mount point in a mountinfo: `/sys/fs/cgroup` if it is one, else the first.
pub fn cgroup2_mount(mountinfo: &str) -> Option<PathBuf> {
    let mut first = None;
    for line in mountinfo.lines() {
        let Some((before, after)) = line.split_once(" - ") else {
            continue;
        };
        if after.split(' ').next() != Some("cgroup2") {
            continue;
        }
        let Some(point) = before.split(' ').nth(4) else {
            continue;
        };
        let point = unescape_mountinfo(point);
        if point == Path::new("/sys/fs/cgroup") {
            return Some(point);
        }
        first.get_or_insert(point);
    }
    first
}

/// Mountinfo escapes space, tab, newline and backslash as `\ooo`.
fn unescape_mountinfo(field: &str) -> PathBuf {
    let mut out = Vec::with_capacity(field.len());
    let bytes = field.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|o| {
            let o = std::str::from_utf8(o).ok()?;
            u8::from_str_radix(o, 8).ok()
        });
        match (bytes[i], octal) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    PathBuf::from(std::ffi::OsString::from(
        String::from_utf8_lossy(&out).into_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_v2_mount_pure_or_hybrid() {
        let hybrid = "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n\
                      40 31 0:37 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd\n\
                      41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
        assert_eq!(
            cgroup2_mount(hybrid),
            Some(PathBuf::from("/sys/fs/cgroup/unified"))
        );
        let pure = "30 23 0:26 / /sys/fs/cgroup rw shared:4 - cgroup2 cgroup2 rw,nsdelegate\n\
                    99 30 0:50 / /mnt/my\\040cg rw - cgroup2 cgroup2 rw\n";
        assert_eq!(cgroup2_mount(pure), Some(PathBuf::from("/sys/fs/cgroup")));
        let spaced = "99 30 0:50 / /mnt/my\\040cg rw - cgroup2 cgroup2 rw\n";
        assert_eq!(cgroup2_mount(spaced), Some(PathBuf::from("/mnt/my cg")));
        assert_eq!(cgroup2_mount("1 2 0:3 / /proc rw - proc proc rw\n"), None);
    }
}
