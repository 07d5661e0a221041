//! Takes the disk reading on the sampling thread: statvfs(3) of each configured mount
//! point, and the block devices' counters from /proc/diskstats. The mount table is read
//! again only when the kernel says it changed (POLLPRI on /proc/self/mountinfo), so a
//! steady tick is one pread and one statvfs per mount, and allocates nothing.

use std::ffi::CString;
use std::fs::File;
use std::path::PathBuf;

use rustix::event::{PollFd, PollFlags, Timespec};

use super::diskstats::{self, SECTOR_BYTES};
use super::mountinfo;
use super::reading::{Device, DiskReading, Mount, Space};
use crate::model::Value;
use crate::records::procfs::ProcFile;
use crate::sample::readings::{value_mut, Reader, Reading, Roots};

/// A configured mount point and what is mounted there now.
struct Wanted {
    path: String,
    c_path: Option<CString>,
    mounted: Option<mountinfo::Entry>,
}

/// A block device seen in /proc/diskstats.
struct Known {
    name: Vec<u8>,
    shown: bool,
    /// Sectors (read, written) at the last read.
    sectors: Option<(u64, u64)>,
}

pub struct DiskReader {
    /// Its module's name as listed.
    key: String,
    wanted: Vec<Wanted>,
    mountinfo_path: PathBuf,
    /// Open to be polled for changes; `None` until the table is first read.
    mountinfo: Option<File>,
    mountinfo_failed: bool,
    diskstats: ProcFile,
    buffer: Vec<u8>,
    sys_block: PathBuf,
    /// `devices` from the config; empty: every whole disk that is storage of its own.
    named: Vec<String>,
    named_missing_logged: bool,
    known: Vec<Known>,
    last_ns: Option<u64>,
}

impl DiskReader {
    pub fn new(key: &str, mounts: &[String], devices: &[String], roots: &Roots) -> DiskReader {
        let wanted = mounts.iter().map(|path| Wanted {
            path: path.clone(),
            c_path: CString::new(path.as_str()).ok(),
            mounted: None,
        });
        DiskReader {
            key: key.to_owned(),
            wanted: wanted.collect(),
            mountinfo_path: roots.proc.join("self/mountinfo"),
            mountinfo: None,
            mountinfo_failed: false,
            diskstats: ProcFile::new(roots.proc.join("diskstats")),
            buffer: vec![0; 16 * 1024],
            sys_block: roots.sys.join("block"),
            named: devices.to_vec(),
            named_missing_logged: false,
            known: Vec::new(),
            last_ns: None,
        }
    }

    /// Whether the mount table changed since it was last read (or never was).
    fn mounts_changed(&self) -> bool {
        let Some(file) = &self.mountinfo else {
            return true;
        };
        let mut fds = [PollFd::new(file, PollFlags::PRI)];
        let now = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        match rustix::event::poll(&mut fds, Some(&now)) {
            Ok(_) => fds[0].revents().intersects(PollFlags::PRI | PollFlags::ERR),
            Err(_) => true,
        }
    }

    /// Reads the mount table again and logs each configured path that came or went.
    fn read_mounts(&mut self) {
        // Opened before it is read: a change in between is seen at the next poll.
        let file = File::open(&self.mountinfo_path);
        let table = file
            .as_ref()
            .ok()
            .and_then(|f| std::io::read_to_string(f).ok());
        let Some(table) = table else {
            if !self.mountinfo_failed {
                let path = self.mountinfo_path.display();
                tracing::warn!("{path}: cannot read the mount table; no mount shown");
            }
            self.mountinfo_failed = true;
            return;
        };
        self.mountinfo_failed = false;
        self.mountinfo = file.ok();
        for wanted in &mut self.wanted {
            let now = mountinfo::find(&table, &wanted.path);
            match (&wanted.mounted, &now) {
                (None, Some(entry)) => tracing::info!(
                    "disk: {} is {} on {}",
                    wanted.path,
                    entry.filesystem,
                    entry.source
                ),
                (Some(_), None) => {
                    tracing::warn!("disk: {} is no longer mounted; not shown", wanted.path);
                }
                (None, None) if self.last_ns.is_none() => {
                    tracing::warn!("disk: {} is not a mount point; not shown", wanted.path);
                }
                _ => {}
            }
            wanted.mounted = now;
        }
    }

    /// Lists the mounted ones in `out`, in the config's order, with their space now.
    fn read_space(&self, out: &mut Vec<Mount>) {
        let mounted = self.wanted.iter().filter(|w| w.mounted.is_some());
        let same = out.len() == mounted.clone().count()
            && out
                .iter()
                .zip(mounted.clone())
                .all(|(m, w)| m.path == w.path);
        if !same {
            out.clear();
            for wanted in mounted {
                let entry = wanted.mounted.as_ref().expect("filtered");
                out.push(Mount {
                    path: wanted.path.clone(),
                    filesystem: entry.filesystem.clone(),
                    source: entry.source.clone(),
                    space: Value::Absent,
                });
            }
        }
        let mounted = self.wanted.iter().filter(|w| w.mounted.is_some());
        for (mount, wanted) in out.iter_mut().zip(mounted) {
            if let Some(entry) = &wanted.mounted {
                if mount.filesystem != entry.filesystem || mount.source != entry.source {
                    mount.filesystem.clone_from(&entry.filesystem);
                    mount.source.clone_from(&entry.source);
                }
            }
            mount.space = match wanted.c_path.as_deref().map(rustix::fs::statvfs) {
                Some(Ok(fs)) => Value::Known(Space {
                    total: fs.f_blocks.saturating_mul(fs.f_frsize),
                    used: fs
                        .f_blocks
                        .saturating_sub(fs.f_bfree)
                        .saturating_mul(fs.f_frsize),
                    available: fs.f_bavail.saturating_mul(fs.f_frsize),
                }),
                _ => Value::Failed,
            };
        }
    }

    /// Reads /proc/diskstats whole into the buffer, growing it if the file does not fit.
    fn read_diskstats(&mut self) -> Option<usize> {
        loop {
            let len = self.diskstats.read(&mut self.buffer)?.len();
            if len < self.buffer.len() {
                return Some(len);
            }
            let bigger = self.buffer.len() * 2;
            self.buffer.resize(bigger, 0);
        }
    }

    /// Whether the module shows device `name` (decided once per device).
    fn shows(&self, name: &[u8]) -> bool {
        if !self.named.is_empty() {
            return self.named.iter().any(|n| n.as_bytes() == name);
        }
        let Ok(name) = std::str::from_utf8(name) else {
            return false;
        };
        // Partitions have no /sys/block entry of their own.
        diskstats::is_storage(name.as_bytes()) && self.sys_block.join(name).exists()
    }

    fn read_devices(&mut self, now_ns: u64, out: &mut Vec<Device>) {
        let Some(len) = self.read_diskstats() else {
            out.clear();
            return;
        };
        let seconds = self
            .last_ns
            .map(|last| now_ns.saturating_sub(last) as f64 / 1e9)
            .filter(|s| *s > 0.0);
        let mut shown = 0;
        let buffer = std::mem::take(&mut self.buffer);
        for line in buffer[..len].split(|&b| b == b'\n') {
            let Some((name, read, written)) = diskstats::parse_line(line) else {
                continue;
            };
            let index = match self.known.iter().position(|k| k.name == name) {
                Some(index) => index,
                None => {
                    let shows = self.shows(name);
                    self.known.push(Known {
                        name: name.to_vec(),
                        shown: shows,
                        sectors: None,
                    });
                    self.known.len() - 1
                }
            };
            let known = &mut self.known[index];
            let before = known.sectors.replace((read, written));
            if !known.shown {
                continue;
            }
            let rate = |now: u64, then: Option<u64>| {
                let delta = now.checked_sub(then?)?;
                Some((delta * SECTOR_BYTES) as f64 / seconds?)
            };
            if out.get(shown).is_none_or(|d| d.name.as_bytes() != name) {
                out.truncate(shown);
                out.push(Device {
                    name: String::from_utf8_lossy(name).into_owned(),
                    ..Device::default()
                });
            }
            let device = &mut out[shown];
            device.read_per_second = rate(read, before.map(|b| b.0));
            device.write_per_second = rate(written, before.map(|b| b.1));
            shown += 1;
        }
        self.buffer = buffer;
        out.truncate(shown);
        self.log_missing_named(out);
    }

    /// Logs, once, the devices the config names that the kernel does not have.
    fn log_missing_named(&mut self, shown: &[Device]) {
        if self.named_missing_logged {
            return;
        }
        self.named_missing_logged = true;
        for name in &self.named {
            if !shown.iter().any(|d| d.name == *name) {
                tracing::warn!("disk: no block device {name:?}; not shown");
            }
        }
    }
}

impl Reader for DiskReader {
    fn key(&self) -> &str {
        &self.key
    }

    fn empty(&self) -> Box<dyn Reading> {
        Box::new(DiskReading::default())
    }

    fn read(&mut self, now_ns: u64, out: &mut dyn Reading) {
        let Some(out) = value_mut::<DiskReading>(out) else {
            return;
        };
        if self.mounts_changed() {
            self.read_mounts();
        }
        self.read_space(&mut out.mounts);
        self.read_devices(now_ns, &mut out.devices);
        self.last_ns = Some(now_ns);
    }
}
