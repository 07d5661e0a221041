//! One sample per tick: task records, the system files and the model, together.
//!
//! The records come from the BPF probe when it loads, and otherwise from a walk of
//! `/proc` ([`ProcWalk`]), behind the same interface: the bar, `--once` and `--bench`
//! work either way, and say which.

use std::io;
use std::path::Path;
use std::time::Instant;

use crate::model::{ExitRecord, Model, Snapshot};
use crate::probe::{Probe, ProbeError};
use crate::procfs::SystemFiles;
use crate::procwalk::ProcWalk;

enum Source {
    Probe(Probe),
    Proc {
        walk: ProcWalk,
        /// Busy and total CPU ns of the previous sample, from /proc/stat.
        last_cpu: Option<(u64, u64)>,
    },
}

pub struct Collector {
    source: Source,
    system: SystemFiles,
    model: Model,
    exits: Vec<ExitRecord>,
    kernel_threads: bool,
}

impl Collector {
    /// The BPF collector if the probe loads (call while still privileged), else the
    /// /proc one together with the reason the probe did not load.
    pub fn new(kernel_threads: bool) -> (Self, Option<ProbeError>) {
        match Collector::with_probe(kernel_threads) {
            Ok(collector) => (collector, None),
            Err(err) => (Collector::with_proc(kernel_threads), Some(err)),
        }
    }

    /// The BPF collector only.
    pub fn with_probe(kernel_threads: bool) -> Result<Self, ProbeError> {
        Ok(Collector::from_source(
            Source::Probe(Probe::load()?),
            kernel_threads,
        ))
    }

    /// The /proc collector only: the fallback, and the reference in tests.
    pub fn with_proc(kernel_threads: bool) -> Self {
        let walk = ProcWalk::new(Path::new("/proc"));
        Collector::from_source(
            Source::Proc {
                walk,
                last_cpu: None,
            },
            kernel_threads,
        )
    }

    fn from_source(source: Source, kernel_threads: bool) -> Self {
        Collector {
            source,
            system: SystemFiles::open(Path::new("/proc")),
            model: Model::new(page_size(), online_cpus()),
            exits: Vec::with_capacity(1024),
            kernel_threads,
        }
    }

    /// The probe's task record buffer size (`None` for the /proc walk).
    pub fn record_capacity(&self) -> Option<usize> {
        match &self.source {
            Source::Probe(probe) => Some(probe.capacity()),
            Source::Proc { .. } => None,
        }
    }

    /// Whether the records come from the BPF probe (else from /proc).
    pub fn uses_probe(&self) -> bool {
        matches!(self.source, Source::Probe(_))
    }

    /// Takes a sample and returns the snapshot it produced.
    pub fn sample(&mut self) -> io::Result<&Snapshot> {
        let started = Instant::now();
        let memory = self.system.memory();
        let load = self.system.load();
        match &mut self.source {
            Source::Probe(probe) => {
                let now = monotonic_ns();
                probe.read_tasks()?;
                probe.drain_exits(&mut self.exits)?;
                self.model
                    .update(now, probe.tasks(), &self.exits, memory, load);
            }
            Source::Proc { walk, last_cpu } => {
                // /proc's start times count from boot, suspend included.
                let now = boottime_ns();
                walk.read_tasks()?;
                self.model.update(now, walk.tasks(), &[], memory, load);
                // Processes that lived and died between two samples never show in a walk;
                // /proc/stat has the true total.
                let cpu = walk.cpu_time_ns();
                let snapshot = self.model.snapshot_mut();
                snapshot.tasks = walk.threads();
                if let (Some((busy_then, total_then)), Some((busy, total))) = (*last_cpu, cpu) {
                    let total_delta = total.saturating_sub(total_then);
                    if total_delta > 0 && snapshot.interval_ns > 0 {
                        let share = busy.saturating_sub(busy_then) as f64 / total_delta as f64;
                        let capacity =
                            snapshot.interval_ns as f64 * f64::from(snapshot.online_cpus);
                        snapshot.cpu_busy_ns = (share.min(1.0) * capacity) as u64;
                    }
                }
                *last_cpu = cpu;
            }
        }
        self.model.rank(self.kernel_threads);
        let snapshot = self.model.snapshot_mut();
        snapshot.sample_us = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        Ok(snapshot)
    }

    /// Includes or excludes kernel threads from the lists, at once (no new sample).
    pub fn set_kernel_threads(&mut self, include: bool) {
        self.kernel_threads = include;
        self.model.rank(include);
    }

    pub fn kernel_threads(&self) -> bool {
        self.kernel_threads
    }

    pub fn snapshot(&self) -> &Snapshot {
        self.model.snapshot()
    }

    pub fn model(&self) -> &Model {
        &self.model
    }
}

/// CLOCK_BOOTTIME in nanoseconds: the clock of /proc's process start times.
pub fn boottime_ns() -> u64 {
    clock_ns(libc::CLOCK_BOOTTIME)
}

/// CLOCK_MONOTONIC in nanoseconds: the clock of the kernel's task start times.
pub fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid, writable timespec; both clocks used exist on Linux ≥ 2.6.39.
    unsafe { libc::clock_gettime(clock, &raw mut ts) };
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

pub fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).ok().filter(|&s| s > 0).unwrap_or(4096)
}

fn online_cpus() -> u32 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    u32::try_from(n).ok().filter(|&n| n > 0).unwrap_or(1)
}
