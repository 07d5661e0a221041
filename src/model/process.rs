//! Threads aggregated into processes, keyed so that a reused PID is a different process.

// FxHash: the keys are pids and start times, which the kernel picks, not the processes;
// it hashes them several times faster than SipHash (the model's per-task lookups halved).
use rustc_hash::FxHashMap as HashMap;

use super::net::{NetBytes, NetCounts};
use super::record::{TaskRecord, TaskState, COMM_LEN, TASK_IO_UNKNOWN, TASK_NET, TASK_PRIVATE};

/// A process is its thread group id plus the group leader's start time: a PID reused
/// between two samples gets a new key, so it never inherits the old process's counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcessKey {
    pub tgid: u32,
    pub start_ns: u64,
}

/// One process in one sample: cumulative counters plus the rates computed against the
/// previous sample (zero until there is one).
#[derive(Clone, Copy, Debug, Default)]
pub struct Process {
    pub tgid: u32,
    pub start_ns: u64,
    pub comm: [u8; COMM_LEN],
    pub kthread: bool,
    /// The fallback collector could not read this process's IO counters.
    pub io_unknown: bool,
    /// A thread of it is private to the reader ([`TASK_PRIVATE`]).
    pub private: bool,
    pub leader_state: TaskState,
    pub threads: u32,
    /// Threads that have not exited (not zombie, not dead).
    pub live_threads: u32,
    /// Threads in uninterruptible sleep.
    pub blocked_threads: u32,
    pub rss_pages: u64,
    /// The group leader's cgroup v2 id (0 unknown).
    pub cgroup_id: u64,
    threads_cpu_ns: u64,
    dead_cpu_ns: u64,
    threads_read: u64,
    threads_write: u64,
    dead_read: u64,
    dead_write: u64,
    /// CPU time used since the previous sample.
    pub cpu_delta_ns: u64,
    pub read_delta: u64,
    pub write_delta: u64,
    /// Where its network counts are in its table ([`ProcessTable::net`]); 0: it has none.
    net_slot: u32,
    /// Consecutive samples (this one included) in which the process was a zombie.
    pub zombie_samples: u32,
    /// Of its threads in D: the longest time off the CPU the kernel reported (0: none
    /// reported), and that thread's id (whose wait channel is shown).
    pub blocked_ns: u64,
    pub blocked_tid: u32,
    /// Consecutive samples (this one included) with a thread in D, the time of the first
    /// of them, and of the sample before it, which found it out of D (CLOCK_MONOTONIC
    /// ns; 0 when no sample did).
    pub blocked_samples: u32,
    pub blocked_since_ns: u64,
    pub blocked_after_ns: u64,
}

impl Process {
    fn from_record(rec: &TaskRecord) -> Self {
        Process {
            tgid: rec.tgid,
            start_ns: rec.leader_start_ns,
            comm: rec.comm,
            cgroup_id: rec.cgroup_id,
            kthread: rec.is_kthread(),
            io_unknown: rec.flags & TASK_IO_UNKNOWN != 0,
            leader_state: rec.state(),
            ..Default::default()
        }
    }

    fn add_thread(&mut self, rec: &TaskRecord) {
        let state = rec.state();
        self.threads += 1;
        self.private |= rec.flags & TASK_PRIVATE != 0;
        if !state.has_exited() {
            self.live_threads += 1;
        }
        if state == TaskState::DiskSleep {
            self.blocked_threads += 1;
            if self.blocked_tid == 0 || rec.blocked_ns > self.blocked_ns {
                self.blocked_ns = rec.blocked_ns;
                self.blocked_tid = rec.pid;
            }
        }
        if rec.pid == rec.tgid {
            self.leader_state = state;
            self.comm = rec.comm;
            self.cgroup_id = rec.cgroup_id;
        }
        // Every thread shares the mm; a zombie leader has none, so take the largest.
        self.rss_pages = self.rss_pages.max(rec.rss_pages);
        self.threads_cpu_ns = self.threads_cpu_ns.saturating_add(rec.cpu_ns);
        self.threads_read = self.threads_read.saturating_add(rec.read_bytes);
        self.threads_write = self.threads_write.saturating_add(rec.write_bytes);
        // The same in every thread of the group; max() tolerates a thread exiting mid-read.
        self.dead_cpu_ns = self.dead_cpu_ns.max(rec.group_dead_cpu_ns);
        self.dead_read = self.dead_read.max(rec.group_dead_read_bytes);
        self.dead_write = self.dead_write.max(rec.group_dead_write_bytes);
    }

    /// Where its network counts are in its table's [`ProcessTable::parts_mut`] (0: it has
    /// none, and that slot stays empty).
    pub(crate) fn net_slot(&self) -> usize {
        self.net_slot as usize
    }

    pub fn key(&self) -> ProcessKey {
        ProcessKey {
            tgid: self.tgid,
            start_ns: self.start_ns,
        }
    }

    /// Total CPU time of the process since it started, exited threads included.
    pub fn cpu_ns(&self) -> u64 {
        self.threads_cpu_ns.saturating_add(self.dead_cpu_ns)
    }

    pub fn read_bytes(&self) -> u64 {
        self.threads_read.saturating_add(self.dead_read)
    }

    pub fn write_bytes(&self) -> u64 {
        self.threads_write.saturating_add(self.dead_write)
    }

    pub fn io_delta(&self) -> u64 {
        self.read_delta.saturating_add(self.write_delta)
    }

    /// Every thread has exited but the parent has not reaped it. A zombie leader whose
    /// other threads still run is not a zombie process.
    pub fn is_zombie(&self) -> bool {
        self.leader_state == TaskState::Zombie && self.live_threads == 0
    }

    /// At least one thread is in uninterruptible sleep.
    pub fn is_blocked(&self) -> bool {
        self.blocked_threads > 0
    }

    /// How long it has been stuck at `time_ns`: the kernel's time off the CPU when it
    /// reports one (but no longer than since the last sample that found it out of D: a
    /// sleeping task the freezer puts in D never runs on the way), else since the first
    /// of the consecutive samples that found it in D (a lower bound); 0 when not in D.
    pub fn blocked_for_ns(&self, time_ns: u64) -> u64 {
        match (self.is_blocked(), self.blocked_ns, self.blocked_after_ns) {
            (false, _, _) => 0,
            (true, 0, _) => time_ns.saturating_sub(self.blocked_since_ns),
            (true, kernel, 0) => kernel,
            (true, kernel, after) => kernel.min(time_ns.saturating_sub(after)),
        }
    }

    /// Whether its D state is no passing wait: two consecutive samples found it in D and,
    /// where the kernel says, it has not run since before the previous one (`interval_ns`
    /// ago): a process writing to disk, in D at each sample but running in between, is
    /// not stuck.
    pub fn is_stuck(&self, interval_ns: u64) -> bool {
        self.is_blocked()
            && self.blocked_samples >= 2
            && (self.blocked_ns == 0 || self.blocked_ns >= interval_ns)
    }
}

/// All processes of one sample, dense in a Vec, found by key through an index that is
/// built only as far as a lookup needs it. Kept and cleared between samples so that
/// steady-state sampling reuses its memory.
///
/// Most lookups need no index: the walker lists a process's threads one after the other
/// and the processes in the order they were made, so a new key usually started after
/// every process already here (then it cannot be here), and two samples list the same
/// processes in the same order. On a quiet machine the index is never built.
#[derive(Debug)]
pub struct ProcessTable {
    processes: Vec<Process>,
    /// The network counts of the processes that have any, by [`Process::net_slot`]; slot 0
    /// stays empty. Most processes never use an inet socket: kept beside them, the counts
    /// leave each process (filled in again every sample) 56 bytes smaller.
    net: Vec<NetCounts>,
    /// When each process was read, by position, where its source reads one process after
    /// another (the /proc walk); empty otherwise.
    read_ns: Vec<u64>,
    /// The first `indexed` processes by key.
    index: HashMap<ProcessKey, u32>,
    indexed: usize,
    /// The latest start among the processes: a key that started later is not here.
    latest_start_ns: u64,
    tasks: u32,
}

/// How far past the expected place [`ProcessTable::position_after`] looks before it
/// asks the index: past a few processes that ended in between.
const LOOK_AHEAD: usize = 4;

impl Default for ProcessTable {
    fn default() -> Self {
        ProcessTable {
            processes: Vec::new(),
            net: vec![NetCounts::default()],
            read_ns: Vec::new(),
            index: HashMap::default(),
            indexed: 0,
            latest_start_ns: 0,
            tasks: 0,
        }
    }
}

impl ProcessTable {
    pub fn clear(&mut self) {
        self.processes.clear();
        self.net.truncate(1);
        self.read_ns.clear();
        self.index.clear();
        self.indexed = 0;
        self.latest_start_ns = 0;
        self.tasks = 0;
    }

    /// How many processes, network counts and read times it holds without growing.
    pub fn room(&self) -> (usize, usize, usize) {
        (
            self.processes.capacity(),
            self.net.capacity(),
            self.read_ns.capacity(),
        )
    }

    /// Room for `room` processes, in the list and in the index, and network counts. A
    /// model's two tables take turns: both get the room one grew to in the same sample, so
    /// that a later sample with no more processes than ever allocates nothing.
    pub fn reserve_room(&mut self, (room, net_room, read_room): (usize, usize, usize)) {
        if self.processes.capacity() < room {
            self.processes.reserve_exact(room - self.processes.len());
        }
        if self.index.capacity() < room {
            self.index.reserve(room - self.index.len());
        }
        if self.net.capacity() < net_room {
            self.net.reserve_exact(net_room - self.net.len());
        }
        if self.read_ns.capacity() < read_room {
            self.read_ns.reserve_exact(read_room - self.read_ns.len());
        }
    }

    /// Notes when each process was read, after [`ProcessTable::add`] took `records`:
    /// `read_ns` by record, and a process takes the time of the first of its records
    /// (processes are in the order their first records came).
    pub fn note_read_times(&mut self, records: &[TaskRecord], read_ns: &[u64]) {
        self.read_ns.clear();
        for (rec, &at) in records.iter().zip(read_ns) {
            let first_of = self.processes.get(self.read_ns.len());
            if first_of.is_some_and(|p| p.tgid == rec.tgid && p.start_ns == rec.leader_start_ns) {
                self.read_ns.push(at);
            }
        }
        // Records without times (too few given): none for the rest.
        if self.read_ns.len() < self.processes.len() {
            self.read_ns.clear();
        }
    }

    /// When the process at `position` was read, if the records said.
    pub fn read_ns(&self, position: usize) -> Option<u64> {
        self.read_ns.get(position).copied()
    }

    pub fn add(&mut self, rec: &TaskRecord) {
        let key = ProcessKey {
            tgid: rec.tgid,
            start_ns: rec.leader_start_ns,
        };
        // A process's threads usually come one after the other: the last one added is
        // most likely the one.
        let at = match self.processes.last() {
            Some(last) if last.key() == key => self.processes.len() - 1,
            _ => match self.find(&key) {
                Some(at) => at,
                None => {
                    self.processes.push(Process::from_record(rec));
                    self.latest_start_ns = self.latest_start_ns.max(key.start_ns);
                    self.processes.len() - 1
                }
            },
        };
        let process = &mut self.processes[at];
        process.add_thread(rec);
        // Each thread's own counts, the leader's with the exited threads': the sum.
        if rec.flags & TASK_NET != 0 {
            if process.net_slot == 0 {
                process.net_slot = self.net.len() as u32;
                self.net.push(NetCounts::default());
            }
            self.net[process.net_slot as usize]
                .total
                .add(NetBytes::of_task(rec));
        }
        self.tasks += 1;
    }

    /// A process's network bytes since it started, and since the previous sample (as the
    /// model set them), for a process of this table.
    pub fn net(&self, p: &Process) -> &NetCounts {
        &self.net[p.net_slot as usize]
    }

    /// Its processes, the network counts they point to, and when each was read (see
    /// [`ProcessTable::read_ns`]).
    pub(crate) fn parts_mut(&mut self) -> (&mut [Process], &mut [NetCounts], &[u64]) {
        (&mut self.processes, &mut self.net, &self.read_ns)
    }

    /// Where the process with this key is.
    fn find(&mut self, key: &ProcessKey) -> Option<usize> {
        if self.processes.is_empty() || key.start_ns > self.latest_start_ns {
            return None;
        }
        for (at, p) in self.processes.iter().enumerate().skip(self.indexed) {
            self.index.insert(p.key(), at as u32);
        }
        self.indexed = self.processes.len();
        self.index.get(key).map(|&at| at as usize)
    }

    /// Where the process with this key is, looked for first at `cursor` and a few
    /// places after it (where the previous call left off: two samples list the
    /// processes in the same order, but for those that came and went), then through the
    /// index. Moves `cursor` past what it found.
    pub fn position_after(&mut self, key: &ProcessKey, cursor: &mut usize) -> Option<usize> {
        let ahead = self.processes.get(*cursor..).unwrap_or_default();
        let at = match ahead.iter().take(LOOK_AHEAD).position(|p| p.key() == *key) {
            Some(skipped) => *cursor + skipped,
            None => self.find(key)?,
        };
        *cursor = at + 1;
        Some(at)
    }

    /// The process at a position [`ProcessTable::position_after`] gave.
    pub fn at(&self, position: usize) -> &Process {
        &self.processes[position]
    }

    pub fn contains(&mut self, key: &ProcessKey) -> bool {
        self.find(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Process> {
        self.processes.iter()
    }

    /// The process with this thread group id, whatever its start time.
    pub fn by_tgid(&self, tgid: u32) -> Option<&Process> {
        self.processes.iter().find(|p| p.tgid == tgid)
    }

    pub fn tasks(&self) -> u32 {
        self.tasks
    }

    pub fn len(&self) -> usize {
        self.processes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.processes.is_empty()
    }
}

#[cfg(test)]
#[path = "process_tests.rs"]
pub(crate) mod tests;
