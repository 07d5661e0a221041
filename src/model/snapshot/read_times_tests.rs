//! Records read one after another over a walk that takes time (the /proc walk): each
//! process's rates are over its own interval, from one read of it to the next.

use super::*;
use crate::model::process::tests::thread;
use crate::model::record::TaskRecord;

const MS: u64 = 1_000_000;

fn with_io(rec: TaskRecord, write_bytes: u64) -> TaskRecord {
    TaskRecord { write_bytes, ..rec }
}

#[test]
fn a_process_read_late_in_a_long_walk_has_its_rate_over_its_own_interval() {
    let mut m = Model::new(4096, 2);
    // Walks start at 1000 and 2000 ms. Process 10 is read at each start; process 20 is
    // read 200 ms into the first walk and 50 ms into the second, 850 ms apart.
    m.update_read_at(
        1000 * MS,
        &[thread(10, 10, 0, 0), with_io(thread(20, 20, 0, 0), 0)],
        &[1000 * MS, 1200 * MS],
        &[],
        None,
        None,
    );
    // Each ran a whole core between its two reads; 20 wrote 850 bytes in its 850 ms.
    m.update_read_at(
        2000 * MS,
        &[
            thread(10, 10, 0, 1000 * MS),
            with_io(thread(20, 20, 0, 850 * MS), 850),
        ],
        &[2000 * MS, 2050 * MS],
        &[],
        None,
        None,
    );
    m.rank(false);
    let s = m.snapshot();
    assert_eq!(s.interval_ns, 1000 * MS);
    for row in s.top_cpu.rows() {
        let percent = s.core_percent(row.value);
        assert!(
            (percent - 100.0).abs() < 1e-6,
            "{} at {percent}% of a core",
            row.tgid
        );
    }
    // 1,000 bytes a second, given over the sample's interval.
    let io = s
        .top_io
        .rows()
        .iter()
        .find(|r| r.tgid == 20)
        .expect("io row");
    assert_eq!(io.value, 1000);
}

#[test]
fn without_read_times_every_process_counts_over_the_interval_between_samples() {
    let mut m = Model::new(4096, 2);
    m.update_read_at(1000 * MS, &[thread(20, 20, 0, 0)], &[], &[], None, None);
    m.update(2000 * MS, &[thread(20, 20, 0, 850 * MS)], &[], None, None);
    m.rank(false);
    let s = m.snapshot();
    assert_eq!(s.top_cpu.rows()[0].value, 850 * MS);
}

#[test]
fn a_process_first_listed_has_its_whole_life_whatever_its_read_time() {
    let mut m = Model::new(4096, 2);
    m.update_read_at(
        1000 * MS,
        &[thread(10, 10, 0, 0)],
        &[1000 * MS],
        &[],
        None,
        None,
    );
    // 30 started after the first walk and used 300 ms; it is read 100 ms into the walk.
    let born = TaskRecord {
        leader_start_ns: 1500 * MS,
        ..thread(30, 30, 0, 300 * MS)
    };
    m.update_read_at(
        2000 * MS,
        &[thread(10, 10, 0, 0), born],
        &[2000 * MS, 2100 * MS],
        &[],
        None,
        None,
    );
    m.rank(false);
    assert_eq!(m.snapshot().top_cpu.rows()[0].value, 300 * MS);
}

#[test]
fn read_times_get_their_room_in_both_tables_in_the_sample_that_grew() {
    let mut m = Model::new(4096, 2);
    let sample = |m: &mut Model, at: u64, n: u32| {
        let tasks: Vec<_> = (1..=n).map(|t| thread(t, t, 0, 0)).collect();
        let times: Vec<_> = (0..u64::from(n)).map(|i| at + i * 1000).collect();
        m.update_read_at(at, &tasks, &times, &[], None, None);
    };
    sample(&mut m, 1000 * MS, 10);
    sample(&mut m, 2000 * MS, 300);
    let (filled, other) = m.table_rooms();
    assert!(filled.2 >= 300, "{filled:?}");
    assert_eq!(other, filled);
    sample(&mut m, 3000 * MS, 299);
    assert_eq!(m.table_rooms(), (filled, filled));
}

#[test]
fn a_process_of_several_records_takes_the_time_of_its_first() {
    let mut m = Model::new(4096, 2);
    let (leader, other) = (thread(10, 10, 0, 0), thread(10, 11, 0, 0));
    m.update_read_at(
        1000 * MS,
        &[leader, other, thread(20, 20, 0, 0)],
        &[1000 * MS, 1400 * MS, 1500 * MS],
        &[],
        None,
        None,
    );
    // 10's first record is read 200 ms later than before, 20's at the same offset.
    let (leader, other) = (thread(10, 10, 0, 600 * MS), thread(10, 11, 0, 0));
    m.update_read_at(
        2000 * MS,
        &[leader, other, thread(20, 20, 0, 500 * MS)],
        &[2200 * MS, 2300 * MS, 2500 * MS],
        &[],
        None,
        None,
    );
    m.rank(false);
    let s = m.snapshot();
    let percent = |tgid| {
        let row = s
            .top_cpu
            .rows()
            .iter()
            .find(|r| r.tgid == tgid)
            .expect("row");
        s.core_percent(row.value)
    };
    // 600 ms in its own 1,200 ms; 500 ms in 1,000.
    assert!((percent(10) - 50.0).abs() < 1e-6, "{}", percent(10));
    assert!((percent(20) - 50.0).abs() < 1e-6, "{}", percent(20));
}
