//! Network bytes per process: rates from the group's counts, the machine's own traffic,
//! exit reports, other users' processes and apps.

use super::*;
use crate::model::process::tests::thread;
use crate::model::record::{ExitRecord, TaskRecord, TASK_NET, TASK_PRIVATE};
use crate::model::visibility::Privacy;

const MS: u64 = 1_000_000;

/// A thread whose group has sent and received so much, `local` of each to the machine.
fn sending(tgid: u32, pid: u32, sent: u64, received: u64, local: u64) -> TaskRecord {
    let has_bytes = sent | received != 0;
    TaskRecord {
        flags: if has_bytes { TASK_NET } else { 0 },
        net_sent_bytes: sent,
        net_received_bytes: received,
        net_local_sent_bytes: local,
        net_local_received_bytes: local,
        ..thread(tgid, pid, 0, 0)
    }
}

fn rows(s: &Snapshot) -> Vec<(u32, u64, u64)> {
    let list = s.top_net.rows().iter();
    list.map(|r| (r.tgid, r.read, r.write)).collect()
}

#[test]
fn rates_sum_a_groups_threads_and_leave_the_machines_own_traffic_out() {
    let mut m = Model::new(4096, 2);
    let first = [sending(10, 10, 1000, 0, 0), sending(10, 11, 0, 0, 0)];
    m.update(1000 * MS, &first, &[], None, None);
    // The group's figure is the sum of its threads' (the leader's has the exited ones').
    let later = [
        sending(10, 10, 2000, 1000, 500),
        sending(10, 11, 4000, 1000, 500),
        sending(20, 20, 300, 300, 300),
    ];
    m.update(2000 * MS, &later, &[], None, None);
    m.rank(false);
    let s = *m.snapshot();
    // 10 sent 5000 (1000 of them to itself) and received 2000 (1000 local); 20 talks
    // only to the machine itself, and 20 is new but older than the window.
    assert_eq!(rows(&s), [(10, 1000, 4000)]);
    assert_eq!(s.net_shown(), (1000, 4000));
    assert_eq!(s.per_second(s.net_shown().1), 4000.0);

    m.set_net_include_local(true);
    m.rank(false);
    let s = *m.snapshot();
    assert_eq!(rows(&s), [(10, 2000, 5000)]);
    assert_eq!(s.net_shown(), (2000, 5000));
    assert!(s.net_include_local);
}

#[test]
fn counts_follow_their_process_whatever_order_threads_and_counts_come_in() {
    let mut m = Model::new(4096, 2);
    // 10's first thread has sent nothing, so 20's counts are kept before 10's; 30 has
    // none yet (its first bytes are its rate), and 40 loses its counts (never from the probe: no rate, not a huge one).
    let first = [
        sending(10, 10, 0, 0, 0),
        sending(20, 20, 100, 0, 0),
        sending(10, 11, 1000, 0, 0),
        sending(30, 30, 0, 0, 0),
        sending(40, 40, 700, 0, 0),
    ];
    m.update(1000 * MS, &first, &[], None, None);
    let later = [
        sending(30, 30, 50, 0, 0),
        sending(10, 11, 1300, 0, 0),
        sending(20, 20, 120, 0, 0),
        sending(10, 10, 0, 0, 0),
        sending(40, 40, 0, 0, 0),
    ];
    m.update(2000 * MS, &later, &[], None, None);
    m.rank(false);
    let s = *m.snapshot();
    assert_eq!(rows(&s), [(10, 0, 300), (30, 0, 50), (20, 0, 20)]);
    assert_eq!(s.net_shown(), (0, 370));
    let net = |tgid| {
        m.processes()
            .net(m.process(tgid).expect("listed"))
            .total
            .sent
    };
    assert_eq!([net(10), net(20), net(30), net(40)], [1300, 120, 50, 0]);
}

#[test]
fn exit_reports_add_what_a_group_did_after_its_last_sample() {
    let mut m = Model::new(4096, 2);
    m.update(1000 * MS, &[sending(10, 10, 100, 100, 0)], &[], None, None);
    m.update(2000 * MS, &[sending(10, 10, 200, 100, 0)], &[], None, None);
    // Gone before the third sample, after sending 300 more; and 30, which lived and
    // died between two samples.
    let exits = [
        ExitRecord {
            tgid: 10,
            leader_start_ns: 10_000,
            net_sent_bytes: 500,
            net_received_bytes: 100,
            ..ExitRecord::default()
        },
        ExitRecord {
            tgid: 30,
            leader_start_ns: 2500 * MS,
            net_received_bytes: 7000,
            net_local_received_bytes: 2000,
            ..ExitRecord::default()
        },
    ];
    m.update(3000 * MS, &[], &exits, None, None);
    m.rank(false);
    assert_eq!(m.snapshot().net_shown(), (5000, 300));
    // The final report again, when the group is freed, adds nothing.
    m.update(4000 * MS, &[], &exits, None, None);
    assert_eq!(m.snapshot().net_shown(), (0, 0));
}

#[test]
fn other_users_processes_are_only_summed() {
    let mut m = Model::new(4096, 2);
    let private = |sent| {
        let rec = sending(30, 30, sent, 0, 0);
        TaskRecord {
            flags: rec.flags | TASK_PRIVATE,
            ..rec
        }
    };
    m.update(
        1000 * MS,
        &[private(0), sending(10, 10, 0, 0, 0)],
        &[],
        None,
        None,
    );
    m.update(
        2000 * MS,
        &[private(9000), sending(10, 10, 10, 0, 0)],
        &[],
        None,
        None,
    );
    m.rank(false);
    let s = *m.snapshot();
    assert_eq!(rows(&s), [(10, 0, 10)], "no row of another user's process");
    assert_eq!(s.apps.net.rows().len(), 1);
    assert_eq!(
        s.others_net,
        OthersIo {
            processes: 1,
            read: 0,
            write: 9000
        }
    );
    assert_eq!(s.net_shown(), (0, 9010), "the totals count it");

    m.set_privacy(Privacy {
        sees_all: true,
        hide_private: false,
    });
    m.rank(false);
    assert_eq!(
        rows(m.snapshot()),
        [(30, 0, 9000), (10, 0, 10)],
        "root sees all"
    );
}
