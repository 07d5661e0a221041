//! The fallback source of task records when the BPF probe cannot load: a walk of
//! `/proc`, reading `stat`, `statm` and `io` of every process.
//!
//! It yields one record per process (whole-group CPU and IO, as /proc reports them), so
//! the model treats each as a one-thread process. What it cannot see, it says: processes
//! of other users whose `io` /proc refuses carry [`TASK_IO_UNKNOWN`], and work done by
//! processes that lived and died between two samples shows only in `/proc/stat`'s
//! totals, which the collector uses for the CPU total.
//!
//! Fast by holding on: /proc stays open and is listed with `getdents64` into one large
//! buffer (only when a pid was handed out since the last listing: see [`new_pids`]), and
//! the files of a process seen in two walks in a row stay open, to be read
//! with one `pread` at offset 0 per sample (see [`files`]). A process seen once (a
//! short-lived child) is read with open, read, close, and so are processes past the fd
//! budget ([`fdbudget`](crate::model::fdbudget)); files of vanished processes are closed
//! at the end of the walk. A refused `io` is not asked again until the process changes.
//!
//! What the reader may see stays the kernel's call. `/proc/PID/io` checks ptrace read
//! access at every read, so a held fd reads EACCES once the process becomes private (a
//! setuid exec, a change of uid). `stat` and `statm` check nothing at read time: only
//! `hidepid` at open. So each read of a held `stat` also reads the kernel's verdict on
//! ptrace access (field 26, see [`ProcStat::permitted`]); when it differs from what it
//! was, or from the process's start time, the files are closed and opened again, which
//! puts the process through `hidepid` as a plain walk would. A process without an address
//! space (a zombie, an exiting process) has no verdict, so it is read the plain way.

mod files;
mod new_pids;
mod system_cpu;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

use rustix::fs::{seek, RawDir, SeekFrom};
use rustix::io::Errno;
use rustix::process::{getrlimit, Resource};

use crate::model::fdbudget::held_fd_budget;
use crate::model::procstat::{parse_io, parse_statm_resident, ProcStat};
use crate::model::record::{TaskRecord, TASK_IO_UNKNOWN, TASK_KTHREAD};
use files::Held;
use new_pids::NewPids;

/// The getdents64 buffer: one call lists about 2,700 processes.
const DENTS_BUFFER: usize = 64 * 1024;

pub struct ProcWalk {
    root: PathBuf,
    /// `root`, opened by the first walk (after start-up dropped privileges): listed and
    /// rewound every walk, and the base of every open.
    dir: Option<OwnedFd>,
    /// `/proc/stat`, held like the processes' files.
    proc_stat: Option<OwnedFd>,
    dents: Vec<MaybeUninit<u8>>,
    /// Whether a process was made since /proc was last listed; made with `dir`.
    new_pids: Option<NewPids>,
    /// The processes to read: /proc's listing, or the last walk's processes when no
    /// process was made since.
    pids: Vec<u32>,
    known: HashMap<u32, Known>,
    /// Fds in `known`'s held files.
    held: usize,
    /// Held fds allowed in this walk.
    budget: usize,
    /// Once an open found the fd table full: never hold more than this again.
    ceiling: usize,
    walk: u64,
    tasks: Vec<TaskRecord>,
    /// When each of `tasks` was read (CLOCK_BOOTTIME ns). A walk of thousands of processes
    /// takes a tenth of a second, and no two take as long: each process's rates are over
    /// its own interval, from one read of it to the next.
    read_ns: Vec<u64>,
    threads: u32,
    /// Nanoseconds per clock tick (USER_HZ).
    tick_ns: u64,
    buf: Vec<u8>,
    /// Reused for each file's relative path, so a walk does not allocate per file.
    name: String,
}

/// A process the walk has seen, as it was when last read.
struct Known {
    start_ticks: u64,
    permitted: Option<bool>,
    kernel_thread: bool,
    /// /proc refused its `io` (EACCES, EPERM): not asked again while the above hold.
    io_refused: bool,
    files: Option<Held>,
    /// The walk that last listed it.
    seen: u64,
}

impl Known {
    /// What must not change for held files to stay valid.
    fn identity(&self) -> (u64, Option<bool>, bool) {
        (self.start_ticks, self.permitted, self.kernel_thread)
    }
}

/// The same process, with the same verdict on access, as a [`Known`] one?
fn identity(stat: &ProcStat) -> (u64, Option<bool>, bool) {
    (stat.start_ticks, stat.permitted, stat.kernel_thread)
}

/// What a read of one process gives.
struct Read {
    stat: ProcStat,
    rss_pages: u64,
    io: Option<(u64, u64)>,
}

impl ProcWalk {
    pub fn new(root: &Path) -> ProcWalk {
        ProcWalk {
            root: root.to_owned(),
            dir: None,
            proc_stat: None,
            dents: Vec::new(),
            new_pids: None,
            pids: Vec::with_capacity(1024),
            known: HashMap::with_capacity(1024),
            held: 0,
            budget: 0,
            ceiling: usize::MAX,
            walk: 0,
            tasks: Vec::with_capacity(1024),
            read_ns: Vec::with_capacity(1024),
            threads: 0,
            tick_ns: 1_000_000_000 / clock_ticks_per_second(),
            buf: Vec::with_capacity(4096),
            name: String::with_capacity(32),
        }
    }

    /// Walks `/proc` once. Only an unreadable `/proc` is an error: processes that vanish
    /// mid-walk are skipped.
    pub fn read_tasks(&mut self) -> io::Result<()> {
        self.tasks.clear();
        self.read_ns.clear();
        self.threads = 0;
        self.walk += 1;
        let soft_limit = getrlimit(Resource::Nofile).current;
        self.budget = held_fd_budget(soft_limit).min(self.ceiling);
        self.list_pids()?;
        for i in 0..self.pids.len() {
            let pid = self.pids[i];
            let read = match self.read_held(pid) {
                Some(read) => Some(read),
                None => self.read_fresh(pid),
            };
            if let Some(read) = read {
                let record = self.record(pid, &read);
                self.tasks.push(record);
                self.read_ns.push(crate::records::collector::boottime_ns());
            }
        }
        // Close the files of the processes no longer listed.
        let (walk, mut closed) = (self.walk, 0);
        self.known.retain(|_, known| {
            let listed = known.seen == walk;
            if !listed {
                closed += known.files.as_ref().map_or(0, Held::count);
            }
            listed
        });
        self.held -= closed;
        // What the next walk reads if no process is made meanwhile.
        self.pids.clear();
        self.pids.extend(self.tasks.iter().map(|task| task.tgid));
        Ok(())
    }

    /// Lists the numeric entries of `/proc` into `pids`, unless no process was made since
    /// the last listing (then `pids` holds the processes of the last walk).
    fn list_pids(&mut self) -> io::Result<()> {
        if self.dir.is_none() {
            self.dir = Some(files::open_dir(&self.root)?);
            self.dents = vec![MaybeUninit::uninit(); DENTS_BUFFER];
        }
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let new_pids = self
            .new_pids
            .get_or_insert_with(|| NewPids::watch(&self.root, dir));
        if !new_pids.must_list(&mut self.buf) {
            return Ok(());
        }
        seek(dir, SeekFrom::Start(0))?;
        self.pids.clear();
        let mut entries = RawDir::new(dir, &mut self.dents);
        // An entry that cannot be read ends the list, as it would end `read_dir`.
        while let Some(Ok(entry)) = entries.next() {
            if let Some(pid) = parse_pid(entry.file_name().to_bytes()) {
                self.pids.push(pid);
            }
        }
        Ok(())
    }

    /// Reads a process through its held files; `None` (and the files closed) when there
    /// are none, the process is gone, or it is no longer the one they were opened on.
    fn read_held(&mut self, pid: u32) -> Option<Read> {
        let known = self.known.get_mut(&pid)?;
        let was = known.identity();
        let held = known.files.as_mut()?;
        let stat = (self.held <= self.budget)
            .then(|| files::read_whole(&held.stat, &mut self.buf).ok())
            .flatten()
            .and_then(ProcStat::parse)
            .filter(|stat| identity(stat) == was);
        let Some(stat) = stat else {
            self.held -= held.count();
            known.files = None;
            return None;
        };
        let rss_pages = held
            .statm
            .as_ref()
            .and_then(|fd| files::read_whole(fd, &mut self.buf).ok())
            .and_then(parse_statm_resident)
            .unwrap_or(0);
        let io = match held
            .io
            .as_ref()
            .map(|fd| files::read_whole(fd, &mut self.buf))
        {
            Some(Ok(text)) => parse_io(text),
            Some(Err(err)) if files::refused(err) => {
                held.io = None;
                self.held -= 1;
                known.io_refused = true;
                None
            }
            Some(Err(_)) | None => None,
        };
        known.seen = self.walk;
        Some(Read {
            stat,
            rss_pages,
            io,
        })
    }

    /// Reads a process with fresh opens, and keeps its files open if it was here in the
    /// last walk too, unchanged, and the budget allows.
    fn read_fresh(&mut self, pid: u32) -> Option<Read> {
        let stat_fd = self.open(pid, "stat").ok()?;
        let stat = ProcStat::parse(files::read_whole(&stat_fd, &mut self.buf).ok()?)?;
        let statm_fd = self.open(pid, "statm").ok();
        let rss_pages = statm_fd
            .as_ref()
            .and_then(|fd| files::read_whole(fd, &mut self.buf).ok())
            .and_then(parse_statm_resident)
            .unwrap_or(0);
        // Seen in the last walk as the same process: whether its io was refused.
        let before = self
            .known
            .get(&pid)
            .filter(|known| known.identity() == identity(&stat))
            .map(|known| known.io_refused);
        let (mut io, mut io_fd, mut io_refused) = (None, None, false);
        if before == Some(true) {
            io_refused = true;
        } else {
            match self.open(pid, "io") {
                Ok(fd) => match files::read_whole(&fd, &mut self.buf) {
                    Ok(text) => (io, io_fd) = (parse_io(text), Some(fd)),
                    Err(err) => io_refused = files::refused(err),
                },
                Err(err) => io_refused = files::refused(err),
            }
        }
        let held = Held {
            stat: stat_fd,
            statm: statm_fd,
            io: io_fd,
        };
        let keep = before.is_some()
            && (stat.kernel_thread || stat.permitted.is_some())
            && self.held + held.count() <= self.budget;
        let files = keep.then(|| {
            self.held += held.count();
            held
        });
        self.known.insert(
            pid,
            Known {
                start_ticks: stat.start_ticks,
                permitted: stat.permitted,
                kernel_thread: stat.kernel_thread,
                io_refused,
                files,
                seen: self.walk,
            },
        );
        Some(Read {
            stat,
            rss_pages,
            io,
        })
    }

    /// Opens `PID/FILE`; when the fd table is full, closes held files and tries again.
    fn open(&mut self, pid: u32, file: &str) -> Result<OwnedFd, Errno> {
        loop {
            let Some(dir) = &self.dir else {
                return Err(Errno::BADF);
            };
            match files::open(dir, &mut self.name, pid, file) {
                Err(err) if files::out_of_fds(err) && self.release_one(pid) => {}
                result => return result,
            }
        }
    }

    /// Closes the held files of one process other than `except`, and holds no more than
    /// what is left from now on; `false` when nothing is held.
    fn release_one(&mut self, except: u32) -> bool {
        let files = self
            .known
            .iter_mut()
            .filter(|(&pid, _)| pid != except)
            .find_map(|(_, known)| known.files.take());
        let Some(files) = files else {
            return false;
        };
        self.held -= files.count();
        self.ceiling = self.held;
        self.budget = self.budget.min(self.ceiling);
        tracing::debug!(held = self.held, "out of fds: holding fewer /proc files");
        true
    }

    fn record(&mut self, pid: u32, read: &Read) -> TaskRecord {
        let stat = &read.stat;
        let mut flags = if stat.kernel_thread { TASK_KTHREAD } else { 0 };
        if read.io.is_none() {
            flags |= TASK_IO_UNKNOWN;
        }
        let (read_bytes, write_bytes) = read.io.unwrap_or((0, 0));
        self.threads += stat.threads.max(1);
        TaskRecord {
            leader_start_ns: stat.start_ticks.saturating_mul(self.tick_ns),
            cpu_ns: stat.cpu_ticks.saturating_mul(self.tick_ns),
            read_bytes,
            write_bytes,
            rss_pages: read.rss_pages,
            tgid: pid,
            pid,
            flags,
            state: stat.state,
            comm: stat.comm,
            ..TaskRecord::default()
        }
    }

    /// One record per process of the last walk.
    pub fn tasks(&self) -> &[TaskRecord] {
        &self.tasks
    }

    /// When each of [`Self::tasks`] was read, on the clock of their start times.
    pub fn read_times(&self) -> &[u64] {
        &self.read_ns
    }

    /// Threads in all processes of the last walk.
    pub fn threads(&self) -> u32 {
        self.threads
    }
}

/// A process directory's name: digits only.
fn parse_pid(name: &[u8]) -> Option<u32> {
    if name.is_empty() || !name.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(name).ok()?.parse().ok()
}

/// USER_HZ, the unit of /proc's CPU times (100 on every mainstream architecture).
fn clock_ticks_per_second() -> u64 {
    Some(rustix::param::clock_ticks_per_second())
        .filter(|&hz| hz > 0)
        .unwrap_or(100)
}
