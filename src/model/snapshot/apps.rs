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
}

impl AppTable {
    /// Empties the table, keeping room for half again as many apps as `processes`: a few
    /// more processes, each in an app of its own, need no new memory.
    pub fn clear(&mut self, processes: usize) {
        self.sums.clear();
        self.sums.reserve(processes + processes / 2);
        self.lone = AppLists::default();
    }

    /// Adds a listed process: its CPU and memory, and its IO and network bytes (received,
    /// sent, as shown) where the reader may see them.
    pub fn add(
        &mut self,
        app: Option<App>,
        p: &Process,
        rss_bytes: u64,
        io_visible: bool,
        shown_net: (u64, u64),
    ) {
        let ((read, write), net) = if io_visible {
            ((p.read_delta, p.write_delta), shown_net)
        } else {
            ((0, 0), (0, 0))
        };
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

    pub fn rank(&self, lists: &mut AppLists) {
        *lists = self.lone;
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
}
