//! The edge of the GPU users: which processes hold a DRM device open, and their fdinfo.
//!
//! Finding the fds means reading every fd link of a process, so it is done for a process
//! once when it is first seen (by PID and start time), then again only when
//! [`RESCAN_NS`] has passed, at most [`RESCANS_PER_TICK`] processes a tick (a program may
//! open a GPU after it started). Each tick reads only the fdinfo of the fds found; one
//! that no longer reads as a DRM client is dropped. Directory entries, links and fdinfo go
//! through buffers kept from tick to tick and paths on the stack: a steady tick
//! allocates nothing.
//!
//! Everything is read as the bar itself, so /proc's own rules decide: another user's
//! process (EACCES), or one hidden by `hidepid`, has no fds here and shows no GPU use.

use std::collections::HashMap;
use std::fs::File;
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::{openat, readlinkat_raw, Mode, OFlags, RawDir, CWD};

use crate::model::fdinfo::DrmFdinfo;
use crate::model::gpu_users::{gpu_of, DrmUsage, Owner};
use crate::model::{Gpu, ProcessKey};
use crate::records::procfs::stack_path;

/// A process's fds are looked at again after this long (a minute, as for the GPUs).
pub const RESCAN_NS: u64 = 60_000_000_000;
/// At most this many processes are looked at again in one tick, so that the rescans of
/// processes found together spread over ticks instead of all landing on one.
pub const RESCANS_PER_TICK: usize = 8;
/// getdents buffer: about 150 fds a call.
const DIR_BUFFER: usize = 4096;
/// An fdinfo of a DRM fd is under 2 KiB with every engine and region.
const FDINFO_BUFFER: usize = 8192;

#[derive(Debug)]
struct Holder {
    owner: Owner,
    seen: u64,
    /// When its fds were last looked at; `None`: look now.
    scanned_ns: Option<u64>,
    /// Its fds open on `/dev/dri/*` at the last look.
    fds: Vec<u32>,
}

#[derive(Debug)]
pub struct DrmUsers {
    /// The procfs root, kept open: paths below it are built on the stack.
    proc: Option<OwnedFd>,
    holders: HashMap<ProcessKey, Holder>,
    /// The holders with DRM fds, in PID order (a shared client counts for the parent).
    order: Vec<(u32, ProcessKey)>,
    tick: u64,
    dir_buf: Box<[MaybeUninit<u8>]>,
    text_buf: Box<[u8]>,
    scans: u64,
}

impl DrmUsers {
    pub fn new(proc_root: &Path) -> DrmUsers {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        DrmUsers {
            proc: openat(CWD, proc_root, flags, Mode::empty()).ok(),
            holders: HashMap::with_capacity(1024),
            order: Vec::with_capacity(64),
            tick: 0,
            dir_buf: vec![MaybeUninit::uninit(); DIR_BUFFER].into_boxed_slice(),
            text_buf: vec![0; FDINFO_BUFFER].into_boxed_slice(),
            scans: 0,
        }
    }

    /// Starts a tick: `processes` are the live user processes (no kernel threads) of
    /// this sample; those new or due are looked at, the rest keep their fds.
    pub fn begin(&mut self, now_ns: u64, processes: impl Iterator<Item = Owner>) {
        self.tick += 1;
        let mut rescans = RESCANS_PER_TICK;
        for owner in processes {
            let Some(proc) = &self.proc else { continue };
            let key = ProcessKey {
                tgid: owner.pid,
                start_ns: owner.start_ns,
            };
            let holder = self.holders.entry(key).or_insert_with(|| Holder {
                owner,
                seen: 0,
                scanned_ns: None,
                fds: Vec::new(),
            });
            holder.seen = self.tick;
            holder.owner.comm = owner.comm;
            let due = match holder.scanned_ns {
                None => true,
                Some(at) if now_ns.saturating_sub(at) >= RESCAN_NS && rescans > 0 => {
                    rescans -= 1;
                    true
                }
                Some(_) => false,
            };
            if due {
                self.scans += 1;
                holder.scanned_ns = Some(now_ns);
                holder.fds.clear();
                // Denied (another user's), or gone: no fds, looked at again in a while.
                let _ = scan(proc, owner.pid, &mut self.dir_buf, &mut holder.fds);
            }
        }
        let tick = self.tick;
        self.holders.retain(|_, h| h.seen == tick);
        self.order.clear();
        let with_fds = self.holders.iter().filter(|(_, h)| !h.fds.is_empty());
        self.order.extend(with_fds.map(|(key, _)| (key.tgid, *key)));
        self.order.sort_unstable();
    }

    /// Reads the fdinfo of every DRM fd found and adds it to the GPUs' users.
    pub fn read(&mut self, now_ns: u64, gpus: &[Gpu], usage: &mut DrmUsage) {
        let Some(proc) = &self.proc else { return };
        for (_, key) in &self.order {
            let Some(holder) = self.holders.get_mut(key) else {
                continue;
            };
            let mut index = 0;
            while let Some(&fd) = holder.fds.get(index) {
                let info = read_fdinfo(proc, holder.owner.pid, fd, &mut self.text_buf)
                    .map(DrmFdinfo::parse)
                    .filter(|info| info.has_driver);
                let Some(info) = info else {
                    // Closed, reused for something else, no longer ours to read, or a
                    // driver without stats: dropped until the process's next look (not
                    // at once, which for such a driver would be every tick).
                    holder.fds.swap_remove(index);
                    continue;
                };
                index += 1;
                if let Some(gpu) = gpu_of(info.pdev, gpus) {
                    usage.add_fd(now_ns, gpu, holder.owner, fd, &info);
                }
            }
        }
    }

    /// How many times a process's fds were looked at (tests: no rescan every tick).
    pub fn scans(&self) -> u64 {
        self.scans
    }
}

/// The fds of `pid` whose links point at a DRM device node, into `fds`.
fn scan(
    proc: &OwnedFd,
    pid: u32,
    dir_buf: &mut [MaybeUninit<u8>],
    fds: &mut Vec<u32>,
) -> rustix::io::Result<()> {
    let mut buf = [0; 48];
    let name =
        stack_path(&mut buf, format_args!("{pid}/fd")).ok_or(rustix::io::Errno::NAMETOOLONG)?;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let dir = openat(proc, name, flags, Mode::empty())?;
    let mut entries = RawDir::new(&dir, dir_buf);
    while let Some(entry) = entries.next() {
        let entry = entry?;
        let Some(fd) = entry
            .file_name()
            .to_str()
            .ok()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue; // . and ..
        };
        let mut link = [MaybeUninit::<u8>::uninit(); 64];
        // A link longer than the buffer comes back cut: only its start matters here.
        let Ok((target, _)) = readlinkat_raw(&dir, entry.file_name(), &mut link) else {
            continue; // closed meanwhile
        };
        if is_drm_node(target) {
            fds.push(fd);
        }
    }
    Ok(())
}

/// `/dev/dri/renderD128` or `/dev/dri/card0` (both carry fdinfo stats).
fn is_drm_node(target: &[u8]) -> bool {
    target.starts_with(b"/dev/dri/renderD") || target.starts_with(b"/dev/dri/card")
}

/// `PID/fdinfo/FD`, read whole with pread into `buf`; `None` if it cannot be read.
fn read_fdinfo<'b>(proc: &OwnedFd, pid: u32, fd: u32, buf: &'b mut [u8]) -> Option<&'b [u8]> {
    let mut name = [0; 48];
    let name = stack_path(&mut name, format_args!("{pid}/fdinfo/{fd}"))?;
    // Opened each tick, never kept: the open is where /proc checks the reader may look.
    let flags = OFlags::RDONLY | OFlags::CLOEXEC;
    let file = File::from(openat(proc, name, flags, Mode::empty()).ok()?);
    let filled = crate::records::procfs::read_whole(&file, buf).ok()?;
    Some(&buf[..filled])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_nodes() {
        assert!(is_drm_node(b"/dev/dri/renderD128"));
        assert!(is_drm_node(b"/dev/dri/card1"));
        assert!(!is_drm_node(b"/dev/dri/by-path"));
        assert!(!is_drm_node(b"/dev/nvidia0"));
        assert!(!is_drm_node(b"socket:[1234]"));
    }

    #[test]
    fn paths_fit_on_the_stack() {
        let mut buf = [0; 48];
        assert_eq!(
            stack_path(&mut buf, format_args!("{}/fdinfo/{}", u32::MAX, u32::MAX)),
            Some("4294967295/fdinfo/4294967295")
        );
        assert_eq!(
            stack_path(&mut buf, format_args!("{}", "x".repeat(49))),
            None
        );
    }
}
