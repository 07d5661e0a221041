//! Whether /proc must be listed again. `/proc/loadavg` ends with the machine's task count
//! and the last pid the kernel handed out in the reader's PID namespace. While both are
//! what they were at the last listing, no process or thread has been created since, so
//! that listing, less the processes found gone, is still the whole list: a walk can read
//! the files it holds without a `getdents64` of /proc, which costs about a seventh of a
//! walk at 3,000 processes. An exit is never missed that way: the held files of a process
//! that is gone read ESRCH.
//!
//! The pid is counted in the reader's namespace whatever /proc is mounted from, so this
//! is used only where `PROC/self` names this process's own pid (the mount is of its own
//! namespace). Nor is it used on a /proc mounted with `hidepid`: there a process can
//! come into the listing without a new pid, when its owner becomes the reader. To bound
//! what a pid counter that wrapped round to the very same value with the same task count
//! could hide, /proc is listed anyway every [`LIST_AT_LEAST_EVERY`] walks.

use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::readlinkat;

use super::files;
use crate::model::system::tasks_and_last_pid;

/// Walks between two listings at most, whatever loadavg says.
pub const LIST_AT_LEAST_EVERY: u32 = 16;

pub struct NewPids {
    /// `PROC/loadavg`, held; `None` where it cannot tell (another namespace's /proc, a
    /// fake root, an unreadable file).
    loadavg: Option<OwnedFd>,
    /// Task count and last pid when /proc was last listed.
    at_listing: Option<(u32, u32)>,
    walks_since_listing: u32,
}

impl NewPids {
    /// For the /proc at `root`, opened as `dir`.
    pub fn watch(root: &Path, dir: &OwnedFd) -> NewPids {
        let own_namespace = readlinkat(dir, "self", Vec::new())
            .ok()
            .and_then(|link| link.to_str().ok()?.parse::<u32>().ok())
            .is_some_and(|pid| pid == std::process::id());
        let mut buf = Vec::new();
        let lists_every_process = files::open_relative(dir, "self/mountinfo")
            .ok()
            .and_then(|fd| files::read_whole(&fd, &mut buf).ok())
            .is_some_and(|mountinfo| lists_every_process(mountinfo, root));
        let loadavg = (own_namespace && lists_every_process)
            .then(|| files::open_relative(dir, "loadavg").ok())
            .flatten();
        NewPids {
            loadavg,
            at_listing: None,
            walks_since_listing: 0,
        }
    }

    /// Whether this walk must list /proc: a pid was handed out since the last listing,
    /// or it cannot be told, or the last listing is [`LIST_AT_LEAST_EVERY`] walks old.
    /// Call before listing, so that a process made during the listing shows as new.
    pub fn must_list(&mut self, buf: &mut Vec<u8>) -> bool {
        let now = self
            .loadavg
            .as_ref()
            .and_then(|fd| files::read_whole(fd, buf).ok())
            .and_then(tasks_and_last_pid);
        self.walks_since_listing += 1;
        if now.is_some() && now == self.at_listing && self.walks_since_listing < LIST_AT_LEAST_EVERY
        {
            return false;
        }
        self.at_listing = now;
        self.walks_since_listing = 0;
        true
    }
}

/// Whether the proc filesystem mounted last at `root` (the one on top) lists every
/// process: it is one, and mounted without `hidepid`. A `/proc/self/mountinfo` line reads
/// `ID PARENT DEV ROOT MOUNT_POINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPER_OPTIONS`.
fn lists_every_process(mountinfo: &[u8], root: &Path) -> bool {
    let Some(root) = root.to_str() else {
        return false;
    };
    let mount_of_root = String::from_utf8_lossy(mountinfo)
        .lines()
        .rev()
        .find_map(|line| {
            let (mount, fs) = line.split_once(" - ")?;
            let mount_point = mount.split(' ').nth(4)?;
            let mut fs = fs.split(' ');
            let (fs_type, super_options) = (fs.next()?, fs.nth(1)?);
            (mount_point == root).then(|| (fs_type == "proc", super_options.to_owned()))
        });
    mount_of_root.is_some_and(|(is_proc, options)| {
        is_proc
            && options.split(',').all(|option| {
                !option.starts_with("hidepid=") || option == "hidepid=off" || option == "hidepid=0"
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_machines_proc_is_watched_unless_it_hides_pids() {
        let root = Path::new("/proc");
        let dir = files::open_dir(root).expect("/proc");
        let mountinfo = std::fs::read("/proc/self/mountinfo").expect("mountinfo");
        let hides = String::from_utf8_lossy(&mountinfo).contains("hidepid=");
        let mut watch = NewPids::watch(root, &dir);
        assert_eq!(
            watch.loadavg.is_some(),
            !hides,
            "{}",
            String::from_utf8_lossy(&mountinfo)
        );
        assert!(watch.must_list(&mut Vec::new()), "the first walk lists");
    }

    #[test]
    fn only_a_proc_without_hidepid_lists_every_process() {
        let lists = |text: &str| lists_every_process(text.as_bytes(), Path::new("/proc"));
        let plain =
            "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n22 27 0:21 / /proc rw,relatime - proc proc rw\n";
        assert!(lists(plain));
        assert!(lists(
            "22 27 0:21 / /proc rw shared:12 master:3 - proc proc rw,hidepid=off\n"
        ));
        assert!(!lists(
            "22 27 0:21 / /proc rw - proc proc rw,hidepid=invisible\n"
        ));
        assert!(!lists(
            "22 27 0:21 / /proc rw - proc proc rw,hidepid=2,gid=4\n"
        ));
        // Mounted over the plain one: the last line for /proc counts.
        let over = format!("{plain}40 22 0:50 / /proc rw - proc proc rw,hidepid=noaccess\n");
        assert!(!lists(&over));
        // Not found, not proc, or garbage: no.
        assert!(!lists("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"));
        assert!(!lists("22 27 0:21 / /proc rw - tmpfs tmpfs rw\n"));
        assert!(!lists("22 27 0:21 / /proc rw proc proc rw\n"));
        assert!(!lists(""));
        assert!(!lists_every_process(b"\xff\xfe - proc", Path::new("/proc")));
    }
}
