//! Tests of the process table, and the records they and other tests build.

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
fn position_after_finds_each_process_whatever_came_and_went() {
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
            let at = before.position_after(&key, &mut cursor);
            at.map(|at| before.at(at).cpu_ns())
        })
        .collect();
    assert_eq!(found, [Some(40), Some(30), None, Some(10)]);
}

/// Records in any order (threads apart, starts out of order, reused pids) make the
/// same processes as a plain map would, and every key is found where it is.
#[test]
fn lookups_agree_with_a_map_whatever_the_order() {
    use std::collections::BTreeMap;
    let mut x = 12345u64;
    let mut next = |below: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % below
    };
    for round in 0..50 {
        let mut table = ProcessTable::default();
        let mut expected: BTreeMap<ProcessKey, u64> = BTreeMap::new();
        for _ in 0..(round * 7 + 3) {
            let tgid = next(40) as u32;
            let mut rec = thread(tgid, tgid + next(3) as u32, 1, next(100));
            rec.leader_start_ns = next(5) * 1000 + u64::from(tgid);
            *expected
                .entry(ProcessKey {
                    tgid,
                    start_ns: rec.leader_start_ns,
                })
                .or_default() += rec.cpu_ns;
            table.add(&rec);
        }
        let found: BTreeMap<ProcessKey, u64> =
            table.iter().map(|p| (p.key(), p.cpu_ns())).collect();
        assert_eq!(found, expected, "round {round}");
        assert_eq!(table.len(), expected.len(), "no process twice");
        let mut cursor = 0;
        for key in expected.keys().rev() {
            let at = table.position_after(key, &mut cursor).expect("found");
            assert_eq!(table.at(at).key(), *key);
            assert_eq!(cursor, at + 1);
        }
        let absent = ProcessKey {
            tgid: 99,
            start_ns: 1,
        };
        assert!(!table.contains(&absent));
    }
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
