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
//! namespace). To bound what a pid counter that wrapped round to the very same value
//! with the same task count could hide, /proc is listed anyway every
//! [`LIST_AT_LEAST_EVERY`] walks.

use std::os::fd::OwnedFd;

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
    /// For the /proc opened as `dir`.
    pub fn watch(dir: &OwnedFd) -> NewPids {
        let own_namespace = readlinkat(dir, "self", Vec::new())
            .ok()
            .and_then(|link| link.to_str().ok()?.parse::<u32>().ok())
            .is_some_and(|pid| pid == std::process::id());
        let loadavg = own_namespace
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
