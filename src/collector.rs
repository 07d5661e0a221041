//! One sample per tick: the probe's records, the system files and the model, together.

use std::io;
use std::path::Path;
use std::time::Instant;

use crate::model::{ExitRecord, Model, Snapshot};
use crate::probe::{Probe, ProbeError};
use crate::procfs::SystemFiles;

pub struct Collector {
    probe: Probe,
    system: SystemFiles,
    model: Model,
    exits: Vec<ExitRecord>,
    kernel_threads: bool,
}

impl Collector {
    /// Loads the probe. Call while still privileged.
    pub fn new(kernel_threads: bool) -> Result<Self, ProbeError> {
        let probe = Probe::load()?;
        Ok(Collector {
            probe,
            system: SystemFiles::open(Path::new("/proc")),
            model: Model::new(page_size(), online_cpus()),
            exits: Vec::with_capacity(1024),
            kernel_threads,
        })
    }

    /// Takes a sample and returns the snapshot it produced.
    pub fn sample(&mut self) -> io::Result<&Snapshot> {
        let started = Instant::now();
        let now = monotonic_ns();
        self.probe.read_tasks()?;
        self.probe.drain_exits(&mut self.exits)?;
        let memory = self.system.memory();
        let load = self.system.load();
        self.model
            .update(now, self.probe.tasks(), &self.exits, memory, load);
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

/// CLOCK_MONOTONIC in nanoseconds: the clock of the kernel's task start times.
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &raw mut ts) };
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
