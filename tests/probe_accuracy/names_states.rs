//! Names and states: an exec, a zombie, each state's letter, a hostile name.

use std::time::Duration;

use ringbar::records::collector::Collector;

use crate::common::*;
use crate::*;

pub(crate) fn an_exec_shows_the_new_name_in_the_next_sample(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let after = subjects.program("rb-after", "/bin/sleep");
    let script = format!("read line; exec {} 600", after.display());
    let mut subject = Subject::spawn(&subjects.program("rb-before", "/bin/sh"), &["-c", &script]);
    let pid = subject.pid();
    wait_for("rb-before to start", Duration::from_secs(5), || {
        comm_of(pid).as_deref() == Some("rb-before")
    });
    let mut c = collector(source, false);
    sample(&mut c);
    assert_eq!(listed_name(&c, pid), "rb-before");

    subject.send_line("go");
    wait_for("the exec", Duration::from_secs(5), || {
        comm_of(pid).as_deref() == Some("rb-after")
    });
    sample(&mut c);
    assert_eq!(listed_name(&c, pid), "rb-after");
}

/// How often the thread-group leader `pid` went to sleep (`voluntary_ctxt_switches` in
/// /proc/PID/status, the leader's own).
fn voluntary_switches(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))?;
    line.trim().parse().ok()
}

/// The name the latest sample gives the process `pid`.
fn listed_name(c: &Collector, pid: u32) -> String {
    let process = c.model().processes().by_tgid(pid);
    name(&process.expect("the subject is listed").comm)
}

pub(crate) fn an_unreaped_child_is_a_zombie_row_after_two_samples(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let mut parent = Subject::spawn(
        &subjects.program("rb-zombie", "/usr/bin/perl"),
        &[
            "-e",
            "$| = 1; my $pid = fork(); exit 0 if $pid == 0; print qq($pid\\n); sleep 600",
        ],
    );
    let child: u32 = parent.read_line().parse().expect("child pid");
    wait_for(
        "the child to become a zombie",
        Duration::from_secs(5),
        || state_of(child) == Some('Z'),
    );

    let mut c = collector(source, false);
    let first = sample(&mut c);
    assert!(
        !zombie_rows(&first).iter().any(|(pid, _)| *pid == child),
        "a zombie is shown only once it persists"
    );
    std::thread::sleep(Duration::from_millis(100));
    let second = sample(&mut c);
    assert!(
        zombie_rows(&second).contains(&(child, "rb-zombie".to_owned())),
        "Z row expected: {:?}",
        zombie_rows(&second)
    );
    assert!(!zombie_rows(&second)
        .iter()
        .any(|(pid, _)| *pid == parent.pid()));
}

/// A name with spaces, parentheses, markup characters and more than 15 bytes: the kernel
/// keeps 15, and both sources must report exactly those (/proc's stat line has a `)`
/// inside the name to trip up naive parsers).
pub(crate) fn a_hostile_name_is_cut_to_15_bytes_and_kept_intact(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let program = subjects.program("a b) (<c>&d'e\"f-long", "/bin/sleep");
    let sleeper = Subject::spawn(&program, &["600"]);
    let pid = sleeper.pid();
    wait_for("the exec", Duration::from_secs(5), || {
        comm_of(pid).is_some_and(|c| c.starts_with("a b)"))
    });
    let mut c = collector(source, false);
    sample(&mut c);
    assert_eq!(listed_name(&c, pid), "a b) (<c>&d'e\"f");
    assert_eq!(comm_of(pid).as_deref(), Some("a b) (<c>&d'e\"f"));
}

/// Every state the kernel reports comes out as /proc's letter: a busy loop (R), a sleep
/// (S), a stopped process (T) and idle kernel threads (I), each checked in both sources
/// against /proc read before and after the sample. A task whose letter differs between
/// the two reads is left out, and so is one that went to sleep in between (its voluntary
/// context switches moved): it may have been running and asleep again since, another
/// letter during the sample (a busy build's processes, in a run beside one).
pub(crate) fn each_task_state_is_the_letter_proc_shows(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let spin = Subject::spawn(
        &subjects.program("rb-running", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let sleeper = Subject::spawn(&subjects.program("rb-sleeping", "/bin/sleep"), &["600"]);
    let stopped = Subject::spawn(&subjects.program("rb-stopped", "/bin/sleep"), &["600"]);
    let status = std::process::Command::new("kill")
        .args(["-STOP", &stopped.pid().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    wait_for("the stop", Duration::from_secs(5), || {
        state_of(stopped.pid()) == Some('T')
    });
    // On a busy machine the sleeper may not have reached its sleep yet.
    wait_for("the sleep", Duration::from_secs(5), || {
        state_of(sleeper.pid()) == Some('S')
    });

    let mut c = collector(source, true);
    sample(&mut c);
    let before: Vec<(u32, Option<char>, Option<u64>)> = c
        .model()
        .processes()
        .iter()
        .map(|p| (p.tgid, state_of(p.tgid), voluntary_switches(p.tgid)))
        .collect();
    sample(&mut c);
    let table = c.model().processes();
    let mut seen = std::collections::BTreeMap::new();
    for (tgid, letter, switches) in before {
        let (Some(letter), Some(p)) = (letter, table.by_tgid(tgid)) else {
            continue;
        };
        if state_of(tgid) != Some(letter) || voluntary_switches(tgid) != switches {
            continue;
        }
        assert_eq!(
            p.leader_state.letter(),
            letter,
            "{} ({tgid})",
            name(&p.comm)
        );
        *seen.entry(letter).or_insert(0) += 1;
    }
    for (subject, letter) in [(&spin, 'R'), (&sleeper, 'S'), (&stopped, 'T')] {
        let p = table.by_tgid(subject.pid()).expect("the subject is listed");
        assert_eq!(p.leader_state.letter(), letter, "{}", name(&p.comm));
    }
    assert!(
        seen.get(&'I').is_some_and(|n| *n > 0),
        "idle kernel threads: {seen:?}"
    );
}
