//! The probe loaded by a process in a container's PID namespace: its records and exit
//! reports are that namespace's, by that namespace's pids, as its /proc shows them.

use std::process::Command;
use std::time::{Duration, Instant};

use ringbar::model::record::{ExitRecord, EXIT_FREED, RECORD_OOM};
use ringbar::records::probe::Probe;

use crate::common::pidns::{ready_then_wait, short_processes, NamespacedChild};
use crate::common::*;

/// The exit reports' tgids (OOM kills left out), read until `enough` says so or 5 s
/// passed.
fn exit_tgids(probe: &mut Probe, enough: impl Fn(&[u32]) -> bool) -> Vec<u32> {
    exit_reports(probe, enough)
        .into_iter()
        .map(|(tgid, _)| tgid)
        .collect()
}

/// The same, each report's tgid with `exit` or `freed` (its last, when it is freed).
fn exit_reports(probe: &mut Probe, enough: impl Fn(&[u32]) -> bool) -> Vec<(u32, &'static str)> {
    let mut seen = Vec::new();
    let mut tgids = Vec::new();
    let mut exits: Vec<ExitRecord> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline && !enough(&tgids) {
        std::thread::sleep(Duration::from_millis(50));
        probe.drain_exits(&mut exits).expect("drain");
        for exit in exits.iter().filter(|e| e.flags & RECORD_OOM == 0) {
            let kind = if exit.flags & EXIT_FREED != 0 {
                "freed"
            } else {
                "exit"
            };
            seen.push((exit.tgid, kind));
            tgids.push(exit.tgid);
        }
    }
    seen
}

/// With RINGBAR_TEST_PIDNS_PROBE set, the child of the next test.
#[test]
fn namespaced_probe_child() {
    if std::env::var_os("RINGBAR_TEST_PIDNS_PROBE").is_none() {
        return;
    }
    let mut probe = Probe::load().expect("the BPF probe loads");
    probe.read_tasks().expect("tasks");
    let tgids: Vec<u32> = probe.tasks().iter().map(|t| t.tgid).collect();
    println!("own {} tasks {tgids:?}", std::process::id());
    exit_tgids(&mut probe, |_| true);
    ready_then_wait();
    let mut child = Command::new("/bin/true").spawn().expect("true");
    let pid = child.id();
    child.wait().expect("true");
    // Freed a grace period after it was reaped: run the callbacks rather than wait.
    flush_rcu_callbacks();
    // Its exit report, and its last one when it is freed.
    let mut seen = exit_reports(&mut probe, |seen| {
        seen.iter().filter(|t| **t == pid).count() >= 2
    });
    // Whatever else the machine ended in the meantime, give it time to come.
    std::thread::sleep(Duration::from_millis(300));
    seen.extend(exit_reports(&mut probe, |_| false));
    let seen: Vec<String> = seen.iter().map(|(t, kind)| format!("{t} {kind}")).collect();
    let lost = probe.lost_exits();
    println!("exits child {pid} seen {seen:?} lost {lost}");
}

#[test]
fn a_probe_in_a_pid_namespace_sees_that_namespace_by_its_own_pids() {
    require_root();
    let _serial = serial();
    // A probe on the machine, to show the machine's exits are reported at all.
    let mut machine = Probe::load().expect("the BPF probe loads");
    let child = NamespacedChild::start(
        "pid_namespace::namespaced_probe_child",
        &[("RINGBAR_TEST_PIDNS_PROBE", "1")],
    );
    let own = child.said("own ");
    // While the child waits: processes end on the machine, outside its namespace.
    let outside = short_processes(5);
    let machine_saw = exit_tgids(&mut machine, |seen| {
        outside.iter().all(|p| seen.contains(p))
    });
    assert!(
        outside.iter().all(|p| machine_saw.contains(p)),
        "the machine's probe saw {machine_saw:?}, not all of {outside:?}"
    );
    let exits = child.go_and_read("exits ");

    // `own 1 tasks [1, 1]`: the test binary is pid 1 there, and every record its own.
    let (own_pid, tasks) = own.split_once(" tasks ").expect("tasks");
    assert_eq!(own_pid, "1", "{own}");
    let tgids: Vec<&str> = tasks[1..tasks.len() - 1].split(", ").collect();
    assert!(
        !tgids.is_empty() && tgids.iter().all(|t| *t == "1"),
        "{own}"
    );

    // `child 3 seen ["3 exit", "3 freed"] lost 0`: its own child's exit and its freeing,
    // by its pid there, and nothing else.
    let (child_pid, seen) = exits
        .strip_prefix("child ")
        .and_then(|rest| rest.split_once(" seen "))
        .expect("child and seen");
    assert!(child_pid.parse::<u32>().expect("pid") < 100, "{exits}");
    assert_eq!(
        seen,
        format!("[\"{child_pid} exit\", \"{child_pid} freed\"] lost 0"),
        "{exits}"
    );
}
