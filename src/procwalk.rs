//! The fallback source of task records when the BPF probe cannot load: a walk of
//! `/proc`, reading `stat`, `statm` and `io` of every process (open, read, close).
//!
//! It yields one record per process (whole-group CPU and IO, as /proc reports them), so
//! the model treats each as a one-thread process. What it cannot see, it says: processes
//! of other users whose `io` /proc refuses carry [`TASK_IO_UNKNOWN`], and work done by
//! processes that lived and died between two samples shows only in `/proc/stat`'s
//! totals, which the collector uses for the CPU total.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::model::procstat::{parse_cpu_ticks, parse_io, parse_statm_resident, ProcStat};
use crate::model::record::{TaskRecord, TASK_IO_UNKNOWN, TASK_KTHREAD};
use crate::model::SystemCpu;

pub struct ProcWalk {
    root: PathBuf,
    tasks: Vec<TaskRecord>,
    threads: u32,
    /// Nanoseconds per clock tick (USER_HZ).
    tick_ns: u64,
    buf: Vec<u8>,
    /// Reused for each file's path, so a walk does not allocate per file.
    name: String,
    path: PathBuf,
}

impl ProcWalk {
    pub fn new(root: &Path) -> ProcWalk {
        ProcWalk {
            root: root.to_owned(),
            tasks: Vec::with_capacity(1024),
            threads: 0,
            tick_ns: 1_000_000_000 / clock_ticks_per_second(),
            buf: Vec::with_capacity(4096),
            name: String::with_capacity(32),
            path: PathBuf::with_capacity(64),
        }
    }

    /// Walks `/proc` once. Only an unreadable `/proc` is an error: processes that vanish
    /// mid-walk are skipped.
    pub fn read_tasks(&mut self) -> io::Result<()> {
        self.tasks.clear();
        self.threads = 0;
        for entry in std::fs::read_dir(&self.root)? {
            let Ok(entry) = entry else { continue };
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if let Some(record) = self.read_process(pid) {
                self.tasks.push(record);
            }
        }
        Ok(())
    }

    fn read_process(&mut self, pid: u32) -> Option<TaskRecord> {
        let stat = ProcStat::parse(self.read(pid, "stat").ok()?)?;
        let rss_pages = self
            .read(pid, "statm")
            .ok()
            .and_then(parse_statm_resident)
            .unwrap_or(0);
        let io = self.read(pid, "io").ok().and_then(parse_io);
        let mut flags = if stat.kernel_thread { TASK_KTHREAD } else { 0 };
        if io.is_none() {
            flags |= TASK_IO_UNKNOWN;
        }
        let (read_bytes, write_bytes) = io.unwrap_or((0, 0));
        self.threads += stat.threads.max(1);
        Some(TaskRecord {
            leader_start_ns: stat.start_ticks.saturating_mul(self.tick_ns),
            cpu_ns: stat.cpu_ticks.saturating_mul(self.tick_ns),
            read_bytes,
            write_bytes,
            rss_pages,
            tgid: pid,
            pid,
            flags,
            state: stat.state,
            comm: stat.comm,
            ..TaskRecord::default()
        })
    }

    /// Reads `/proc/PID/{file}` whole.
    fn read(&mut self, pid: u32, file: &str) -> io::Result<&[u8]> {
        self.read_file(format_args!("{pid}/{file}"))
    }

    /// Reads `<root>/<relative>` whole into the reused buffer.
    fn read_file(&mut self, relative: std::fmt::Arguments<'_>) -> io::Result<&[u8]> {
        use std::fmt::Write;
        self.name.clear();
        let _ = self.name.write_fmt(relative);
        self.path.clear();
        self.path.push(&self.root);
        self.path.push(&self.name);
        self.buf.clear();
        File::open(&self.path)?.read_to_end(&mut self.buf)?;
        Ok(&self.buf)
    }

    /// One record per process of the last walk.
    pub fn tasks(&self) -> &[TaskRecord] {
        &self.tasks
    }

    /// Threads in all processes of the last walk.
    pub fn threads(&self) -> u32 {
        self.threads
    }

    /// Busy and total CPU time of all CPUs since boot, in ns, from `/proc/stat`.
    pub fn cpu_time_ns(&mut self) -> Option<SystemCpu> {
        let (busy, total) = parse_cpu_ticks(self.read_file(format_args!("stat")).ok()?)?;
        Some(SystemCpu {
            busy: busy.saturating_mul(self.tick_ns),
            total: total.saturating_mul(self.tick_ns),
        })
    }
}

/// USER_HZ, the unit of /proc's CPU times (100 on every mainstream architecture).
fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(hz).ok().filter(|&hz| hz > 0).unwrap_or(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_this_machine() {
        let mut walk = ProcWalk::new(Path::new("/proc"));
        walk.read_tasks().expect("/proc is readable");
        let me = std::process::id();
        let record = walk
            .tasks()
            .iter()
            .find(|t| t.tgid == me)
            .expect("this process is listed");
        assert!(record.rss_pages > 0);
        assert_eq!(record.flags & TASK_IO_UNKNOWN, 0, "own io is readable");
        assert!(walk.threads() as usize >= walk.tasks().len());
        let cpu = walk.cpu_time_ns().expect("/proc/stat parses");
        assert!(cpu.busy <= cpu.total && cpu.total > 0);
    }

    #[test]
    fn a_missing_proc_is_an_error_and_vanished_processes_are_skipped() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(ProcWalk::new(&dir.path().join("none"))
            .read_tasks()
            .is_err());
        let proc = dir.path();
        std::fs::create_dir_all(proc.join("12")).expect("mkdir");
        std::fs::create_dir_all(proc.join("13")).expect("mkdir");
        std::fs::create_dir_all(proc.join("self")).expect("mkdir");
        std::fs::write(
            proc.join("12/stat"),
            "12 (x y) S 1 12 12 0 -1 4194304 0 0 0 0 30 20 0 0 20 0 2 0 500 0 0\n",
        )
        .expect("write");
        std::fs::write(proc.join("12/statm"), "100 25 0 0 0 0 0\n").expect("write");
        // 13 has no stat: it exited between readdir and open.
        let mut walk = ProcWalk::new(proc);
        walk.read_tasks().expect("walks");
        assert_eq!(walk.tasks().len(), 1);
        let record = walk.tasks()[0];
        assert_eq!((record.tgid, record.rss_pages, record.state), (12, 25, 1));
        assert_eq!(record.cpu_ns, 50 * walk.tick_ns);
        assert_eq!(record.leader_start_ns, 500 * walk.tick_ns);
        assert_eq!(record.flags, TASK_IO_UNKNOWN, "no io file: unknown, not 0");
        assert_eq!(walk.threads(), 2);
    }
}
