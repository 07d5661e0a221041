//! [`Model`]: successive samples turned into snapshots (deltas against the previous sample,
//! exited groups, system totals) and the ranked lists filled.

use rustc_hash::FxHashMap as HashMap;

use super::apps::AppTable;
use super::departed::Departed;
use super::{OthersIo, Snapshot, StuckList, SystemCpu};
use crate::model::app::{AppNames, GroupBy};
use crate::model::net::NetBytes;
use crate::model::process::{ProcessKey, ProcessTable};
use crate::model::record::{ExitRecord, TaskRecord};
use crate::model::system::{LoadAverage, Memory};
use crate::model::top::Row;
use crate::model::visibility::Privacy;

mod exits;
mod read_times;

/// Turns successive samples into snapshots. Its tables are reused from sample to sample, so
/// once they have grown to the machine's process count, sampling allocates nothing.
#[derive(Debug)]
pub struct Model {
    current: ProcessTable,
    previous: ProcessTable,
    /// Which of `previous` are in `current` too, by position.
    still_here: Vec<bool>,
    /// What was counted for processes that vanished recently, by key.
    departed: HashMap<ProcessKey, Departed>,
    /// The times of the previous sample and of the one before it.
    window_starts: [Option<u64>; 2],
    samples: u64,
    page_size: u64,
    /// The previous /proc/stat reading, for [`Model::use_system_cpu`].
    last_system_cpu: Option<SystemCpu>,
    privacy: Privacy,
    snapshot: Snapshot,
    /// Cgroup ids to apps; without it every process is its own row.
    app_names: Option<Box<dyn AppNames + Send>>,
    apps: AppTable,
    /// `group_by` as configured; `None`: by app when the session has app scopes.
    group_by: Option<GroupBy>,
    /// `[network] include_loopback`: the machine's own traffic in the network list.
    net_include_local: bool,
}

/// Processes that ended recently, remembered without the table growing.
const DEPARTED_ROOM: usize = 512;

impl Model {
    pub fn new(page_size: u64, online_cpus: u32) -> Self {
        Model {
            current: ProcessTable::default(),
            previous: ProcessTable::default(),
            still_here: Vec::new(),
            // Room taken at start: the first process that ends, however late, allocates
            // nothing, and while fewer than half of it are remembered a full table is
            // tidied in place.
            departed: HashMap::with_capacity_and_hasher(DEPARTED_ROOM, Default::default()),
            window_starts: [None; 2],
            samples: 0,
            page_size,
            last_system_cpu: None,
            privacy: Privacy::default(),
            app_names: None,
            apps: AppTable::default(),
            group_by: None,
            net_include_local: false,
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
        self.update_read_at(time_ns, tasks, &[], exits, memory, load);
    }

    /// [`Model::update`], for records read one after another over a time that counts (the
    /// /proc walk): `read_ns` says when each of `tasks` was read, and a process's rates
    /// are over its own interval, from one read of it to the next, rather than over the
    /// time between two walks' starts. Empty: all were read at `time_ns`.
    pub fn update_read_at(
        &mut self,
        time_ns: u64,
        tasks: &[TaskRecord],
        read_ns: &[u64],
        exits: &[ExitRecord],
        memory: Option<Memory>,
        load: Option<LoadAverage>,
    ) {
        std::mem::swap(&mut self.current, &mut self.previous);
        self.current.clear();
        for rec in tasks {
            self.current.add(rec);
        }
        if !read_ns.is_empty() {
            self.current.note_read_times(tasks, read_ns);
        }
        // Grown now, in the sample with more processes than ever, not in a later one.
        let room = self.current.room();
        self.current.reserve_room(room);
        self.previous.reserve_room(room);

        let previous_ns = self.window_starts[0].unwrap_or(0);
        // Only a process that started after the previous sample may count its whole life.
        let window_start = self.window_starts[0].filter(|&t| t < time_ns);
        let started_in_window = |start_ns: u64| window_start.is_some_and(|t| start_ns >= t);

        let snap = &mut self.snapshot;
        snap.interval_ns = window_start.map_or(0, |t| time_ns - t);
        snap.cpu_busy_ns = 0;
        snap.read_bytes = 0;
        snap.write_bytes = 0;
        snap.net = NetBytes::default();
        self.still_here.clear();
        // Room for this sample's processes too, which the next one compares against: the
        // list grows in the sample whose processes outnumber all before it, not after.
        self.still_here
            .reserve(self.previous.len().max(self.current.len()));
        self.still_here.resize(self.previous.len(), false);
        let (mut still_here, mut cursor) = (0, 0);
        let (processes, nets, _) = self.current.parts_mut();
        for p in processes {
            let net_slot = p.net_slot();
            match self.previous.position_after(&p.key(), &mut cursor) {
                Some(at) => {
                    let old = self.previous.at(at);
                    self.still_here[at] = true;
                    still_here += 1;
                    // A counter that went backwards yields no rate rather than a huge one.
                    p.cpu_delta_ns = p.cpu_ns().saturating_sub(old.cpu_ns());
                    p.read_delta = p.read_bytes().saturating_sub(old.read_bytes());
                    p.write_delta = p.write_bytes().saturating_sub(old.write_bytes());
                    if net_slot != 0 {
                        let net = &mut nets[net_slot];
                        net.delta = net.total.since(self.previous.net(old).total);
                    }
                    p.zombie_samples = if p.is_zombie() {
                        old.zombie_samples + 1
                    } else {
                        0
                    };
                    if p.is_blocked() && old.is_blocked() {
                        p.blocked_samples = old.blocked_samples + 1;
                        p.blocked_since_ns = old.blocked_since_ns;
                        p.blocked_after_ns = old.blocked_after_ns;
                    } else if p.is_blocked() {
                        p.blocked_samples = 1;
                        p.blocked_since_ns = time_ns;
                        p.blocked_after_ns = previous_ns;
                    }
                }
                None => {
                    let new = started_in_window(p.start_ns);
                    p.cpu_delta_ns = if new { p.cpu_ns() } else { 0 };
                    p.read_delta = if new { p.read_bytes() } else { 0 };
                    p.write_delta = if new { p.write_bytes() } else { 0 };
                    if net_slot != 0 {
                        let net = &mut nets[net_slot];
                        net.delta = if new { net.total } else { NetBytes::default() };
                    }
                    p.zombie_samples = u32::from(p.is_zombie());
                    if p.is_blocked() {
                        p.blocked_samples = 1;
                        p.blocked_since_ns = time_ns;
                    }
                }
            }
            // Saturating: counters come from the kernel, or from a file, never trusted.
            snap.cpu_busy_ns = snap.cpu_busy_ns.saturating_add(p.cpu_delta_ns);
            snap.read_bytes = snap.read_bytes.saturating_add(p.read_delta);
            snap.write_bytes = snap.write_bytes.saturating_add(p.write_delta);
            if net_slot != 0 {
                snap.net.add(nets[net_slot].delta);
            }
        }

        self.rescale_to_own_intervals();
        if still_here < self.previous.len() {
            self.remember_vanished();
        }
        self.count_exits(exits);
        let snap = &mut self.snapshot;
        snap.cpu_busy_ns = snap.cpu_busy_ns.saturating_add(snap.exited_cpu_ns);

        snap.memory = memory;
        snap.load = load;
        snap.tasks = self.current.tasks();
        snap.processes = self.current.len() as u32;
        self.window_starts = [Some(time_ns), self.window_starts[0]];
        self.samples += 1;
        if let Some(names) = &mut self.app_names {
            names.next_sample();
        }
    }

    /// The room of the two process tables (processes, network counts, read times), the one
    /// filled last first.
    #[cfg(test)]
    pub(super) fn table_rooms(&self) -> ((usize, usize, usize), (usize, usize, usize)) {
        (self.current.room(), self.previous.room())
    }

    /// How many departed processes are remembered, and the room their table has.
    #[cfg(test)]
    pub(super) fn departed_room(&self) -> (usize, usize) {
        (self.departed.len(), self.departed.capacity())
    }

    /// Fills the ranked lists from the latest sample; cheap enough to call again at once
    /// when the kernel-thread toggle changes.
    pub fn rank(&mut self, kernel_threads: bool) {
        let snap = &mut self.snapshot;
        snap.kernel_threads = kernel_threads;
        snap.top_cpu.clear();
        snap.top_memory.clear();
        snap.top_io.clear();
        snap.top_net.clear();
        snap.stuck = StuckList::default();
        snap.io_unknown = 0;
        snap.others_io = OthersIo::default();
        snap.others_net = OthersIo::default();
        snap.net_include_local = self.net_include_local;
        let include_local = self.net_include_local;
        self.apps.clear(self.current.len());
        let mut names = self.app_names.as_deref_mut();
        snap.group_by = self.group_by.unwrap_or(match &names {
            Some(names) if names.has_apps() => GroupBy::App,
            _ => GroupBy::Process,
        });
        let privacy = self.privacy;
        let now_ns = self.window_starts[0].unwrap_or(0);
        let mut last = (0, None);
        for p in self.current.iter() {
            if p.kthread && !kernel_threads {
                continue;
            }
            let private = p.private && !privacy.sees_all;
            let (received, sent) = self.current.net(p).delta.shown(include_local);
            let net = received.saturating_add(sent);
            if private {
                if p.io_delta() > 0 {
                    let others = &mut snap.others_io;
                    others.processes += 1;
                    others.read = others.read.saturating_add(p.read_delta);
                    others.write = others.write.saturating_add(p.write_delta);
                }
                // /proc shows no process's network bytes: another user's are only summed.
                if net > 0 {
                    let others = &mut snap.others_net;
                    others.processes += 1;
                    others.read = others.read.saturating_add(received);
                    others.write = others.write.saturating_add(sent);
                }
                if privacy.hide_private {
                    continue; // /proc hides it from this reader altogether
                }
            }
            snap.io_unknown += u32::from(p.io_unknown);
            // Processes of one cgroup often come one after the other: look it up once.
            // Kernel threads keep their comm (and belong to no app).
            let app = match (&mut names, p.cgroup_id) {
                _ if p.kthread => None,
                (_, id) if id == last.0 => last.1,
                (Some(names), id) if id != 0 => names.app(id),
                _ => None,
            };
            if !p.kthread {
                last = (p.cgroup_id, app);
            }
            let rss_bytes = p.rss_pages.saturating_mul(self.page_size);
            // What the reader may see of its IO and network bytes: none of a private one's.
            let (shown_io, shown_net) = if private {
                ((0, 0), (0, 0))
            } else {
                ((p.read_delta, p.write_delta), (received, sent))
            };
            self.apps.add(app, p, rss_bytes, shown_io, shown_net, || {
                snap.process_lists()
            });
            let row = |value| Row {
                read: shown_io.0,
                write: shown_io.1,
                ..Row::new(p, value)
            };
            if p.cpu_delta_ns > 0 && snap.top_cpu.takes(p.cpu_delta_ns, p.tgid) {
                snap.top_cpu.offer(row(p.cpu_delta_ns));
            }
            if rss_bytes > 0 && snap.top_memory.takes(rss_bytes, p.tgid) {
                snap.top_memory.offer(row(rss_bytes));
            }
            if p.io_delta() > 0 && !private && snap.top_io.takes(p.io_delta(), p.tgid) {
                snap.top_io.offer(Row::new(p, p.io_delta()));
            }
            if net > 0 && !private && snap.top_net.takes(net, p.tgid) {
                snap.top_net.offer(Row::net(p, received, sent));
            }
            if p.is_blocked() {
                // Passing D states (a disk write) are not shown: see Process::is_stuck.
                if p.is_stuck(snap.interval_ns) {
                    snap.stuck.offer_blocked(p, p.blocked_for_ns(now_ns));
                }
            } else if p.zombie_samples >= 2 {
                // Zombies are shown once they outlive one sample: most are reaped at once.
                snap.stuck.offer_zombie(p);
            }
        }
        let processes = snap.process_lists();
        self.apps.rank(&mut snap.apps, processes);
    }

    /// Where app names come from (see [`AppNames`]); applies from the next [`Model::rank`].
    pub fn set_app_names(&mut self, names: Box<dyn AppNames + Send>) {
        self.app_names = Some(names);
    }

    /// Whether the network list counts the machine's own traffic (loopback, its own
    /// address); applies from the next [`Model::rank`].
    pub fn set_net_include_local(&mut self, include: bool) {
        self.net_include_local = include;
    }

    /// `group_by` as configured (`None`: by app when the session has apps).
    pub fn set_group_by(&mut self, group_by: Option<GroupBy>) {
        self.group_by = group_by;
    }

    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The process with this thread group id in the latest sample.
    pub fn process(&self, tgid: u32) -> Option<&crate::model::Process> {
        self.current.by_tgid(tgid)
    }

    /// What the reader may see; applies from the next [`Model::rank`].
    pub fn set_privacy(&mut self, privacy: Privacy) {
        self.privacy = privacy;
    }

    /// For the /proc walk, after [`Model::update`]: a walk misses processes that lived and
    /// died between two walks, so the busy share comes from /proc/stat's counters instead
    /// of the sum over processes, and the task count from the walk's thread count.
    pub fn use_system_cpu(&mut self, cpu: Option<SystemCpu>, threads: u32) {
        let snap = &mut self.snapshot;
        snap.tasks = threads;
        if let (Some(then), Some(now)) = (self.last_system_cpu, cpu) {
            let total = now.total.saturating_sub(then.total);
            if total > 0 && snap.interval_ns > 0 {
                let share = now.busy.saturating_sub(then.busy) as f64 / total as f64;
                let capacity = snap.interval_ns as f64 * f64::from(snap.online_cpus);
                snap.cpu_busy_ns = (share.min(1.0) * capacity) as u64;
            }
        }
        self.last_system_cpu = cpu;
    }

    /// Every process of the latest sample.
    pub fn processes(&self) -> &ProcessTable {
        &self.current
    }
}
