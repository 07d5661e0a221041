//! The model's memory of ended processes under a storm of exits: a freed group is
//! forgotten at its final report, and the room a burst took is given back.

use super::*;
use crate::model::record::{ExitRecord, EXIT_FREED};

const MS: u64 = 1_000_000;

fn exit(tgid: u32, start_ns: u64, cpu_ns: u64, flags: u32) -> ExitRecord {
    ExitRecord {
        tgid,
        leader_start_ns: start_ns,
        cpu_ns,
        flags,
        ..Default::default()
    }
}

/// `count` groups born after `born_ns`, each with its exit report and, if `freed`, its
/// final one 1 ms of CPU later.
fn burst(first_tgid: u32, count: u32, born_ns: u64, freed: bool) -> Vec<ExitRecord> {
    let mut exits = Vec::new();
    for tgid in first_tgid..first_tgid + count {
        let start = born_ns + u64::from(tgid);
        exits.push(exit(tgid, start, 2 * MS, 0));
        if freed {
            exits.push(exit(tgid, start, 3 * MS, EXIT_FREED));
        }
    }
    exits
}

#[test]
fn a_freed_groups_final_report_counts_and_then_it_is_forgotten() {
    let mut m = Model::new(4096, 2);
    m.update(1000 * MS, &[], &[], None, None);
    // A fork storm: 20,000 short-lived groups between two samples, every report in.
    let exits = burst(100, 20_000, 1000 * MS, true);
    m.update(2000 * MS, &[], &exits, None, None);
    let s = m.snapshot();
    assert_eq!(s.exited_groups, 20_000);
    assert_eq!(
        s.exited_cpu_ns,
        20_000 * 3 * MS,
        "each group's whole CPU, once"
    );
    assert_eq!(m.departed_room().0, 0, "no freed group is remembered");
}

#[test]
fn a_freed_report_for_a_listed_group_adds_its_tail_once() {
    let mut m = Model::new(4096, 2);
    let listed = crate::model::process::tests::thread(10, 10, 0, 300 * MS);
    m.update(1000 * MS, &[listed], &[], None, None);
    let reports = [
        exit(10, 10_000, 350 * MS, 0),
        exit(10, 10_000, 360 * MS, EXIT_FREED),
    ];
    m.update(2000 * MS, &[], &reports, None, None);
    assert_eq!(m.snapshot().exited_cpu_ns, 60 * MS);
    assert_eq!(m.departed_room().0, 0);
}

#[test]
fn the_room_a_burst_of_unfinished_reports_took_is_given_back() {
    let mut m = Model::new(4096, 2);
    m.update(1000 * MS, &[], &[], None, None);
    let (_, room_before) = m.departed_room();
    // Final reports lost (a full ring buffer): each group is remembered for a while.
    let exits = burst(100, 20_000, 1000 * MS, false);
    m.update(2000 * MS, &[], &exits, None, None);
    let (remembered, room_in_burst) = m.departed_room();
    assert_eq!(remembered, 20_000);
    assert!(room_in_burst >= 20_000);
    for second in 3..60 {
        m.update(second * 1000 * MS, &[], &[], None, None);
    }
    let (remembered, room_after) = m.departed_room();
    assert_eq!(remembered, 0);
    assert_eq!(
        room_after, room_before,
        "the table back to its room at start"
    );
}
