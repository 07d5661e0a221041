//! The ranked lists by app: each listed process's figures summed into its app (see
//! [`crate::model::app`]); a process outside any app stays a row of its own.

use rustc_hash::FxHashMap as HashMap;

use super::TOP_ROWS;
use crate::model::app::App;
use crate::model::process::Process;
use crate::model::top::{Row, TopList};

/// The top apps by CPU, memory (the sum of their processes' RSS), IO and network.
#[derive(Clone, Copy, Debug, Default)]
pub struct AppLists {
    pub cpu: TopList<TOP_ROWS>,
    pub memory: TopList<TOP_ROWS>,
    pub io: TopList<TOP_ROWS>,
    /// `read`: bytes received, `write`: sent.
    pub net: TopList<TOP_ROWS>,
}

#[derive(Clone, Copy, Debug)]
struct Sum {
    row: Row,
    rss: u64,
    /// Network bytes (received, sent).
    net: (u64, u64),
}

/// The sums of one sample, reused from sample to sample (cleared, never shrunk).
#[derive(Debug, Default)]
pub(super) struct AppTable {
    /// By app id.
    sums: HashMap<u64, Sum>,
    /// The processes in no app, each a row of its own, ranked as they come.
    lone: AppLists,
    /// An app was among the processes added so far. Until then the lone lists would be
    /// the process lists, so they are left empty and copied from those when needed: a
    /// session without apps ranks each process once, not twice.
    apps_seen: bool,
}

impl AppTable {
    /// Empties the table, keeping room for half again as many apps as `processes`: a few
    /// more processes, each in an app of its own, need no new memory.
    pub fn clear(&mut self, processes: usize) {
        self.sums.clear();
        self.sums.reserve(processes + processes / 2);
        self.lone = AppLists::default();
        self.apps_seen = false;
    }

    /// Adds a listed process: its CPU and memory, and the IO bytes (read, written) and
    /// network bytes (received, sent) the reader may see of it. `processes`: the process lists as
    /// they are before this process is offered to them, which hold every process added so
    /// far, each ranked as a lone row would be (see [`crate::model::Model::rank`]).
    pub fn add(
        &mut self,
        app: Option<App>,
        p: &Process,
        rss_bytes: u64,
        (read, write): (u64, u64),
        net: (u64, u64),
        processes: impl FnOnce() -> AppLists,
    ) {
        if !self.apps_seen {
            if app.is_none() {
                return;
            }
            self.lone = processes();
            self.apps_seen = true;
        }
        let Some(app) = app else {
            let lone = &self.lone;
            let io = read.saturating_add(write);
            let net_total = net.0.saturating_add(net.1);
            let wanted = (p.cpu_delta_ns > 0 && lone.cpu.takes(p.cpu_delta_ns, p.tgid))
                || (rss_bytes > 0 && lone.memory.takes(rss_bytes, p.tgid))
                || (io > 0 && lone.io.takes(io, p.tgid))
                || (net_total > 0 && lone.net.takes(net_total, p.tgid));
            if wanted {
                let row = Row {
                    read,
                    write,
                    ..Row::new(p, p.cpu_delta_ns)
                };
                offer(&mut self.lone, row, rss_bytes, net);
            }
            return;
        };
        let sum = self.sums.entry(app.id).or_insert_with(|| Sum {
            row: Row {
                label: app.label,
                app: true,
                count: 0,
                value: 0,
                read: 0,
                write: 0,
                ..Row::new(p, 0)
            },
            rss: 0,
            net: (0, 0),
        });
        let row = &mut sum.row;
        if p.tgid < row.tgid {
            // The lowest PID stands for the app: it orders ties, and names a label-less row.
            row.tgid = p.tgid;
            row.comm = p.comm;
        }
        row.count += 1;
        row.value = row.value.saturating_add(p.cpu_delta_ns);
        row.read = row.read.saturating_add(read);
        row.write = row.write.saturating_add(write);
        sum.rss = sum.rss.saturating_add(rss_bytes);
        sum.net = (
            sum.net.0.saturating_add(net.0),
            sum.net.1.saturating_add(net.1),
        );
    }

    /// The lists by app; `processes`: the process lists, which are the lone rows' when
    /// no app was added.
    pub fn rank(&self, lists: &mut AppLists, processes: AppLists) {
        *lists = if self.apps_seen { self.lone } else { processes };
        for sum in self.sums.values() {
            offer(lists, sum.row, sum.rss, sum.net);
        }
    }
}

/// Offers a row (its CPU time in `value`, its IO in `read` and `write`) to the lists,
/// with its memory and its network bytes (received, sent).
fn offer(lists: &mut AppLists, row: Row, rss: u64, (received, sent): (u64, u64)) {
    if row.value > 0 {
        lists.cpu.offer(row);
    }
    if rss > 0 {
        lists.memory.offer(Row { value: rss, ..row });
    }
    let io = row.read.saturating_add(row.write);
    if io > 0 {
        lists.io.offer(Row { value: io, ..row });
    }
    let net = received.saturating_add(sent);
    if net > 0 {
        lists.net.offer(Row {
            value: net,
            read: received,
            write: sent,
            ..row
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::model::app::{App, AppNames, GroupBy, Label};
    use crate::model::process::tests::{comm, thread};
    use crate::model::record::{TaskRecord, TASK_PRIVATE};
    use crate::model::Model;

    const MS: u64 = 1_000_000;

    /// Cgroup 7 is the app "web"; the rest are no app.
    #[derive(Debug, Default)]
    struct Fixed;

    impl AppNames for Fixed {
        fn app(&mut self, cgroup_id: u64) -> Option<App> {
            (cgroup_id == 7).then(|| App {
                id: 7,
                label: Label::new(b"web"),
            })
        }
        fn next_sample(&mut self) {}
        fn has_apps(&self) -> bool {
            true
        }
    }

    fn task(tgid: u32, cgroup_id: u64, cpu_ms: u64, flags: u32) -> TaskRecord {
        TaskRecord {
            cgroup_id,
            flags,
            rss_pages: 10,
            write_bytes: cpu_ms * 100,
            comm: comm(if cgroup_id == 7 {
                "Isolated Web Co"
            } else {
                "lone"
            }),
            ..thread(tgid, tgid, 0, cpu_ms * MS)
        }
    }

    #[test]
    fn an_app_sums_its_processes_and_the_rest_keep_their_rows() {
        let mut m = Model::new(4096, 2);
        m.set_app_names(Box::new(Fixed));
        let zero = [
            task(10, 7, 0, 0),
            task(11, 7, 0, 0),
            task(12, 7, 0, TASK_PRIVATE),
            task(20, 3, 0, 0),
        ];
        m.update(1000 * MS, &zero, &[], None, None);
        let later = [
            task(10, 7, 100, 0),
            task(11, 7, 50, 0),
            task(12, 7, 20, TASK_PRIVATE),
            task(20, 3, 120, 0),
        ];
        m.update(1500 * MS, &later, &[], None, None);
        m.rank(false);
        let s = m.snapshot();
        assert_eq!(s.group_by, GroupBy::App, "the session has apps");
        let names = |rows: &[crate::model::top::Row]| {
            rows.iter()
                .map(|r| {
                    (
                        String::from_utf8_lossy(r.name()).into_owned(),
                        r.app,
                        r.count,
                        r.value,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(s.apps.cpu.rows()),
            [
                ("web".into(), true, 3, 170 * MS),
                ("lone".into(), false, 1, 120 * MS)
            ]
        );
        assert_eq!(
            names(s.apps.memory.rows())[0],
            ("web".into(), true, 3, 3 * 10 * 4096)
        );
        // The private process's IO is in no row, its app's included.
        assert_eq!(names(s.apps.io.rows())[0], ("web".into(), true, 3, 15_000));
        // The process lists stay per process, and the shown ones follow group_by.
        assert_eq!(s.top_cpu.len(), 4);
        assert_eq!(s.shown_cpu().len(), 2);
        m.set_group_by(Some(GroupBy::Process));
        m.rank(false);
        assert_eq!(m.snapshot().shown_cpu().len(), 4);
    }

    /// The lists by app of a sample where the lone processes `lone` (one with the most CPU
    /// and IO, and a private one with the most memory) come before or after cgroup 7's.
    fn lists_with_lone_ones(app_first: bool) -> super::AppLists {
        let mut m = Model::new(4096, 2);
        m.set_app_names(Box::new(Fixed));
        let sample = |cpu_ms: u64| {
            let mut private = task(21, 3, cpu_ms / 4, TASK_PRIVATE);
            private.rss_pages = 1000;
            let lone = [task(20, 3, cpu_ms, 0), private, task(22, 3, cpu_ms / 2, 0)];
            let app = [task(10, 7, cpu_ms / 8, 0), task(11, 7, cpu_ms / 8, 0)];
            if app_first {
                [&app[..], &lone[..]].concat()
            } else {
                [&lone[..], &app[..]].concat()
            }
        };
        m.update(1000 * MS, &sample(0), &[], None, None);
        m.update(1500 * MS, &sample(400), &[], None, None);
        m.rank(false);
        m.snapshot().apps
    }

    #[test]
    fn lone_processes_before_the_first_app_rank_as_those_after_it() {
        let rows = |list: &crate::model::top::TopList<{ super::TOP_ROWS }>| {
            list.rows()
                .iter()
                .map(|r| (r.tgid, r.app, r.value, r.read, r.write))
                .collect::<Vec<_>>()
        };
        let (before, after) = (lists_with_lone_ones(false), lists_with_lone_ones(true));
        for (name, b, a) in [
            ("cpu", &before.cpu, &after.cpu),
            ("memory", &before.memory, &after.memory),
            ("io", &before.io, &after.io),
        ] {
            assert_eq!(rows(b), rows(a), "{name}");
        }
        let cpu = rows(&before.cpu);
        assert_eq!(
            cpu.iter().map(|r| (r.0, r.1, r.2)).collect::<Vec<_>>(),
            [
                (20, false, 400 * MS),
                (22, false, 200 * MS),
                (10, true, 100 * MS), // a tie goes to the lower PID
                (21, false, 100 * MS),
            ]
        );
        // The private process leads the memory list with no IO bytes in its row.
        assert_eq!(rows(&before.memory)[0], (21, false, 1000 * 4096, 0, 0));
        assert_eq!(rows(&before.io)[0], (20, false, 40_000, 0, 40_000));
    }

    #[test]
    fn without_apps_the_lists_by_app_are_the_process_lists_and_keep_private_io_out() {
        let mut m = Model::new(4096, 2);
        let sample = |cpu_ms: u64| {
            [
                task(30, 3, cpu_ms, TASK_PRIVATE),
                task(31, 4, cpu_ms / 2, 0),
            ]
        };
        m.update(1000 * MS, &sample(0), &[], None, None);
        m.update(1500 * MS, &sample(100), &[], None, None);
        m.rank(false);
        let s = m.snapshot();
        assert_eq!(s.group_by, GroupBy::Process);
        assert_eq!(s.apps.cpu.rows(), s.top_cpu.rows());
        assert_eq!(s.apps.memory.rows(), s.top_memory.rows());
        assert_eq!(s.apps.io.rows(), s.top_io.rows());
        let private = s.top_cpu.rows()[0];
        assert_eq!((private.tgid, private.read, private.write), (30, 0, 0));
        assert_eq!(
            s.top_io.rows().iter().map(|r| r.tgid).collect::<Vec<_>>(),
            [31]
        );
    }
}
