//! One sample to the next: deltas, system totals and the ranked lists the bar shows.
//!
//! Here what one sample shows ([`Snapshot`] and its lists); [`Model`] (`model.rs`) makes it
//! from the records, remembering in `departed.rs` what was counted for processes that are
//! gone.

mod apps;
mod departed;
mod model;

pub use self::apps::AppLists;
pub use self::model::Model;

use super::app::GroupBy;
use super::net::NetBytes;
use super::process::Process;
use super::record::TaskState;
use super::system::{LoadAverage, Memory};
use super::top::{Row, TopList};

/// Rows per ranked list.
pub const TOP_ROWS: usize = 5;
/// At most this many D/Z rows.
pub const STUCK_ROWS: usize = 10;

/// Processes stuck in D (uninterruptible) or Z (zombie) state: D rows first, the longest
/// stuck first, then Z rows by PID.
#[derive(Clone, Copy, Debug, Default)]
pub struct StuckList(TopList<STUCK_ROWS>);

impl StuckList {
    // Ranking values: D rows (2 and more, by how long) sort before Z rows.
    const BLOCKED: u64 = 2;
    const ZOMBIE: u64 = 1;

    fn offer_blocked(&mut self, p: &Process, blocked_ns: u64) {
        let mut row = Row::new(p, Self::BLOCKED.saturating_add(blocked_ns));
        row.blocked_ns = blocked_ns;
        row.blocked_tid = p.blocked_tid;
        self.0.offer(row);
    }

    fn offer_zombie(&mut self, p: &Process) {
        self.0.offer(Row::new(p, Self::ZOMBIE));
    }

    pub fn rows(&self) -> impl Iterator<Item = (TaskState, &Row)> {
        self.0.rows().iter().map(|row| {
            let state = if row.value == Self::ZOMBIE {
                TaskState::Zombie
            } else {
                TaskState::DiskSleep
            };
            (state, row)
        })
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The rows, to name them.
    pub fn rows_mut(&mut self) -> &mut [Row] {
        self.0.rows_mut()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What one sample shows: system totals over the interval and the ranked lists.
#[derive(Clone, Copy, Debug, Default)]
pub struct Snapshot {
    /// Nanoseconds since the previous sample; 0 for the first sample (no rates yet).
    pub interval_ns: u64,
    pub online_cpus: u32,
    /// CPU time all processes used in the interval, exited ones included.
    pub cpu_busy_ns: u64,
    /// CPU time of thread groups that exited during the interval (part of `cpu_busy_ns`).
    pub exited_cpu_ns: u64,
    pub exited_groups: u32,
    pub read_bytes: u64,
    pub write_bytes: u64,
    /// Network bytes of all processes in the interval, exited ones included.
    pub net: NetBytes,
    /// Whether the network figures count the machine's own traffic.
    pub net_include_local: bool,
    pub memory: Option<Memory>,
    pub load: Option<LoadAverage>,
    pub tasks: u32,
    pub processes: u32,
    pub kernel_threads: bool,
    /// Listed processes whose IO could not be read (the /proc fallback, other users'
    /// processes): the IO figures leave them out.
    pub io_unknown: u32,
    /// Ranked by CPU time in the interval.
    pub top_cpu: TopList<TOP_ROWS>,
    /// Ranked by resident memory, in bytes.
    pub top_memory: TopList<TOP_ROWS>,
    /// Ranked by bytes read plus written in the interval.
    pub top_io: TopList<TOP_ROWS>,
    /// Ranked by network bytes received plus sent in the interval (`read`: received,
    /// `write`: sent).
    pub top_net: TopList<TOP_ROWS>,
    /// IO in the interval of processes whose IO /proc would not show the reader: in the
    /// totals, never in a row of its own.
    pub others_io: OthersIo,
    /// Likewise their network bytes (`read`: received, `write`: sent).
    pub others_net: OthersIo,
    pub stuck: StuckList,
    /// The same lists by app (always filled, for the JSON).
    pub apps: AppLists,
    /// What the tooltip and text outputs rank: `top_*` or `apps`.
    pub group_by: GroupBy,
}

impl Snapshot {
    /// The process lists, as lists of lone rows.
    fn process_lists(&self) -> AppLists {
        AppLists {
            cpu: self.top_cpu,
            memory: self.top_memory,
            io: self.top_io,
            net: self.top_net,
        }
    }

    /// The CPU list the setting shows: by app or by process.
    pub fn shown_cpu(&self) -> &TopList<TOP_ROWS> {
        match self.group_by {
            GroupBy::App => &self.apps.cpu,
            GroupBy::Process => &self.top_cpu,
        }
    }

    pub fn shown_memory(&self) -> &TopList<TOP_ROWS> {
        match self.group_by {
            GroupBy::App => &self.apps.memory,
            GroupBy::Process => &self.top_memory,
        }
    }

    pub fn shown_io(&self) -> &TopList<TOP_ROWS> {
        match self.group_by {
            GroupBy::App => &self.apps.io,
            GroupBy::Process => &self.top_io,
        }
    }

    pub fn shown_net(&self) -> &TopList<TOP_ROWS> {
        match self.group_by {
            GroupBy::App => &self.apps.net,
            GroupBy::Process => &self.top_net,
        }
    }

    /// The network bytes of the interval as shown: (received, sent).
    pub fn net_shown(&self) -> (u64, u64) {
        self.net.shown(self.net_include_local)
    }

    pub fn has_rates(&self) -> bool {
        self.interval_ns > 0
    }

    /// Busy share of all online CPUs, 0–100.
    pub fn cpu_percent(&self) -> Option<f64> {
        if !self.has_rates() || self.online_cpus == 0 {
            return None;
        }
        let capacity = self.interval_ns as f64 * f64::from(self.online_cpus);
        Some((self.cpu_busy_ns as f64 / capacity * 100.0).min(100.0))
    }

    /// A process's CPU use relative to one core (100 % = one core fully busy, as in top).
    pub fn core_percent(&self, cpu_ns: u64) -> f64 {
        if !self.has_rates() {
            return 0.0;
        }
        cpu_ns as f64 / self.interval_ns as f64 * 100.0
    }

    /// Bytes in the interval → bytes per second.
    pub fn per_second(&self, bytes: u64) -> f64 {
        if !self.has_rates() {
            return 0.0;
        }
        bytes as f64 * 1e9 / self.interval_ns as f64
    }
}

/// IO summed over the processes the reader may not see it of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OthersIo {
    /// How many of them did IO in the interval.
    pub processes: u32,
    pub read: u64,
    pub write: u64,
}

/// Cumulative busy and total CPU time of all CPUs, as /proc/stat counts it (any unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemCpu {
    pub busy: u64,
    pub total: u64,
}

#[cfg(test)]
mod departed_tests;
#[cfg(test)]
mod net_tests;
#[cfg(test)]
mod read_times_tests;
#[cfg(test)]
mod stuck_tests;
#[cfg(test)]
mod tests;
