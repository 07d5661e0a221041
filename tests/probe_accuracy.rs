//! The real probe, loaded into the running kernel, checked against /proc with real
//! processes; and the /proc fallback collector held to the same checks (each test runs
//! once per source: `probe::…` and `proc_fallback::…`). Needs root.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use ringbar::collector::Collector;
use ringbar::model::{Row, Snapshot, TaskState, TopList};

/// Where a collector's task records come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Probe,
    Proc,
}

fn collector(source: Source, kernel_threads: bool) -> Collector {
    require_root();
    match source {
        Source::Probe => Collector::with_probe(kernel_threads).expect("the BPF probe loads"),
        Source::Proc => Collector::with_proc(kernel_threads),
    }
}

/// One `#[test]` per source for each check.
macro_rules! against_both_sources {
    ($($check:ident),* $(,)?) => {
        mod probe {
            $(#[test] fn $check() { super::$check(super::Source::Probe) })*
        }
        mod proc_fallback {
            $(#[test] fn $check() { super::$check(super::Source::Proc) })*
        }
    };
}

against_both_sources!(
    a_spinning_thread_is_one_full_core_and_the_total_matches_proc_stat,
    a_400_mb_process_is_in_the_memory_top_5_with_its_statm_rss,
    a_steady_writer_is_in_the_io_top_5_at_its_proc_io_rate,
    an_exec_shows_the_new_name_in_the_next_sample,
    an_unreaped_child_is_a_zombie_row_after_two_samples,
    short_lived_children_count_in_total_cpu_and_never_show_as_zombies,
    a_frozen_task_is_a_d_row,
    kernel_threads_are_listed_only_when_included,
    a_hostile_name_is_cut_to_15_bytes_and_kept_intact,
    ten_thousand_threads_are_all_counted,
);

fn sample(c: &mut Collector) -> Snapshot {
    c.sample().expect("sample");
    *c.snapshot()
}

fn find<const N: usize>(list: &TopList<N>, tgid: u32) -> Option<&Row> {
    list.rows().iter().find(|r| r.tgid == tgid)
}

fn a_spinning_thread_is_one_full_core_and_the_total_matches_proc_stat(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let spin = Subject::spawn(
        &subjects.program("rb-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let mut c = collector(source, false);
    std::thread::sleep(Duration::from_millis(200));

    let before = cpu_jiffies();
    sample(&mut c);
    std::thread::sleep(Duration::from_secs(2));
    let s = sample(&mut c);
    let after = cpu_jiffies();

    let row = find(&s.top_cpu, spin.pid()).expect("the spinner is in the CPU top 5");
    assert_eq!(name(&row.comm), "rb-spin");
    let percent = s.core_percent(row.value);
    assert!(
        (95.0..=105.0).contains(&percent),
        "spinner at {percent:.1}% of a core"
    );

    let total = s.cpu_percent().expect("rates");
    let truth = busy_percent(before, after);
    assert!(
        (total - truth).abs() <= 3.0,
        "total CPU {total:.1}% vs /proc/stat {truth:.1}%"
    );
}

fn a_400_mb_process_is_in_the_memory_top_5_with_its_statm_rss(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let perl = subjects.program("rb-mem", "/usr/bin/perl");
    let mut hog = Subject::spawn(
        &perl,
        &[
            "-e",
            "$| = 1; $x = 'a' x (400 * 1024 * 1024); print qq(ready\\n); sleep 600",
        ],
    );
    assert_eq!(hog.read_line(), "ready");
    let mut c = collector(source, false);
    sample(&mut c);
    std::thread::sleep(Duration::from_millis(200));
    let s = sample(&mut c);
    let truth = statm_rss_bytes(hog.pid());

    let row = find(&s.top_memory, hog.pid()).expect("the 400 MB process is in the memory top 5");
    assert_eq!(name(&row.comm), "rb-mem");
    assert!(truth > 400 << 20, "statm says {truth}");
    let error = (row.value as f64 - truth as f64).abs() / truth as f64;
    assert!(
        error <= 0.02,
        "RSS {} vs statm {truth}: {:.2}% off",
        row.value,
        error * 100.0
    );
}

/// A directory on a real filesystem: tmpfs writes are not storage IO.
fn disk_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("io-test");
    fs::create_dir_all(&dir).expect("create io test dir");
    dir
}

fn a_steady_writer_is_in_the_io_top_5_at_its_proc_io_rate(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let file = disk_dir().join(format!("writer-{}", std::process::id()));
    let script = format!(
        "open(my $f, '>', '{}') or die; my $b = 'x' x 65536; \
         while (1) {{ syswrite($f, $b) or die; select(undef, undef, undef, 0.01) }}",
        file.display()
    );
    let writer = Subject::spawn(
        &subjects.program("rb-write", "/usr/bin/perl"),
        &["-e", &script],
    );
    let mut c = collector(source, false);
    std::thread::sleep(Duration::from_millis(300));

    let started = Instant::now();
    let written_before = proc_io(writer.pid(), "write_bytes");
    sample(&mut c);
    std::thread::sleep(Duration::from_secs(2));
    let s = sample(&mut c);
    let written_after = proc_io(writer.pid(), "write_bytes");
    let truth = (written_after - written_before) as f64 / started.elapsed().as_secs_f64();
    drop(writer);
    let _ = fs::remove_file(&file);

    let row = find(&s.top_io, writer_pid(&s)).expect("the writer is in the IO top 5");
    assert_eq!(name(&row.comm), "rb-write");
    let rate = s.per_second(row.write);
    assert!(truth > 1e6, "the writer wrote only {truth:.0} B/s");
    let error = (rate - truth).abs() / truth;
    assert!(
        error <= 0.10,
        "IO {rate:.0} B/s vs /proc/PID/io {truth:.0} B/s: {:.1}% off",
        error * 100.0
    );
}

fn writer_pid(s: &Snapshot) -> u32 {
    s.top_io
        .rows()
        .iter()
        .find(|r| name(&r.comm) == "rb-write")
        .map_or(0, |r| r.tgid)
}

fn an_exec_shows_the_new_name_in_the_next_sample(source: Source) {
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

/// The name the latest sample gives the process `pid`.
fn listed_name(c: &Collector, pid: u32) -> String {
    let process = c.model().processes().by_tgid(pid);
    name(&process.expect("the subject is listed").comm)
}

fn zombie_rows(s: &Snapshot) -> Vec<(u32, String)> {
    s.stuck
        .rows()
        .filter(|(state, _)| *state == TaskState::Zombie)
        .map(|(_, r)| (r.tgid, name(&r.comm)))
        .collect()
}

fn an_unreaped_child_is_a_zombie_row_after_two_samples(source: Source) {
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

/// Children from fork() burning about 10 ms of CPU each, reaped at once. Prints "done".
const BURST: &str = "$| = 1; <STDIN>; for (1 .. 200) { my $pid = fork(); \
    if ($pid == 0) { my $x = 0; $x += $_ for 1 .. 150000; exit 0 } waitpid($pid, 0) } print qq(done\\n); sleep 600";

/// cutime + cstime of a process, in nanoseconds (USER_HZ is 100).
fn children_cpu_ns(pid: u32) -> u64 {
    let fields = stat_fields(pid).expect("stat");
    // Fields 16 and 17 of /proc/PID/stat; `fields` starts at field 3.
    let ticks: u64 =
        fields[13].parse::<u64>().expect("cutime") + fields[14].parse::<u64>().expect("cstime");
    ticks * 10_000_000
}

fn short_lived_children_count_in_total_cpu_and_never_show_as_zombies(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let mut burst = Subject::spawn(
        &subjects.program("rb-burst", "/usr/bin/perl"),
        &["-e", BURST],
    );
    // One collector only before and after the burst: every child is born and dies in
    // between, so all their CPU time arrives through the exit hook.
    let mut bracket = collector(source, false);
    // Another samples every 100 ms, looking for zombie rows.
    let mut watcher = collector(source, false);
    std::thread::sleep(Duration::from_millis(100));

    let before = cpu_jiffies();
    sample(&mut bracket);
    sample(&mut watcher);
    burst.send_line("go");
    let waiter = std::thread::spawn(move || {
        let line = burst.read_line();
        (burst, line)
    });
    while !waiter.is_finished() {
        std::thread::sleep(Duration::from_millis(100));
        let s = sample(&mut watcher);
        let zombies = zombie_rows(&s);
        assert!(
            !zombies.iter().any(|(_, n)| n == "rb-burst"),
            "reaped children shown as zombies: {zombies:?}"
        );
    }
    let (burst, line) = waiter.join().expect("burst");
    assert_eq!(line, "done");
    let s = sample(&mut bracket);
    let after = cpu_jiffies();

    let children = children_cpu_ns(burst.pid());
    assert!(
        children >= 500_000_000,
        "the children used only {children} ns"
    );
    // Only the probe sees each exit; the /proc walk gets the total from /proc/stat.
    if source == Source::Probe {
        assert!(
            s.exited_groups >= 200,
            "{} exited groups reported",
            s.exited_groups
        );
        let ratio = s.exited_cpu_ns as f64 / children as f64;
        assert!(
            (0.9..=1.15).contains(&ratio),
            "exit hook reported {} ns for children that used {children} ns",
            s.exited_cpu_ns
        );
    }
    let total = s.cpu_percent().expect("rates");
    let truth = busy_percent(before, after);
    assert!(
        (total - truth).abs() <= 3.0,
        "total CPU {total:.1}% vs /proc/stat {truth:.1}%"
    );
}

/// A cgroup of the v1 freezer, whose frozen tasks sleep in TASK_FROZEN (/proc shows D).
/// (The cgroup v2 freezer parks tasks in an interruptible sleep: S.)
struct FrozenCgroup {
    dir: PathBuf,
    _mount: Option<FreezerMount>,
}

/// A freezer hierarchy mounted for the test when the machine has none mounted.
struct FreezerMount(tempfile::TempDir);

impl Drop for FreezerMount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.0.path())
            .status();
    }
}

impl FrozenCgroup {
    fn new() -> FrozenCgroup {
        let mounts = fs::read_to_string("/proc/mounts").expect("/proc/mounts");
        let mounted = mounts.lines().find_map(|line| {
            let f: Vec<_> = line.split_whitespace().collect();
            (f.get(2) == Some(&"cgroup")
                && f.get(3)
                    .is_some_and(|o| o.split(',').any(|o| o == "freezer")))
            .then(|| PathBuf::from(f[1]))
        });
        let (root, mount) = match mounted {
            Some(root) => (root, None),
            None => {
                let dir = tempfile::tempdir().expect("tempdir");
                let status = std::process::Command::new("mount")
                    .args(["-t", "cgroup", "-o", "freezer", "ringbar-test"])
                    .arg(dir.path())
                    .status()
                    .expect("run mount");
                assert!(status.success(), "cannot mount the cgroup v1 freezer");
                (dir.path().to_owned(), Some(FreezerMount(dir)))
            }
        };
        let dir = root.join(format!("ringbar-test-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("create cgroup");
        FrozenCgroup { dir, _mount: mount }
    }

    fn freeze(&self, pid: u32) {
        fs::write(self.dir.join("tasks"), pid.to_string()).expect("move into cgroup");
        fs::write(self.dir.join("freezer.state"), "FROZEN").expect("freeze");
        wait_for("the cgroup to freeze", Duration::from_secs(5), || {
            fs::read_to_string(self.dir.join("freezer.state")).is_ok_and(|s| s.trim() == "FROZEN")
        });
    }
}

impl Drop for FrozenCgroup {
    fn drop(&mut self) {
        let _ = fs::write(self.dir.join("freezer.state"), "THAWED");
        if let Ok(tasks) = fs::read_to_string(self.dir.join("tasks")) {
            for pid in tasks.lines().filter_map(|p| p.parse::<i32>().ok()) {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        wait_for("the test cgroup to empty", Duration::from_secs(5), || {
            fs::read_to_string(self.dir.join("tasks")).map_or(true, |t| t.trim().is_empty())
        });
        let _ = fs::remove_dir(&self.dir);
    }
}

fn a_frozen_task_is_a_d_row(source: Source) {
    let _serial = serial();
    let subjects = Subjects::new();
    let sleeper = Subject::spawn(&subjects.program("rb-frozen", "/bin/sleep"), &["600"]);
    let cgroup = FrozenCgroup::new();
    cgroup.freeze(sleeper.pid());
    assert_eq!(
        state_of(sleeper.pid()),
        Some('D'),
        "/proc shows a frozen task as D"
    );

    let mut c = collector(source, false);
    let s = sample(&mut c);
    let rows: Vec<_> = s
        .stuck
        .rows()
        .map(|(state, r)| (state.letter(), r.tgid, name(&r.comm)))
        .collect();
    assert!(
        rows.contains(&('D', sleeper.pid(), "rb-frozen".to_owned())),
        "D row expected: {rows:?}"
    );
    drop(cgroup);
}

fn is_kernel_thread(pid: u32) -> bool {
    const PF_KTHREAD: u64 = 0x0020_0000;
    let flags: u64 = stat_fields(pid)
        .and_then(|f| f[6].parse().ok())
        .unwrap_or(0);
    flags & PF_KTHREAD != 0
}

fn all_rows(s: &Snapshot) -> Vec<Row> {
    let mut rows: Vec<Row> = s.top_cpu.rows().to_vec();
    rows.extend_from_slice(s.top_memory.rows());
    rows.extend_from_slice(s.top_io.rows());
    rows.extend(s.stuck.rows().map(|(_, r)| *r));
    rows
}

fn kernel_threads_are_listed_only_when_included(source: Source) {
    let _serial = serial();
    let mut c = collector(source, false);
    // Make kernel threads work: fsync'd writes wake the journal and writeback threads.
    // /proc counts CPU in 10 ms ticks, so a second of it may show no kernel thread yet:
    // work and sample again, up to 10 times, checking the filter every time.
    let file = disk_dir().join(format!("kthreads-{}", std::process::id()));
    sample(&mut c);
    let mut listed = Vec::new();
    for _ in 0..10 {
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            fs::write(&file, [1u8; 65536]).expect("write");
            fs::File::open(&file)
                .and_then(|f| f.sync_all())
                .expect("fsync");
            std::thread::sleep(Duration::from_millis(20));
        }
        c.set_kernel_threads(false);
        c.sample().expect("sample");

        let excluded = *c.snapshot();
        assert!(!excluded.kernel_threads);
        for row in all_rows(&excluded) {
            assert!(
                !row.kthread && !is_kernel_thread(row.tgid),
                "kernel thread {} listed while excluded",
                name(&row.comm)
            );
        }

        c.set_kernel_threads(true);
        let included = *c.snapshot();
        assert!(included.kernel_threads);
        // The toggle changes the lists, never the totals.
        assert_eq!(included.cpu_busy_ns, excluded.cpu_busy_ns);
        listed = all_rows(&included);
        if listed.iter().any(|r| r.kthread) {
            break;
        }
    }
    let _ = fs::remove_file(&file);
    let kthreads: Vec<_> = listed.iter().filter(|r| r.kthread).collect();
    assert!(
        !kthreads.is_empty(),
        "no kernel thread in the lists: {listed:?}"
    );
    for row in kthreads {
        assert!(
            is_kernel_thread(row.tgid),
            "{} ({}) is not a kernel thread",
            name(&row.comm),
            row.tgid
        );
    }
}

/// The /proc walk is the reference: sampled side by side, both collectors list the same
/// processes with the same names, states and memory.
#[test]
fn the_probe_agrees_with_the_proc_walk() {
    let _serial = serial();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("rb-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let mut probe = collector(Source::Probe, true);
    let mut walk = collector(Source::Proc, true);
    sample(&mut probe);
    sample(&mut walk);
    std::thread::sleep(Duration::from_secs(1));
    let by_probe = sample(&mut probe);
    let by_walk = sample(&mut walk);

    let probe_table = probe.model().processes();
    let walk_table = walk.model().processes();
    let (mut matched, mut missing) = (0, Vec::new());
    for p in walk_table.iter() {
        let Some(q) = probe_table.by_tgid(p.tgid) else {
            missing.push((p.tgid, name(&p.comm)));
            continue;
        };
        matched += 1;
        // /proc names a kworker with its current workqueue: `kworker/0:0H-kblockd`.
        if p.kthread && name(&p.comm).starts_with(&name(&q.comm)) {
            continue;
        }
        if p.comm != q.comm {
            // Only an exec between the two reads may change a name.
            assert_eq!(
                comm_of(p.tgid),
                None,
                "{} vs {}",
                name(&p.comm),
                name(&q.comm)
            );
            continue;
        }
        assert_eq!(p.kthread, q.kthread, "{}", name(&p.comm));
        assert_eq!(p.is_zombie(), q.is_zombie(), "{}", name(&p.comm));
        let (a, b) = (p.rss_pages as f64, q.rss_pages as f64);
        // The probe reads RSS from per-CPU counters' shared part: off by a batch at most.
        assert!(
            (a - b).abs() <= (a * 0.05).max(256.0),
            "{} RSS: /proc {a} pages, probe {b}",
            name(&p.comm)
        );
    }
    // Processes may start or end between the two walks, but hardly any.
    assert!(
        missing.len() <= 3 && matched >= 20,
        "matched {matched}; /proc lists but the probe does not: {missing:?}"
    );
    assert!(
        probe_table.len().abs_diff(walk_table.len()) <= 3,
        "{} vs {} processes",
        probe_table.len(),
        walk_table.len()
    );
    let (a, b) = (
        by_probe.cpu_percent().expect("rates"),
        by_walk.cpu_percent().expect("rates"),
    );
    assert!(
        (a - b).abs() <= 5.0,
        "total CPU: probe {a:.1}%, /proc {b:.1}%"
    );
}

/// A name with spaces, parentheses, markup characters and more than 15 bytes: the kernel
/// keeps 15, and both sources must report exactly those (/proc's stat line has a `)`
/// inside the name to trip up naive parsers).
fn a_hostile_name_is_cut_to_15_bytes_and_kept_intact(source: Source) {
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

/// One process with 10,000 threads: every thread is counted, none is lost, and the
/// probe's record buffer grows in the first sample only.
fn ten_thousand_threads_are_all_counted(source: Source) {
    const THREADS: usize = 10_000;
    let _serial = serial();
    let mut c = collector(source, false);
    sample(&mut c);
    let capacity_before = c.record_capacity();
    let tasks_before = c.snapshot().tasks as usize;

    let (release, wait) = std::sync::mpsc::channel::<()>();
    let wait = std::sync::Arc::new(std::sync::Mutex::new(wait));
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(THREADS + 1));
    let threads: Vec<_> = (0..THREADS)
        .map(|_| {
            let (wait, barrier) = (wait.clone(), barrier.clone());
            std::thread::Builder::new()
                .stack_size(64 * 1024)
                .spawn(move || {
                    barrier.wait();
                    // Blocks until the sender is dropped.
                    let _ = wait.lock().map(|w| w.recv());
                })
                .expect("spawn a thread")
        })
        .collect();
    barrier.wait();

    let me = std::process::id();
    let s = sample(&mut c);
    let grown = c.record_capacity();
    let process = *c
        .model()
        .processes()
        .by_tgid(me)
        .expect("this test is listed");
    assert!(
        process.threads as usize > THREADS || source == Source::Proc,
        "{} threads seen",
        process.threads
    );
    assert!(
        s.tasks as usize >= tasks_before + THREADS,
        "{} tasks after, {tasks_before} before",
        s.tasks
    );
    for _ in 0..3 {
        let again = sample(&mut c);
        assert!(again.tasks as usize >= tasks_before + THREADS);
        assert_eq!(c.record_capacity(), grown, "the buffer grows only once");
    }
    if source == Source::Probe {
        let (before, after) = (capacity_before.unwrap_or(0), grown.unwrap_or(0));
        assert!(
            after > before && after >= tasks_before + THREADS,
            "record buffer {before} → {after}"
        );
    }
    drop(release);
    for thread in threads {
        thread.join().expect("join");
    }
}
