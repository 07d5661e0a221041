//! Threads aggregated into processes, keyed so that a reused PID is a different process.

// FxHash: the keys are pids and start times, which the kernel picks, not the processes;
// it hashes them several times faster than SipHash (the model's per-task lookups halved).
use rustc_hash::FxHashMap as HashMap;

use super::record::{TaskRecord, TaskState, COMM_LEN, TASK_IO_UNKNOWN, TASK_PRIVATE};

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

/// All processes of one sample, dense in a Vec and found by key through a small index.
/// Kept and cleared between samples so that steady-state sampling reuses its memory.
#[derive(Debug, Default)]
pub struct ProcessTable {
    processes: Vec<Process>,
    index: HashMap<ProcessKey, u32>,
    tasks: u32,
}

impl ProcessTable {
    pub fn clear(&mut self) {
        self.processes.clear();
        self.index.clear();
        self.tasks = 0;
    }

    pub fn add(&mut self, rec: &TaskRecord) {
        let key = ProcessKey {
            tgid: rec.tgid,
            start_ns: rec.leader_start_ns,
        };
        // A process's threads come one after the other: the last one added is most
        // likely the one.
        let at = match self.processes.last() {
            Some(last) if last.key() == key => self.processes.len() - 1,
            _ => {
                let next = self.processes.len();
                let at = *self.index.entry(key).or_insert(next as u32) as usize;
                if at == next {
                    self.processes.push(Process::from_record(rec));
                }
                at
            }
        };
        self.processes[at].add_thread(rec);
        self.tasks += 1;
    }

    pub fn get(&self, key: &ProcessKey) -> Option<&Process> {
        let at = *self.index.get(key)?;
        self.processes.get(at as usize)
    }

    /// As [`ProcessTable::get`], trying first the process after the one `cursor` found
    /// last: two samples list the processes in the same order, but for those that came
    /// and went, so a walk of one sample finds most of the other's without a lookup.
    pub fn get_after(&self, key: &ProcessKey, cursor: &mut usize) -> Option<&Process> {
        let at = match self.processes.get(*cursor) {
            Some(next) if next.key() == *key => *cursor,
            _ => *self.index.get(key)? as usize,
        };
        *cursor = at + 1;
        self.processes.get(at)
    }

    pub fn contains(&self, key: &ProcessKey) -> bool {
        self.index.contains_key(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Process> {
        self.processes.iter()
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Process> {
        self.processes.iter_mut()
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
pub(crate) mod tests {
    use super::*;

    pub fn comm(name: &str) -> [u8; COMM_LEN] {
        let mut c = [0u8; COMM_LEN];
        let n = name.len().min(COMM_LEN - 1);
        c[..n].copy_from_slice(&name.as_bytes()[..n]);
        c
    }

    pub fn thread(tgid: u32, pid: u32, state: u32, cpu_ns: u64) -> TaskRecord {
        TaskRecord {
            tgid,
            pid,
            state,
            cpu_ns,
            leader_start_ns: u64::from(tgid) * 1000,
            comm: comm("proc"),
            ..Default::default()
        }
    }

    #[test]
    fn get_after_finds_each_process_whatever_came_and_went() {
        let mut before = ProcessTable::default();
        for tgid in [10, 20, 30, 40] {
            before.add(&thread(tgid, tgid, 1, u64::from(tgid)));
        }
        // 20 ended, 25 started, 10 and 40 swapped places.
        let now = [40, 30, 25, 10];
        let mut cursor = 0;
        let found: Vec<Option<u64>> = now
            .iter()
            .map(|&tgid| {
                let key = ProcessKey {
                    tgid,
                    start_ns: u64::from(tgid) * 1000,
                };
                before.get_after(&key, &mut cursor).map(Process::cpu_ns)
            })
            .collect();
        assert_eq!(found, [Some(40), Some(30), None, Some(10)]);
    }

    #[test]
    fn threads_sum_into_their_process() {
        let mut table = ProcessTable::default();
        let mut a = thread(10, 10, 0, 100);
        a.group_dead_cpu_ns = 50;
        a.rss_pages = 7;
        a.read_bytes = 1;
        a.group_dead_write_bytes = 4;
        let mut b = thread(10, 11, 2, 200);
        b.group_dead_cpu_ns = 50;
        b.rss_pages = 7;
        b.write_bytes = 2;
        b.group_dead_write_bytes = 4;
        table.add(&a);
        table.add(&thread(20, 20, 1, 5));
        table.add(&b);

        assert_eq!(table.len(), 2);
        assert_eq!(table.tasks(), 3);
        let p = table.by_tgid(10).expect("process 10");
        assert_eq!(p.threads, 2);
        assert_eq!(p.cpu_ns(), 350);
        assert_eq!(p.rss_pages, 7);
        assert_eq!((p.read_bytes(), p.write_bytes()), (1, 6));
        assert!(p.is_blocked());
        assert!(!p.is_zombie());
    }

    #[test]
    fn a_zombie_leader_with_running_threads_is_not_a_zombie() {
        let mut table = ProcessTable::default();
        table.add(&thread(30, 30, 6, 10));
        table.add(&thread(30, 31, 0, 10));
        assert!(!table.by_tgid(30).expect("30").is_zombie());

        table.clear();
        table.add(&thread(30, 30, 6, 10));
        assert!(table.by_tgid(30).expect("30").is_zombie());
    }

    #[test]
    fn a_reused_pid_is_a_different_process() {
        let mut table = ProcessTable::default();
        let old = thread(40, 40, 1, 10);
        let mut new = old;
        new.leader_start_ns += 1;
        table.add(&old);
        table.add(&new);
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn the_leader_names_the_process() {
        let mut table = ProcessTable::default();
        let mut worker = thread(50, 51, 1, 1);
        worker.comm = comm("worker");
        let mut leader = thread(50, 50, 1, 1);
        leader.comm = comm("main");
        table.add(&worker);
        table.add(&leader);
        assert_eq!(table.by_tgid(50).expect("50").comm, comm("main"));
    }
}
