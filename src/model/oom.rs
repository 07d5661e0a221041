//! OOM kills: the processes the kernel's OOM killer chose, the latest [`KEPT`] of them,
//! for the bar's notice and the tooltip's list.
//!
//! Privacy: while it lived, /proc showed every user the victim's pid, name and resident
//! memory (`/proc/PID/stat`, `statm`), unless /proc is mounted with `hidepid`. So a kill
//! keeps them, except where the reader's /proc hides the victim (another user's, or not
//! dumpable: [`Privacy::hide_private`]): then the reader learns only that a process was
//! killed, and whether by a cgroup's limit, as the kernel log's summary line says to
//! anyone allowed to read it.

use super::process::Process;
use super::record::{OomRecord, COMM_LEN, OOM_MEMCG, OOM_PID_ONLY, TASK_PRIVATE};
use super::visibility::Privacy;

/// Kills remembered, newest first; older ones drop out.
pub const KEPT: usize = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OomKill {
    /// 0 when hidden.
    pub pid: u32,
    /// All NUL when hidden.
    pub comm: [u8; COMM_LEN],
    /// The victim's resident memory when it was chosen: what the kill frees. 0 when hidden.
    pub rss_bytes: u64,
    /// A cgroup's memory limit was hit (memcg OOM), not the machine's memory.
    pub memcg: bool,
    /// The cgroup's limit, for a memcg OOM; 0 when hidden or unknown.
    pub limit_bytes: u64,
    /// Wall-clock time of the kill, ms since the Unix epoch.
    pub unix_ms: u64,
    /// /proc hides the victim from this reader: no pid, name or size.
    pub hidden: bool,
}

/// The reader's ids, against which a victim is private or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reader {
    pub uid: u32,
    pub gid: u32,
    pub privacy: Privacy,
}

/// The two clocks at one instant, to date a kill the probe stamped with CLOCK_MONOTONIC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    pub monotonic_ns: u64,
    pub unix_ms: u64,
}

/// Completes a record of a kernel that named the victim by its pid alone (6.1)
/// from the latest sample's `process` of that pid: its name, its resident memory then (up
/// to one interval before the kill), and whether it is private to the reader, judged
/// against the reader's ids like the sample was. A process the samples never saw stays
/// nameless and private.
pub fn complete_pid_only(rec: &mut OomRecord, process: Option<&Process>, reader: Reader) {
    if rec.flags & OOM_PID_ONLY == 0 {
        return;
    }
    (rec.uid, rec.gid) = (reader.uid, reader.gid);
    match process {
        Some(p) => {
            rec.comm = p.comm;
            rec.rss_pages = p.rss_pages;
            if p.private {
                rec.flags |= TASK_PRIVATE;
            }
        }
        None => rec.flags |= TASK_PRIVATE,
    }
}

impl OomKill {
    pub fn from_record(rec: &OomRecord, page_size: u64, reader: Reader, now: Clocks) -> OomKill {
        let ago_ms = now.monotonic_ns.saturating_sub(rec.time_ns) / 1_000_000;
        let private =
            rec.flags & TASK_PRIVATE != 0 || rec.uid != reader.uid || rec.gid != reader.gid;
        let hidden = private && reader.privacy.hide_private && !reader.privacy.sees_all;
        let memcg = rec.flags & OOM_MEMCG != 0;
        if hidden {
            return OomKill {
                memcg,
                unix_ms: now.unix_ms.saturating_sub(ago_ms),
                hidden,
                ..OomKill::default()
            };
        }
        OomKill {
            pid: rec.tgid,
            comm: rec.comm,
            rss_bytes: rec.rss_pages.saturating_mul(page_size),
            memcg,
            // The kernel's "no limit" (PAGE_COUNTER_MAX) is i64::MAX bytes in pages.
            limit_bytes: if memcg && rec.limit_pages < i64::MAX as u64 / page_size.max(1) {
                rec.limit_pages * page_size
            } else {
                0
            },
            unix_ms: now.unix_ms.saturating_sub(ago_ms),
            hidden,
        }
    }
}

/// The latest kills in a fixed ring: adding one never allocates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OomKills {
    ring: [OomKill; KEPT],
    /// Where the next kill goes.
    next: usize,
    /// Kills seen since the start, also those that dropped out.
    total: u64,
}

impl OomKills {
    pub fn push(&mut self, kill: OomKill) {
        self.ring[self.next] = kill;
        self.next = (self.next + 1) % KEPT;
        self.total += 1;
    }

    /// All kills seen since ringbar started.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The kills kept, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &OomKill> {
        let kept = usize::try_from(self.total).map_or(KEPT, |t| t.min(KEPT));
        (1..=kept).map(move |back| &self.ring[(self.next + KEPT - back) % KEPT])
    }

    pub fn latest(&self) -> Option<&OomKill> {
        self.newest_first().next()
    }

    /// The latest kill if it happened at most `within_ms` before `unix_ms`.
    pub fn recent(&self, unix_ms: u64, within_ms: u64) -> Option<&OomKill> {
        self.latest()
            .filter(|kill| unix_ms.saturating_sub(kill.unix_ms) <= within_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::record::RECORD_OOM;

    const NOW: Clocks = Clocks {
        monotonic_ns: 100_000_000_000,
        unix_ms: 1_800_000_000_000,
    };

    fn record(uid: u32, flags: u32) -> OomRecord {
        OomRecord {
            tgid: 4242,
            flags: RECORD_OOM | flags,
            rss_pages: 1000,
            time_ns: NOW.monotonic_ns - 1_500_000_000,
            limit_pages: 2048,
            comm: *b"chrome\0\0\0\0\0\0\0\0\0\0",
            uid,
            gid: uid,
            ..OomRecord::default()
        }
    }

    fn reader(hide_private: bool) -> Reader {
        Reader {
            uid: 1000,
            gid: 1000,
            privacy: Privacy {
                sees_all: false,
                hide_private,
            },
        }
    }

    #[test]
    fn a_kill_carries_pid_name_size_kind_and_time() {
        let kill = OomKill::from_record(&record(1000, OOM_MEMCG), 4096, reader(true), NOW);
        assert_eq!(
            (kill.pid, kill.rss_bytes, kill.memcg),
            (4242, 4_096_000, true)
        );
        assert_eq!(kill.limit_bytes, 8 << 20);
        assert_eq!(kill.unix_ms, NOW.unix_ms - 1500);
        assert_eq!(&kill.comm[..7], b"chrome\0");
        assert!(!kill.hidden);
        let global = OomKill::from_record(&record(1000, 0), 4096, reader(true), NOW);
        assert_eq!((global.memcg, global.limit_bytes), (false, 0));
    }

    #[test]
    fn another_users_victim_is_hidden_only_where_proc_hides_it() {
        let other = record(1001, OOM_MEMCG);
        let shown = OomKill::from_record(&other, 4096, reader(false), NOW);
        assert_eq!((shown.pid, shown.hidden), (4242, false));
        let hidden = OomKill::from_record(&other, 4096, reader(true), NOW);
        assert_eq!(
            (hidden.pid, hidden.rss_bytes, hidden.comm),
            (0, 0, [0; COMM_LEN])
        );
        assert!(hidden.hidden && hidden.memcg);
        assert_eq!(hidden.unix_ms, NOW.unix_ms - 1500);
        // Our own, but not dumpable: hidepid hides it too.
        let undumpable = record(1000, TASK_PRIVATE);
        assert!(OomKill::from_record(&undumpable, 4096, reader(true), NOW).hidden);
        let mut root = reader(true);
        root.privacy.sees_all = true;
        assert!(!OomKill::from_record(&other, 4096, root, NOW).hidden);
    }

    #[test]
    fn a_pid_only_kill_takes_name_and_size_from_the_last_sample() {
        let mut rec = OomRecord {
            tgid: 4242,
            flags: RECORD_OOM | OOM_PID_ONLY | OOM_MEMCG,
            time_ns: NOW.monotonic_ns,
            ..OomRecord::default()
        };
        let mut seen = rec;
        let mut process = Process::default();
        (process.tgid, process.rss_pages) = (4242, 500);
        process.comm = *b"chrome\0\0\0\0\0\0\0\0\0\0";
        complete_pid_only(&mut seen, Some(&process), reader(true));
        let kill = OomKill::from_record(&seen, 4096, reader(true), NOW);
        assert_eq!(
            (kill.pid, kill.rss_bytes, kill.hidden),
            (4242, 2_048_000, false)
        );
        assert_eq!(&kill.comm[..6], b"chrome");
        // Another user's, where /proc hides it; and one no sample saw.
        let mut private = rec;
        process.private = true;
        complete_pid_only(&mut private, Some(&process), reader(true));
        assert!(OomKill::from_record(&private, 4096, reader(true), NOW).hidden);
        complete_pid_only(&mut rec, None, reader(false));
        let unseen = OomKill::from_record(&rec, 4096, reader(false), NOW);
        assert_eq!(
            (unseen.pid, unseen.comm, unseen.hidden),
            (4242, [0; COMM_LEN], false)
        );
    }

    #[test]
    fn the_ring_keeps_the_latest_newest_first() {
        let mut kills = OomKills::default();
        assert_eq!(kills.latest(), None);
        for pid in 1..=10 {
            kills.push(OomKill {
                pid,
                unix_ms: u64::from(pid) * 1000,
                ..OomKill::default()
            });
        }
        let pids: Vec<u32> = kills.newest_first().map(|k| k.pid).collect();
        assert_eq!(pids, [10, 9, 8, 7, 6, 5, 4, 3]);
        assert_eq!(kills.total(), 10);
        assert_eq!(kills.recent(10_000 + 5000, 5000).map(|k| k.pid), Some(10));
        assert_eq!(kills.recent(10_000 + 5001, 5000), None);
    }
}
