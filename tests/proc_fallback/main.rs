//! The /proc fallback's walk against the real /proc: thousands of processes read exactly,
//! files held open and closed as processes come and go (the fd count follows the process
//! count, nothing more), a reused pid read as the new process, `ringbar` under a low fd
//! limit still complete, held files that never outlive the reader's permission
//! (`privacy`), and rates over each process's own interval in a long walk (`rates`).
//! Needs root (a reused pid, `nobody`, a setuid binary, a hidepid mount).

#[path = "../common/mod.rs"]
mod common;

mod limits;
mod privacy;
mod rates;

use std::fs;
use std::path::Path;
use std::process::{Child, Command};

use common::*;
use ringbar::model::procstat::{parse_statm_resident, ProcStat};
use ringbar::model::record::TaskRecord;
use ringbar::records::procwalk::ProcWalk;

/// `count` sleeping processes named `name`, killed and reaped on drop.
pub struct Sleepers(Vec<Child>);

impl Sleepers {
    pub fn spawn(subjects: &Subjects, name: &str, count: usize) -> Sleepers {
        let program = subjects.program(name, "/bin/sleep");
        Sleepers(
            (0..count)
                .map(|_| Command::new(&program).arg("600").spawn().expect("spawn"))
                .collect(),
        )
    }

    pub fn pids(&self) -> Vec<u32> {
        self.0.iter().map(Child::id).collect()
    }

    /// Kills and reaps the first `n`.
    pub fn end(&mut self, n: usize) -> Vec<u32> {
        self.0
            .drain(..n)
            .map(|mut child| {
                let _ = child.kill();
                let _ = child.wait();
                child.id()
            })
            .collect()
    }
}

impl Drop for Sleepers {
    fn drop(&mut self) {
        let n = self.0.len();
        self.end(n);
    }
}

pub fn open_fds() -> usize {
    fs::read_dir("/proc/self/fd").expect("fds").count()
}

pub fn record(walk: &ProcWalk, pid: u32) -> Option<&TaskRecord> {
    walk.tasks().iter().find(|t| t.tgid == pid)
}

pub fn walk_n(walk: &mut ProcWalk, n: usize) {
    for _ in 0..n {
        walk.read_tasks().expect("walk");
    }
}

#[test]
fn three_thousand_processes_are_read_exactly_with_their_files_held() {
    require_root();
    let _serial = serial();
    ringbar::records::fdlimit::raise();
    let subjects = Subjects::new();
    let sleepers = Sleepers::spawn(&subjects, "rb-many", 3000);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let before = open_fds();
    let mut walk = ProcWalk::new(Path::new("/proc"));
    walk_n(&mut walk, 3);
    let held = open_fds() - before;
    assert!(
        held >= 3 * 3000,
        "{held} fds held for 3,000 processes and more"
    );
    walk.read_tasks().expect("walk");
    // Asleep, they do not change: each number equals what /proc says now.
    for pid in sleepers.pids() {
        let rec = record(&walk, pid).unwrap_or_else(|| panic!("{pid} listed"));
        let stat = read_proc(pid, "stat").expect("stat");
        let stat = ProcStat::parse(stat.as_bytes()).expect("parses");
        let statm = read_proc(pid, "statm").expect("statm");
        assert_eq!(name(&rec.comm), "rb-many");
        assert_eq!(rec.comm, stat.comm);
        assert_eq!(
            rec.rss_pages,
            parse_statm_resident(statm.as_bytes()).expect("rss")
        );
        assert_eq!(rec.state, stat.state);
        assert_eq!(rec.cpu_ns, stat.cpu_ticks * (1_000_000_000 / clock_hz()));
        assert_eq!(rec.read_bytes, proc_io(pid, "read_bytes"));
        assert_eq!(rec.write_bytes, proc_io(pid, "write_bytes"));
        assert_eq!(rec.flags, 0);
    }
}

fn clock_hz() -> u64 {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_CLK_TCK) as u64 }
}

#[test]
fn the_fd_count_follows_the_processes_over_many_samples_of_churn() {
    require_root();
    let _serial = serial();
    ringbar::records::fdlimit::raise();
    let subjects = Subjects::new();
    let mut sleepers = Sleepers::spawn(&subjects, "rb-churn", 600);
    let mut walk = ProcWalk::new(Path::new("/proc"));
    walk_n(&mut walk, 3);
    // Held: 3 per process listed in two walks in a row; what else this process holds
    // does not change. So fds - 3 × processes stays put, up to processes that started
    // or ended between the last two walks (another run shares the machine).
    let baseline = |walk: &ProcWalk| open_fds() as i64 - 3 * walk.tasks().len() as i64;
    let first = baseline(&walk);
    for round in 0..40 {
        let gone = sleepers.end(15);
        sleepers
            .0
            .append(&mut Sleepers::spawn(&subjects, "rb-churn", 15).0);
        walk_n(&mut walk, 2);
        for pid in gone {
            assert!(record(&walk, pid).is_none(), "{pid} ended but is listed");
        }
        for pid in sleepers.pids() {
            assert!(
                record(&walk, pid).is_some(),
                "{pid} is alive but not listed"
            );
        }
        let now = baseline(&walk);
        assert!(
            (now - first).abs() <= 30,
            "round {round}: fds beyond 3 per process went from {first} to {now}"
        );
    }
    // All gone: every file they held is closed.
    let listed_before = walk.tasks().len();
    let fds_before = open_fds();
    drop(sleepers);
    walk_n(&mut walk, 2);
    let closed = fds_before as i64 - open_fds() as i64;
    let ended = listed_before as i64 - walk.tasks().len() as i64;
    assert!(
        closed >= 3 * 600 - 30 && (closed - 3 * ended).abs() <= 30,
        "{closed} {ended}"
    );
}

#[test]
fn a_reused_pid_is_read_as_the_new_process() {
    require_root();
    let _serial = serial();
    let subjects = Subjects::new();
    let old_name = subjects.program("rb-old", "/bin/sleep");
    let new_name = subjects.program("rb-new", "/bin/sleep");
    let mut walk = ProcWalk::new(Path::new("/proc"));
    for _attempt in 0..100 {
        let mut old = Command::new(&old_name).arg("600").spawn().expect("spawn");
        let pid = old.id();
        walk_n(&mut walk, 2);
        let old_start = record(&walk, pid).expect("listed").leader_start_ns;
        old.kill().expect("kill");
        old.wait().expect("reap");
        std::thread::sleep(std::time::Duration::from_millis(20));
        // The next pid the kernel hands out is the old one (unless another fork wins).
        fs::write("/proc/sys/kernel/ns_last_pid", (pid - 1).to_string()).expect("ns_last_pid");
        let mut new = Command::new(&new_name).arg("600").spawn().expect("spawn");
        if new.id() != pid {
            let _ = new.kill();
            let _ = new.wait();
            continue;
        }
        walk.read_tasks().expect("walk");
        let rec = *record(&walk, pid).expect("the new process is listed");
        let stat = read_proc(pid, "stat").expect("stat");
        let stat = ProcStat::parse(stat.as_bytes()).expect("parses");
        assert_eq!(name(&rec.comm), "rb-new");
        assert_ne!(rec.leader_start_ns, old_start);
        assert_eq!(
            rec.leader_start_ns,
            stat.start_ticks * (1_000_000_000 / clock_hz())
        );
        // And from then on, through its own files.
        walk_n(&mut walk, 2);
        assert_eq!(name(&record(&walk, pid).expect("listed").comm), "rb-new");
        let _ = new.kill();
        let _ = new.wait();
        return;
    }
    panic!("no pid reused in 100 attempts");
}
