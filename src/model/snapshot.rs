//! One sample to the next: deltas, system totals and the ranked lists the bar shows.

use std::collections::HashMap;

use super::process::{Process, ProcessKey, ProcessTable};
use super::record::{ExitRecord, TaskRecord, TaskState};
use super::system::{LoadAverage, Memory};
use super::top::{Row, TopList};

/// Rows per ranked list.
pub const TOP_ROWS: usize = 5;
/// At most this many D/Z rows.
pub const STUCK_ROWS: usize = 10;

/// Processes stuck in D (uninterruptible) or Z (zombie) state: D rows first, then Z rows,
/// each by PID.
#[derive(Clone, Copy, Debug, Default)]
pub struct StuckList(TopList<STUCK_ROWS>);

impl StuckList {
    // Ranking values: D sorts before Z.
    const BLOCKED: u64 = 2;
    const ZOMBIE: u64 = 1;

    fn offer(&mut self, p: &Process, state: TaskState) {
        let value = if state == TaskState::Zombie {
            Self::ZOMBIE
        } else {
            Self::BLOCKED
        };
        self.0.offer(Row::new(p, value));
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
    pub stuck: StuckList,
    /// How long taking the sample took, in microseconds (set by the collector).
    pub sample_us: u32,
}

impl Snapshot {
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

/// How many samples a vanished process is remembered for late exit reports.
const DEPARTED_SAMPLES: u64 = 50;

/// The cumulative totals already counted for a process that is gone.
#[derive(Clone, Copy, Debug)]
struct Departed {
    cpu_ns: u64,
    read_bytes: u64,
    write_bytes: u64,
    reported: bool,
    /// The sample in which it was last seen or reported.
    sample: u64,
}

impl Departed {
    /// Last listed with these totals, all of them counted.
    fn seen(p: &Process, sample: u64) -> Self {
        Departed {
            cpu_ns: p.cpu_ns(),
            read_bytes: p.read_bytes(),
            write_bytes: p.write_bytes(),
            reported: false,
            sample,
        }
    }

    /// Never listed: nothing counted yet.
    fn unseen(sample: u64) -> Self {
        Departed {
            cpu_ns: 0,
            read_bytes: 0,
            write_bytes: 0,
            reported: false,
            sample,
        }
    }

    /// Counts a report: returns what it adds (cpu, read, write) and whether it is the
    /// group's first report.
    fn count(&mut self, exit: &ExitRecord) -> (u64, u64, u64, bool) {
        let added = (
            exit.cpu_ns.saturating_sub(self.cpu_ns),
            exit.read_bytes.saturating_sub(self.read_bytes),
            exit.write_bytes.saturating_sub(self.write_bytes),
            !self.reported,
        );
        self.take(exit);
        added
    }

    /// Takes a report's totals as counted without counting them (its history is unknown).
    fn take(&mut self, exit: &ExitRecord) {
        self.cpu_ns = self.cpu_ns.max(exit.cpu_ns);
        self.read_bytes = self.read_bytes.max(exit.read_bytes);
        self.write_bytes = self.write_bytes.max(exit.write_bytes);
        self.reported = true;
    }
}

/// Turns successive samples into snapshots. Its tables are reused from sample to sample, so
/// once they have grown to the machine's process count, sampling allocates nothing.
#[derive(Debug)]
pub struct Model {
    current: ProcessTable,
    previous: ProcessTable,
    /// What was counted for processes that vanished recently, by key.
    departed: HashMap<ProcessKey, Departed>,
    /// The times of the previous sample and of the one before it.
    window_starts: [Option<u64>; 2],
    samples: u64,
    page_size: u64,
    snapshot: Snapshot,
}

impl Model {
    pub fn new(page_size: u64, online_cpus: u32) -> Self {
        Model {
            current: ProcessTable::default(),
            previous: ProcessTable::default(),
            departed: HashMap::new(),
            window_starts: [None; 2],
            samples: 0,
            page_size,
            snapshot: Snapshot {
                online_cpus,
                ..Default::default()
            },
        }
    }

    /// Takes one sample: the task records read at `time_ns` (CLOCK_MONOTONIC), the groups
    /// that exited since the previous sample, and the system figures. The ranked lists are
    /// filled by [`Model::rank`].
    pub fn update(
        &mut self,
        time_ns: u64,
        tasks: &[TaskRecord],
        exits: &[ExitRecord],
        memory: Option<Memory>,
        load: Option<LoadAverage>,
    ) {
        std::mem::swap(&mut self.current, &mut self.previous);
        self.current.clear();
        for rec in tasks {
            self.current.add(rec);
        }

        // Only a process that started after the previous sample may count its whole life.
        let window_start = self.window_starts[0].filter(|&t| t < time_ns);
        let started_in_window = |start_ns: u64| window_start.is_some_and(|t| start_ns >= t);

        let snap = &mut self.snapshot;
        snap.interval_ns = window_start.map_or(0, |t| time_ns - t);
        snap.cpu_busy_ns = 0;
        snap.read_bytes = 0;
        snap.write_bytes = 0;
        for p in self.current.iter_mut() {
            match self.previous.get(&p.key()) {
                Some(old) => {
                    // A counter that went backwards yields no rate rather than a huge one.
                    p.cpu_delta_ns = p.cpu_ns().saturating_sub(old.cpu_ns());
                    p.read_delta = p.read_bytes().saturating_sub(old.read_bytes());
                    p.write_delta = p.write_bytes().saturating_sub(old.write_bytes());
                    p.zombie_samples = if p.is_zombie() {
                        old.zombie_samples + 1
                    } else {
                        0
                    };
                }
                None => {
                    let new = started_in_window(p.start_ns);
                    p.cpu_delta_ns = if new { p.cpu_ns() } else { 0 };
                    p.read_delta = if new { p.read_bytes() } else { 0 };
                    p.write_delta = if new { p.write_bytes() } else { 0 };
                    p.zombie_samples = u32::from(p.is_zombie());
                }
            }
            // Saturating: counters come from the kernel, or from a file, never trusted.
            snap.cpu_busy_ns = snap.cpu_busy_ns.saturating_add(p.cpu_delta_ns);
            snap.read_bytes = snap.read_bytes.saturating_add(p.read_delta);
            snap.write_bytes = snap.write_bytes.saturating_add(p.write_delta);
        }

        // Processes that vanished: remember what was counted for them, so that their exit
        // reports (which may arrive a sample late) add only the rest.
        for p in self.previous.iter() {
            if !self.current.contains(&p.key()) {
                self.departed
                    .insert(p.key(), Departed::seen(p, self.samples));
            }
        }

        // Exit reports are cumulative totals of a dead group, sent when its last thread exits
        // and again, final, when it is freed. Each counts what it adds to what was counted.
        snap.exited_cpu_ns = 0;
        snap.exited_groups = 0;
        for exit in exits.iter() {
            let key = ProcessKey {
                tgid: exit.tgid,
                start_ns: exit.leader_start_ns,
            };
            if self.current.contains(&key) {
                continue; // still listed (a zombie): its task records count
            }
            let added = match self.departed.get_mut(&key) {
                Some(departed) => Some(departed.count(exit)),
                None => {
                    let mut departed = Departed::unseen(self.samples);
                    // Never listed: it lived entirely between two samples if it started after
                    // the one before the previous (reports can arrive a sample late).
                    let floor = self.window_starts[1].or(self.window_starts[0]);
                    let whole_life = floor.is_some_and(|t| exit.leader_start_ns >= t);
                    let added = if whole_life {
                        Some(departed.count(exit))
                    } else {
                        departed.take(exit);
                        None
                    };
                    self.departed.insert(key, departed);
                    added
                }
            };
            if let Some((cpu, read, write, first_report)) = added {
                snap.exited_cpu_ns = snap.exited_cpu_ns.saturating_add(cpu);
                snap.exited_groups += u32::from(first_report);
                snap.read_bytes = snap.read_bytes.saturating_add(read);
                snap.write_bytes = snap.write_bytes.saturating_add(write);
            }
        }
        let samples = self.samples;
        self.departed
            .retain(|_, d| samples - d.sample < DEPARTED_SAMPLES);
        snap.cpu_busy_ns = snap.cpu_busy_ns.saturating_add(snap.exited_cpu_ns);

        snap.memory = memory;
        snap.load = load;
        snap.tasks = self.current.tasks();
        snap.processes = self.current.len() as u32;
        self.window_starts = [Some(time_ns), self.window_starts[0]];
        self.samples += 1;
    }

    /// Fills the ranked lists from the latest sample; cheap enough to call again at once
    /// when the kernel-thread toggle changes.
    pub fn rank(&mut self, kernel_threads: bool) {
        let snap = &mut self.snapshot;
        snap.kernel_threads = kernel_threads;
        snap.top_cpu.clear();
        snap.top_memory.clear();
        snap.top_io.clear();
        snap.stuck = StuckList::default();
        snap.io_unknown = 0;
        for p in self.current.iter() {
            if p.kthread && !kernel_threads {
                continue;
            }
            snap.io_unknown += u32::from(p.io_unknown);
            if p.cpu_delta_ns > 0 {
                snap.top_cpu.offer(Row::new(p, p.cpu_delta_ns));
            }
            if p.rss_pages > 0 {
                snap.top_memory
                    .offer(Row::new(p, p.rss_pages.saturating_mul(self.page_size)));
            }
            if p.io_delta() > 0 {
                snap.top_io.offer(Row::new(p, p.io_delta()));
            }
            if p.is_blocked() {
                snap.stuck.offer(p, TaskState::DiskSleep);
            } else if p.zombie_samples >= 2 {
                // Zombies are shown once they outlive one sample: most are reaped at once.
                snap.stuck.offer(p, TaskState::Zombie);
            }
        }
    }

    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    pub fn snapshot_mut(&mut self) -> &mut Snapshot {
        &mut self.snapshot
    }

    /// Every process of the latest sample.
    pub fn processes(&self) -> &ProcessTable {
        &self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::process::tests::{comm, thread};
    use crate::model::record::TASK_KTHREAD;

    const MS: u64 = 1_000_000;

    fn model() -> Model {
        Model::new(4096, 2)
    }

    fn tgids<const N: usize>(list: &TopList<N>) -> Vec<u32> {
        list.rows().iter().map(|r| r.tgid).collect()
    }

    #[test]
    fn first_sample_has_no_rates() {
        let mut m = model();
        m.update(1000 * MS, &[thread(10, 10, 0, 5 * MS)], &[], None, None);
        m.rank(false);
        assert!(!m.snapshot().has_rates());
        assert_eq!(m.snapshot().cpu_percent(), None);
        assert!(m.snapshot().top_cpu.is_empty());
    }

    #[test]
    fn cpu_percent_per_core_and_for_the_system() {
        let mut m = model();
        m.update(
            1000 * MS,
            &[thread(10, 10, 0, 0), thread(20, 20, 0, 0)],
            &[],
            None,
            None,
        );
        // 500 ms later: 10 used 500 ms (one full core), 20 used 100 ms.
        m.update(
            1500 * MS,
            &[thread(10, 10, 0, 500 * MS), thread(20, 20, 0, 100 * MS)],
            &[],
            None,
            None,
        );
        m.rank(false);
        let s = m.snapshot();
        assert_eq!(s.interval_ns, 500 * MS);
        assert_eq!(tgids(&s.top_cpu), [10, 20]);
        assert!((s.core_percent(s.top_cpu.rows()[0].value) - 100.0).abs() < 1e-9);
        // 600 ms of 2 × 500 ms.
        assert!((s.cpu_percent().expect("rates") - 60.0).abs() < 1e-9);
    }

    #[test]
    fn fuzz_regression_counters_at_the_limits_never_overflow() {
        // Found by fuzz/fuzz_targets/records.rs: rss_pages * page_size overflowed; every
        // counter sum saturates now.
        let mut m = model();
        let mut huge = thread(10, 10, 0, u64::MAX);
        huge.rss_pages = u64::MAX / 3;
        huge.group_dead_cpu_ns = u64::MAX;
        huge.read_bytes = u64::MAX;
        huge.group_dead_read_bytes = u64::MAX;
        let mut sibling = huge;
        sibling.pid = 11;
        let exit = ExitRecord {
            tgid: 99,
            leader_start_ns: 2000 * MS,
            cpu_ns: u64::MAX,
            read_bytes: u64::MAX,
            write_bytes: u64::MAX,
            ..ExitRecord::default()
        };
        m.update(1000 * MS, &[huge, sibling], &[], None, None);
        m.update(2000 * MS, &[huge, sibling], &[exit], None, None);
        m.update(3000 * MS, &[huge, sibling], &[exit], None, None);
        m.rank(true);
        let s = m.snapshot();
        assert_eq!(s.top_memory.rows()[0].value, u64::MAX);
        assert!(s.cpu_percent().is_some_and(|p| p <= 100.0));
    }

    #[test]
    fn a_counter_going_backwards_gives_no_rate() {
        let mut m = model();
        m.update(1000 * MS, &[thread(10, 10, 0, 900 * MS)], &[], None, None);
        m.update(2000 * MS, &[thread(10, 10, 0, 100 * MS)], &[], None, None);
        m.rank(false);
        assert_eq!(m.snapshot().cpu_busy_ns, 0);
        assert!(m.snapshot().top_cpu.is_empty());
    }

    #[test]
    fn a_reused_pid_does_not_inherit_or_go_negative() {
        let mut m = model();
        m.update(1000 * MS, &[thread(10, 10, 0, 900 * MS)], &[], None, None);
        // Same PID, new process started inside the window, 20 ms of CPU so far.
        let mut reused = thread(10, 10, 0, 20 * MS);
        reused.leader_start_ns = 1500 * MS;
        m.update(2000 * MS, &[reused], &[], None, None);
        assert_eq!(m.snapshot().cpu_busy_ns, 20 * MS);
    }

    #[test]
    fn an_unknown_process_older_than_the_window_counts_nothing() {
        let mut m = model();
        m.update(1000 * MS, &[], &[], None, None);
        m.update(2000 * MS, &[thread(10, 10, 0, 900 * MS)], &[], None, None);
        assert_eq!(m.snapshot().cpu_busy_ns, 0);
    }

    fn exit(tgid: u32, start_ns: u64, cpu_ns: u64) -> ExitRecord {
        ExitRecord {
            tgid,
            leader_start_ns: start_ns,
            cpu_ns,
            write_bytes: 4096,
            ..Default::default()
        }
    }

    #[test]
    fn exited_groups_count_what_they_used_after_they_were_last_counted() {
        let mut m = model();
        m.update(
            1000 * MS,
            &[thread(10, 10, 0, 300 * MS), thread(20, 20, 6, 40 * MS)],
            &[],
            None,
            None,
        );
        let exits = [
            exit(10, 10_000, 350 * MS),   // listed before: 50 ms after that sample
            exit(10, 10_000, 360 * MS),   // its final report: 10 ms more
            exit(30, 1200 * MS, 70 * MS), // born and died in the window: all of it
            exit(40, 500 * MS, 99 * MS),  // never listed, older than the window: unknown
            exit(20, 20_000, 40 * MS),    // still listed (a zombie): counted from its tasks
        ];
        m.update(2000 * MS, &[thread(20, 20, 6, 40 * MS)], &exits, None, None);
        let s = *m.snapshot();
        assert_eq!(s.exited_cpu_ns, 130 * MS);
        assert_eq!(s.exited_groups, 2);
        assert_eq!(s.cpu_busy_ns, 130 * MS);
        assert_eq!(s.write_bytes, 8192);

        // Reports a sample late: the final one of 30 adds its tail; 50 lived and died
        // between the first two samples; 40's final report adds what followed its first.
        let late = [
            exit(30, 1200 * MS, 75 * MS),
            exit(50, 1500 * MS, 8 * MS),
            exit(40, 500 * MS, 100 * MS),
        ];
        m.update(3000 * MS, &[], &late, None, None);
        let s = m.snapshot();
        assert_eq!(s.exited_cpu_ns, 14 * MS);
        assert_eq!(s.exited_groups, 1);
        // The zombie was reaped: its final report adds nothing.
        m.update(4000 * MS, &[], &[exit(20, 20_000, 40 * MS)], None, None);
        assert_eq!(m.snapshot().exited_cpu_ns, 0);
    }

    fn stuck_rows(m: &Model) -> Vec<(char, u32)> {
        m.snapshot()
            .stuck
            .rows()
            .map(|(s, r)| (s.letter(), r.tgid))
            .collect()
    }

    #[test]
    fn zombies_show_after_two_samples_and_blocked_tasks_at_once() {
        let mut m = model();
        let zombie = thread(30, 30, 6, 0);
        let blocked = thread(40, 41, 2, 0);
        m.update(
            1000 * MS,
            &[zombie, blocked, thread(40, 40, 1, 0)],
            &[],
            None,
            None,
        );
        m.rank(false);
        assert_eq!(stuck_rows(&m), [('D', 40)]);

        m.update(2000 * MS, &[zombie, blocked], &[], None, None);
        m.rank(false);
        assert_eq!(stuck_rows(&m), [('D', 40), ('Z', 30)]);
    }

    #[test]
    fn at_most_ten_stuck_rows() {
        let mut m = model();
        let tasks: Vec<_> = (100..120).map(|tgid| thread(tgid, tgid, 2, 0)).collect();
        m.update(1000 * MS, &tasks, &[], None, None);
        m.rank(false);
        let rows: Vec<_> = m.snapshot().stuck.rows().map(|(_, r)| r.tgid).collect();
        assert_eq!(rows, (100..110).collect::<Vec<_>>());
    }

    #[test]
    fn kernel_threads_are_listed_only_when_included() {
        let mut m = model();
        let mut kworker = thread(2, 2, 2, 0);
        kworker.flags = TASK_KTHREAD;
        kworker.comm = comm("kworker/0:1");
        let user = thread(10, 10, 0, 0);
        m.update(1000 * MS, &[kworker, user], &[], None, None);
        kworker.cpu_ns = 50 * MS;
        let mut user2 = user;
        user2.cpu_ns = 10 * MS;
        user2.rss_pages = 10;
        m.update(2000 * MS, &[kworker, user2], &[], None, None);

        m.rank(false);
        assert_eq!(tgids(&m.snapshot().top_cpu), [10]);
        assert!(m.snapshot().stuck.is_empty());
        // The system total always counts kernel threads.
        assert_eq!(m.snapshot().cpu_busy_ns, 60 * MS);

        m.rank(true);
        assert_eq!(tgids(&m.snapshot().top_cpu), [2, 10]);
        assert_eq!(m.snapshot().stuck.len(), 1);
        assert_eq!(tgids(&m.snapshot().top_memory), [10]);
        assert_eq!(m.snapshot().top_memory.rows()[0].value, 40960);
    }

    #[test]
    fn io_rates_rank_by_read_plus_write() {
        let mut m = model();
        let mut a = thread(10, 10, 1, 0);
        let mut b = thread(20, 20, 1, 0);
        m.update(1000 * MS, &[a, b], &[], None, None);
        a.read_bytes = 3000;
        b.write_bytes = 2000;
        b.read_bytes = 2000;
        m.update(3000 * MS, &[a, b], &[], None, None);
        m.rank(false);
        let s = m.snapshot();
        assert_eq!(tgids(&s.top_io), [20, 10]);
        assert_eq!(
            (s.top_io.rows()[0].read, s.top_io.rows()[0].write),
            (2000, 2000)
        );
        assert!((s.per_second(s.read_bytes) - 2500.0).abs() < 1e-9);
    }
}
