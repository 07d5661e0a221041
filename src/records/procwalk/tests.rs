use std::fs;

use super::*;

#[test]
fn walks_this_machine() {
    let mut walk = ProcWalk::new(Path::new("/proc"));
    walk.read_tasks().expect("/proc is readable");
    let me = std::process::id();
    let record = walk
        .tasks()
        .iter()
        .find(|t| t.tgid == me)
        .expect("this process is listed");
    assert!(record.rss_pages > 0);
    assert_eq!(record.flags & TASK_IO_UNKNOWN, 0, "own io is readable");
    assert!(walk.threads() as usize >= walk.tasks().len());
    let cpu = walk.cpu_time_ns().expect("/proc/stat parses");
    assert!(cpu.busy <= cpu.total && cpu.total > 0);
}

#[test]
fn the_second_walk_holds_the_files_and_later_walks_read_them() {
    let mut walk = ProcWalk::new(Path::new("/proc"));
    walk.read_tasks().expect("walks");
    assert_eq!(walk.held, 0, "a process seen once is read the plain way");
    walk.read_tasks().expect("walks");
    let me = std::process::id();
    let mine = walk.known.get(&me).expect("this process is known");
    let held = mine.files.as_ref().expect("seen twice: held");
    assert_eq!(held.count(), 3, "stat, statm and io");
    assert!(walk.held >= 3 * walk.tasks().len() / 2, "{}", walk.held);
    let cpu_before = walk.tasks().iter().find(|t| t.tgid == me).map(|t| t.cpu_ns);
    // Burn CPU: the held stat shows it, read again from the start.
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_millis(50) {
        std::hint::black_box(0u64);
    }
    walk.read_tasks().expect("walks");
    let after = walk.tasks().iter().find(|t| t.tgid == me).expect("listed");
    assert!(
        Some(after.cpu_ns) > cpu_before,
        "{cpu_before:?} {}",
        after.cpu_ns
    );
    assert_eq!(after.flags & TASK_IO_UNKNOWN, 0);
}

/// A fake /proc: `pid (name) … start` in `stat`, 25 resident pages.
fn fake_process(proc: &Path, pid: u32, start: u64) {
    let dir = proc.join(pid.to_string());
    fs::create_dir_all(&dir).expect("mkdir");
    let stat = format!(
        "{pid} (p{pid}) S 1 1 1 0 -1 4194304 0 0 0 0 30 20 0 0 20 0 1 0 {start} 0 0 0 4096 0 0\n"
    );
    fs::write(dir.join("stat"), stat).expect("write");
    fs::write(dir.join("statm"), "100 25 0 0 0 0 0\n").expect("write");
    fs::write(dir.join("io"), "read_bytes: 7\nwrite_bytes: 9\n").expect("write");
}

#[test]
fn held_files_are_read_again_and_closed_when_the_process_goes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proc = dir.path();
    for pid in [10, 11, 12] {
        fake_process(proc, pid, 100 + u64::from(pid));
    }
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    walk.read_tasks().expect("walks");
    assert_eq!(walk.held, 9);
    // Rewritten in place: the held file shows the new text.
    fs::write(proc.join("11/statm"), "100 77 0 0 0 0 0\n").expect("write");
    walk.read_tasks().expect("walks");
    let rss: Vec<_> = walk.tasks().iter().map(|t| (t.tgid, t.rss_pages)).collect();
    assert_eq!(rss.len(), 3);
    assert!(rss.contains(&(11, 77)), "{rss:?}");
    let io: Vec<_> = walk
        .tasks()
        .iter()
        .map(|t| (t.read_bytes, t.write_bytes))
        .collect();
    assert_eq!(io, [(7, 9); 3]);
    // Gone from the listing: its files are closed at the end of the walk.
    fs::remove_dir_all(proc.join("12")).expect("rm");
    walk.read_tasks().expect("walks");
    assert_eq!(walk.tasks().len(), 2);
    assert_eq!((walk.held, walk.known.len()), (6, 2));
    // (A new process under a known number is an integration test: only the real /proc
    // makes a held file of a gone process read ESRCH.)
}

#[test]
fn past_the_budget_processes_are_read_the_plain_way() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proc = dir.path();
    for pid in 20..30 {
        fake_process(proc, pid, 5);
    }
    let mut walk = ProcWalk::new(proc);
    walk.ceiling = 7;
    for _ in 0..3 {
        walk.read_tasks().expect("walks");
        assert_eq!(walk.tasks().len(), 10, "every process, held or not");
        assert!(walk
            .tasks()
            .iter()
            .all(|t| t.rss_pages == 25 && t.read_bytes == 7));
    }
    assert_eq!(walk.held, 6, "two processes' files fit in 7");
    walk.ceiling = 0;
    walk.read_tasks().expect("walks");
    assert_eq!(walk.tasks().len(), 10);
    assert_eq!(walk.held, 0, "a lower budget closes what is over it");
}

#[test]
fn a_changed_verdict_on_access_reopens_and_zombies_are_not_held() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proc = dir.path();
    fake_process(proc, 40, 5);
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    walk.read_tasks().expect("walks");
    assert_eq!(walk.held, 3);
    // The kernel now writes startcode 1: the reader lost ptrace access.
    let denied = "40 (p40) S 1 1 1 0 -1 4194304 0 0 0 0 30 20 0 0 20 0 1 0 5 0 0 0 1 0 0\n";
    fs::write(proc.join("40/stat"), denied).expect("write");
    walk.read_tasks().expect("walks");
    assert_eq!(walk.held, 0, "closed, read with fresh opens, not held yet");
    walk.read_tasks().expect("walks");
    assert_eq!(walk.held, 3, "held again, opened under the new verdict");
    // A zombie (no address space: startcode 0) is never held.
    let zombie = "40 (p40) Z 1 1 1 0 -1 4194304 0 0 0 0 30 20 0 0 20 0 1 0 5 0 0 0 0 0 0\n";
    fs::write(proc.join("40/stat"), zombie).expect("write");
    for _ in 0..3 {
        walk.read_tasks().expect("walks");
        assert_eq!((walk.held, walk.tasks().len()), (0, 1));
    }
}

#[test]
fn a_missing_proc_is_an_error_and_vanished_processes_are_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert!(ProcWalk::new(&dir.path().join("none"))
        .read_tasks()
        .is_err());
    let proc = dir.path();
    fs::create_dir_all(proc.join("12")).expect("mkdir");
    fs::create_dir_all(proc.join("13")).expect("mkdir");
    fs::create_dir_all(proc.join("self")).expect("mkdir");
    fs::write(
        proc.join("12/stat"),
        "12 (x y) S 1 12 12 0 -1 4194304 0 0 0 0 30 20 0 0 20 0 2 0 500 0 0\n",
    )
    .expect("write");
    fs::write(proc.join("12/statm"), "100 25 0 0 0 0 0\n").expect("write");
    // 13 has no stat: it exited between readdir and open.
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    assert_eq!(walk.tasks().len(), 1);
    let record = walk.tasks()[0];
    assert_eq!((record.tgid, record.rss_pages, record.state), (12, 25, 1));
    assert_eq!(record.cpu_ns, 50 * walk.tick_ns);
    assert_eq!(record.leader_start_ns, 500 * walk.tick_ns);
    assert_eq!(record.flags, TASK_IO_UNKNOWN, "no io file: unknown, not 0");
    assert_eq!(walk.threads(), 2);
}

#[test]
fn pids_are_digits_only() {
    assert_eq!(parse_pid(b"4242"), Some(4242));
    for name in [&b"self"[..], b"", b"12a", b"-1", b"+5", b"99999999999"] {
        assert_eq!(parse_pid(name), None, "{:?}", String::from_utf8_lossy(name));
    }
}

/// A fake /proc of this process's own namespace: `self` names this process, whose
/// `mountinfo` has a proc mount without `hidepid` at `proc`, and `loadavg` ends with
/// `tasks` and `last_pid`.
fn fake_loadavg(proc: &Path, tasks: u32, last_pid: u32) {
    let me = std::process::id().to_string();
    let link = proc.join("self");
    if fs::symlink_metadata(&link).is_err() {
        std::os::unix::fs::symlink(&me, &link).expect("symlink");
        fs::create_dir_all(proc.join(&me)).expect("mkdir");
        fake_mountinfo(proc, "rw");
    }
    let text = format!("0.00 0.01 0.05 1/{tasks} {last_pid}\n");
    fs::write(proc.join("loadavg"), text).expect("write");
}

fn fake_mountinfo(proc: &Path, super_options: &str) {
    let line = format!(
        "22 27 0:21 / {} rw - proc proc {super_options}\n",
        proc.display()
    );
    let me = std::process::id().to_string();
    fs::write(proc.join(me).join("mountinfo"), line).expect("write");
}

fn listed_pids(walk: &ProcWalk) -> Vec<u32> {
    let mut pids: Vec<u32> = walk.tasks().iter().map(|t| t.tgid).collect();
    pids.sort_unstable();
    pids
}

#[test]
fn proc_is_listed_again_only_when_a_pid_was_handed_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proc = dir.path();
    fake_loadavg(proc, 90, 51);
    for pid in [50, 51] {
        fake_process(proc, pid, 5);
    }
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [50, 51]);
    // A process appears, but loadavg says no pid was handed out: the last walk's
    // processes are read without listing (a real /proc cannot do this).
    fake_process(proc, 52, 5);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [50, 51], "not listed");
    // A process that is gone (its held stat reads nothing, as a real one reads ESRCH)
    // is dropped without a listing.
    fs::write(proc.join("50/stat"), "").expect("write");
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [51]);
    // A pid handed out: listed again.
    fake_loadavg(proc, 90, 52);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [51, 52]);
    // The same last pid with another task count (the counter wrapped round): listed.
    fake_process(proc, 53, 5);
    fake_loadavg(proc, 91, 52);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [51, 52, 53]);
    // Nothing changes in loadavg: listed anyway after LIST_AT_LEAST_EVERY walks.
    fake_process(proc, 54, 5);
    let mut walks = 0;
    while listed_pids(&walk).len() == 3 {
        walk.read_tasks().expect("walks");
        walks += 1;
        assert!(walks <= new_pids::LIST_AT_LEAST_EVERY, "never listed");
    }
    assert_eq!(walks, new_pids::LIST_AT_LEAST_EVERY);
}

#[test]
fn without_a_loadavg_of_its_own_namespace_proc_is_listed_every_walk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let proc = dir.path();
    fake_process(proc, 60, 5);
    // Another process's pid in `self`: a /proc of another namespace (whose mountinfo
    // would do).
    std::os::unix::fs::symlink("1", proc.join("self")).expect("symlink");
    fs::create_dir_all(proc.join("1")).expect("mkdir");
    let mountinfo = format!("22 27 0:21 / {} rw - proc proc rw\n", proc.display());
    fs::write(proc.join("1/mountinfo"), mountinfo).expect("write");
    fs::write(proc.join("loadavg"), "0.00 0.01 0.05 1/90 60\n").expect("write");
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    fake_process(proc, 61, 5);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [60, 61]);
    // Its own namespace, but mounted with hidepid: listed every walk.
    fs::remove_file(proc.join("self")).expect("rm");
    fake_loadavg(proc, 90, 60);
    fake_mountinfo(proc, "rw,hidepid=invisible");
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    fake_process(proc, 62, 5);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [60, 61, 62]);
    // Its own namespace without hidepid, but no loadavg.
    fake_mountinfo(proc, "rw");
    fs::remove_file(proc.join("loadavg")).expect("rm");
    let mut walk = ProcWalk::new(proc);
    walk.read_tasks().expect("walks");
    fake_process(proc, 63, 5);
    walk.read_tasks().expect("walks");
    assert_eq!(listed_pids(&walk), [60, 61, 62, 63]);
}
