//! D rows: when they show (a passing D state does not), for how long, longest first.

use super::*;
use crate::model::process::tests::thread;
use crate::model::record::TaskRecord;

const MS: u64 = 1_000_000;

fn d_rows(m: &Model) -> Vec<(u32, u64, u32)> {
    m.snapshot()
        .stuck
        .rows()
        .filter(|(state, _)| *state == TaskState::DiskSleep)
        .map(|(_, r)| (r.tgid, r.blocked_ns, r.blocked_tid))
        .collect()
}

/// A thread in D that the kernel says has been off the CPU for `blocked_ms`.
fn blocked(tgid: u32, pid: u32, blocked_ms: u64) -> TaskRecord {
    TaskRecord {
        blocked_ns: blocked_ms * MS,
        ..thread(tgid, pid, 2, 0)
    }
}

#[test]
fn with_the_kernels_time_a_task_shows_once_in_d_at_two_samples_without_running_between() {
    let mut m = Model::new(4096, 2);
    let first = [blocked(10, 10, 5000), blocked(20, 20, 100)];
    m.update(1000 * MS, &first, &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), [], "one sample found them");

    // 1 s later: 10 has not run for 6 s (stuck); 20 went into D 300 ms ago (passing),
    // though it was in D at the previous sample too (it ran in between).
    let tasks = [
        blocked(10, 10, 6000),
        blocked(20, 20, 300),
        thread(30, 30, 1, 0),
    ];
    m.update(2000 * MS, &tasks, &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), [(10, 6000 * MS, 10)]);
}

#[test]
fn the_thread_stuck_longest_names_the_row_and_the_longest_stuck_row_comes_first() {
    let mut m = Model::new(4096, 2);
    let tasks = [
        blocked(10, 10, 1500),
        blocked(10, 11, 9000),
        thread(10, 12, 0, 0),
        blocked(20, 20, 60_000),
        blocked(5, 5, 2000),
    ];
    m.update(1000 * MS, &tasks, &[], None, None);
    m.update(2000 * MS, &tasks, &[], None, None);
    m.rank(false);
    assert_eq!(
        d_rows(&m),
        [
            (20, 60_000 * MS, 20),
            (10, 9000 * MS, 11),
            (5, 2000 * MS, 5)
        ]
    );
}

#[test]
fn without_the_kernels_time_consecutive_samples_count_from_the_first_that_found_it() {
    let mut m = Model::new(4096, 2);
    let d = thread(10, 10, 2, 0);
    let running = thread(10, 10, 0, 0);
    m.update(1000 * MS, &[d], &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), []);
    m.update(1500 * MS, &[d], &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), [(10, 500 * MS, 10)]);
    m.update(4000 * MS, &[d], &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), [(10, 3000 * MS, 10)]);

    // Out of D once: it starts again from nothing.
    m.update(5000 * MS, &[running], &[], None, None);
    m.update(6000 * MS, &[d], &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), []);
    m.update(7000 * MS, &[d], &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), [(10, 1000 * MS, 10)]);
}

#[test]
fn the_kernels_time_off_the_cpu_counts_no_further_back_than_the_last_sample_out_of_d() {
    // Asleep (S) at 1 s, frozen (D) since: it never ran on the way, so the kernel's time
    // off the CPU includes its sleep before.
    let mut m = Model::new(4096, 2);
    m.update(1000 * MS, &[thread(10, 10, 1, 0)], &[], None, None);
    m.update(2000 * MS, &[blocked(10, 10, 5000)], &[], None, None);
    m.update(3000 * MS, &[blocked(10, 10, 6000)], &[], None, None);
    m.rank(false);
    assert_eq!(d_rows(&m), [(10, 2000 * MS, 10)]);
}
