//! The walker (one program run per sample, Linux 6.7+) and the task iterator read the same
//! tasks with the same records, as root and as another user.

use std::collections::HashMap;
use std::process::Command;
use std::time::Duration;

use ringbar::model::record::TaskRecord;
use ringbar::records::probe::Probe;

use crate::common::*;

fn by_pid(records: &[TaskRecord]) -> HashMap<u32, TaskRecord> {
    records.iter().map(|r| (r.pid, *r)).collect()
}

#[test]
fn the_walker_and_the_iterator_read_the_same_tasks() {
    require_root();
    let _serial = serial();
    let subjects = Subjects::new();
    let _sleepers: Vec<Subject> = (0..50)
        .map(|_| Subject::spawn(&subjects.program("rb-walked", "/bin/sleep"), &["60"]))
        .collect();
    let mut probe = Probe::load().expect("the BPF probe loads");
    // The probe service's probe, read through the iterator; as root it hides nothing.
    let mut iterator = Probe::load_for_service().expect("the service's probe loads");

    iterator.read_tasks_by_iterator().expect("iterator");
    probe.read_tasks().expect("walker");
    assert!(!iterator.walked());
    assert_eq!(
        probe.walked(),
        kernel_has_the_walker(),
        "the walker reads on Linux 6.7+ only"
    );
    let (walked, iterated) = (by_pid(probe.tasks()), by_pid(iterator.tasks()));
    // Tasks may start or end between the two reads, but hardly any.
    let common = walked
        .keys()
        .filter(|pid| iterated.contains_key(pid))
        .count();
    assert!(
        common + 5 >= walked.len().max(iterated.len()) && common > 100,
        "{common} tasks in both of {} walked and {} iterated",
        walked.len(),
        iterated.len()
    );
    let sleepers = walked
        .values()
        .filter(|r| name(&r.comm) == "rb-walked")
        .count();
    assert_eq!(sleepers, 50, "every sleeper walked");
    for (pid, w) in &walked {
        let Some(i) = iterated.get(pid) else { continue };
        let what = format!("pid {pid} ({}): {w:?} against {i:?}", name(&w.comm));
        assert_eq!(
            (w.tgid, w.leader_start_ns, w.flags, w.cgroup_id),
            (i.tgid, i.leader_start_ns, i.flags, i.cgroup_id),
            "{what}"
        );
        // Read later, by a running counter's nature.
        assert!(
            w.cpu_ns >= i.cpu_ns && w.group_dead_cpu_ns >= i.group_dead_cpu_ns,
            "{what}"
        );
        assert!(
            w.read_bytes >= i.read_bytes && w.write_bytes >= i.write_bytes,
            "{what}"
        );
        if name(&w.comm) == "rb-walked" {
            // Asleep and unchanged: every field the same.
            assert_eq!(w, i, "{what}");
        }
    }
}

/// As `nobody`, after the capabilities are gone: the walker still runs and marks root's
/// tasks private, as the iterator does.
#[test]
fn the_walker_reads_as_the_user_who_runs_it() {
    require_root();
    let _serial = serial();
    if !kernel_has_the_walker() {
        return;
    }
    let subjects = Subjects::new();
    let roots = Subject::spawn(&subjects.program("rb-roots", "/bin/sleep"), &["60"]);
    // A child loads the probe, becomes nobody, then reads and checks.
    let me = std::env::current_exe().expect("the test binary");
    let out = Command::new(me)
        .args([
            "--exact",
            "walker::as_nobody_child",
            "--ignored",
            "--nocapture",
        ])
        .env("RINGBAR_WALKER_ROOTS", roots.pid().to_string())
        .output()
        .expect("run the child");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("walked as nobody: root's process private"),
        "{text}"
    );
}

/// Bytes of this process's mappings of BPF maps (the exit ring and the walker's records).
fn bpf_mapped_bytes() -> usize {
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    maps.lines()
        .filter(|line| line.ends_with("anon_inode:bpf-map"))
        .filter_map(|line| line.split_once(' ')?.0.split_once('-'))
        .map(|(start, end)| {
            let address = |hex| usize::from_str_radix(hex, 16).expect("a hex address");
            address(end) - address(start)
        })
        .sum()
}

/// The walker maps only the records a walk needs (the kernel makes every page of a mapping
/// resident): 700 more tasks than the first walk found are all read by the next, which
/// maps more.
#[test]
fn the_walker_maps_more_records_as_tasks_come() {
    require_root();
    let _serial = serial();
    if !kernel_has_the_walker() {
        return;
    }
    let mut probe = Probe::load().expect("the BPF probe loads");
    probe.read_tasks().expect("walker");
    assert!(probe.walked());
    let (first_tasks, first_mapped) = (probe.tasks().len(), bpf_mapped_bytes());

    let subjects = Subjects::new();
    let program = subjects.program("rb-crowd", "/bin/sleep");
    let crowd: Vec<Subject> = (0..700)
        .map(|_| Subject::spawn(&program, &["60"]))
        .collect();
    // A spawn returns once the child's exec has its memory, a moment before the kernel
    // gives it its new name.
    for subject in &crowd {
        wait_for("a new task's name", Duration::from_secs(10), || {
            read_proc(subject.pid(), "comm").is_some_and(|comm| comm.trim() == "rb-crowd")
        });
    }
    probe.read_tasks().expect("walker");
    assert!(probe.walked());
    let walked = by_pid(probe.tasks());
    let missing = crowd
        .iter()
        .filter(|s| {
            walked
                .get(&s.pid())
                .is_none_or(|r| name(&r.comm) != "rb-crowd")
        })
        .count();
    assert_eq!(missing, 0, "of 700 new tasks, {missing} not read");
    let record = std::mem::size_of::<TaskRecord>();
    let grown = bpf_mapped_bytes() - first_mapped;
    assert!(
        grown >= 700 * record - 256 * record,
        "{first_tasks} tasks, then {}: the records mapped grew by {grown} bytes",
        walked.len()
    );
}

/// The child of the test above: loads the probe as root, becomes nobody (no
/// capabilities), reads and checks the root process `RINGBAR_WALKER_ROOTS`.
#[test]
#[ignore = "run by the_walker_reads_as_the_user_who_runs_it"]
fn as_nobody_child() {
    let Some(roots) = std::env::var("RINGBAR_WALKER_ROOTS").ok() else {
        return;
    };
    let roots: u32 = roots.parse().expect("a pid");
    let mut probe = Probe::load().expect("the BPF probe loads");
    // SAFETY: setgroups (with no groups), setgid and setuid take plain values; glibc
    // applies them to every thread of the process.
    unsafe {
        assert_eq!(libc::setgroups(0, std::ptr::null()), 0);
        assert_eq!(libc::setgid(65534), 0);
        assert_eq!(libc::setuid(65534), 0);
        // A setuid makes the process undumpable, which would make it private to its own
        // user too.
        assert_eq!(libc::prctl(libc::PR_SET_DUMPABLE, 1), 0);
    }
    probe.read_tasks().expect("read as nobody");
    assert!(probe.walked(), "the walker runs without capabilities");
    let record = probe.tasks().iter().find(|r| r.pid == roots);
    let record = record.expect("root's process walked");
    assert_ne!(
        record.flags & ringbar::model::record::TASK_PRIVATE,
        0,
        "root's process is private to nobody"
    );
    let mine = probe.tasks().iter().find(|r| r.pid == std::process::id());
    let mine = mine.expect("this process walked");
    assert_eq!(
        mine.flags & ringbar::model::record::TASK_PRIVATE,
        0,
        "mine is not"
    );
    println!("walked as nobody: root's process private");
}

/// The walker sees every task of the machine: in a PID namespace of its own, ringbar reads
/// through the iterator, which shows that namespace's tasks only, as its /proc does.
#[test]
fn in_a_pid_namespace_the_iterator_reads_its_tasks_only() {
    require_root();
    let _serial = serial();
    let bench = |namespaced: bool| {
        let ringbar = env!("CARGO_BIN_EXE_ringbar");
        let mut command = if namespaced {
            let mut unshare = Command::new("unshare");
            unshare.args(["--pid", "--fork", "--mount-proc", ringbar]);
            unshare
        } else {
            Command::new(ringbar)
        };
        let out = command
            .args(["--bench", "5"])
            .env("RINGBAR_PROBE_SOCKET", "/nonexistent/probe.sock")
            .output()
            .expect("run ringbar --bench");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let plain = bench(false);
    let walked = if kernel_has_the_walker() {
        "walker=1"
    } else {
        "walker=0"
    };
    assert!(plain.contains(walked), "{plain}");
    let namespaced = bench(true);
    assert!(
        namespaced.contains("walker=0") && namespaced.contains(" tasks=1 procs=1 "),
        "{namespaced}"
    );
}
