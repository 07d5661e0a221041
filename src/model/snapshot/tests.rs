//! The model fed synthetic samples: rates, counters going backwards, PID reuse, exited
//! groups, stuck rows, kernel threads, the /proc walk's busy share, IO and privacy.

use super::*;
use crate::model::process::tests::{comm, thread};
use crate::model::record::{ExitRecord, TaskRecord, TASK_KTHREAD, TASK_NET};
use crate::model::visibility::Privacy;

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
fn zombies_and_blocked_tasks_show_once_two_samples_found_them() {
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
    assert_eq!(stuck_rows(&m), []);

    m.update(2000 * MS, &[zombie, blocked], &[], None, None);
    m.rank(false);
    assert_eq!(stuck_rows(&m), [('D', 40), ('Z', 30)]);
}

#[test]
fn at_most_ten_stuck_rows() {
    let mut m = model();
    let tasks: Vec<_> = (100..120).map(|tgid| thread(tgid, tgid, 2, 0)).collect();
    m.update(1000 * MS, &tasks, &[], None, None);
    m.update(2000 * MS, &tasks, &[], None, None);
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
fn the_proc_walk_takes_the_busy_share_from_proc_stat() {
    let mut m = model();
    m.update(1000 * MS, &[thread(10, 10, 0, 0)], &[], None, None);
    m.use_system_cpu(
        Some(SystemCpu {
            busy: 100,
            total: 1000,
        }),
        7,
    );
    assert_eq!(m.snapshot().tasks, 7);
    m.update(2000 * MS, &[thread(10, 10, 0, 100 * MS)], &[], None, None);
    // 300 of 400 ticks busy: 75 % of 2 CPUs over 1 s, whatever the processes say.
    m.use_system_cpu(
        Some(SystemCpu {
            busy: 400,
            total: 1400,
        }),
        7,
    );
    assert_eq!(m.snapshot().cpu_busy_ns, 1500 * MS);
    assert_eq!(m.snapshot().cpu_percent(), Some(75.0));
    // An unreadable /proc/stat keeps the processes' sum.
    m.update(3000 * MS, &[thread(10, 10, 0, 300 * MS)], &[], None, None);
    m.use_system_cpu(None, 7);
    assert_eq!(m.snapshot().cpu_busy_ns, 200 * MS);
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

#[test]
fn private_io_is_summed_into_others_and_hidden_processes_leave_every_list() {
    use crate::model::record::TASK_PRIVATE;
    let mut m = model();
    let mut mine = thread(10, 10, 2, 0);
    let mut theirs = thread(20, 20, 2, 0);
    theirs.flags |= TASK_PRIVATE;
    theirs.rss_pages = 100;
    m.update(1000 * MS, &[mine, theirs], &[], None, None);
    mine.write_bytes = 1000;
    theirs.write_bytes = 5000;
    theirs.read_bytes = 700;
    theirs.cpu_ns = 10 * MS;
    m.update(2000 * MS, &[mine, theirs], &[], None, None);

    m.rank(false);
    let s = *m.snapshot();
    assert_eq!(tgids(&s.top_io), [10], "no row for a private process's IO");
    assert_eq!(
        s.others_io,
        OthersIo {
            processes: 1,
            read: 700,
            write: 5000
        }
    );
    assert_eq!(s.write_bytes, 6000, "the totals count it");
    assert_eq!(tgids(&s.top_cpu), [20], "its CPU is public");
    assert_eq!(s.stuck.len(), 2);

    m.set_privacy(Privacy {
        sees_all: false,
        hide_private: true,
    });
    m.rank(false);
    let s = *m.snapshot();
    assert!(
        s.top_cpu.is_empty() && s.top_memory.is_empty(),
        "hidepid hides it"
    );
    assert_eq!(s.stuck.len(), 1);
    assert_eq!(s.others_io.write, 5000);

    m.set_privacy(Privacy {
        sees_all: true,
        hide_private: false,
    });
    m.rank(false);
    let s = *m.snapshot();
    assert_eq!(tgids(&s.top_io), [20, 10], "root sees every row");
    assert_eq!(s.others_io, OthersIo::default());
}

#[test]
fn both_process_tables_grow_in_the_sample_with_more_processes_than_ever() {
    let mut m = model();
    // Every third process has network counts, which its table keeps beside the processes.
    let tasks = |n: u32| -> Vec<_> {
        let net = |t: u32| u64::from(t.is_multiple_of(3)) * 100;
        let task = |t| TaskRecord {
            flags: if net(t) > 0 { TASK_NET } else { 0 },
            net_sent_bytes: net(t),
            ..thread(t, t, 0, 0)
        };
        (1..=n).map(task).collect()
    };
    m.update(1000 * MS, &tasks(10), &[], None, None);
    m.update(2000 * MS, &tasks(300), &[], None, None);
    let (filled, other) = m.table_rooms();
    assert!(filled.0 >= 300 && filled.1 > 100, "{filled:?}");
    // The tables take turns: the next one, with fewer processes, must not grow.
    assert_eq!(other, filled);
    m.update(3000 * MS, &tasks(299), &[], None, None);
    assert_eq!(m.table_rooms(), (filled, filled));
}
