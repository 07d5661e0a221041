//! CPU time: a spinning thread, and short-lived children counted in the total.

use std::time::Duration;

use ringbar::model::record::{EXIT_FREED, RECORD_OOM};
use ringbar::model::ExitRecord;
use ringbar::records::probe::Probe;

use crate::common::*;
use crate::*;

pub(crate) fn a_spinning_thread_matches_its_schedstat_and_the_total_matches_proc_stat(
    source: Source,
) {
    let _serial = serial();
    let subjects = Subjects::new();
    let spin = Subject::spawn(
        &subjects.program("rb-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let mut c = collector(source, false);
    std::thread::sleep(Duration::from_millis(200));

    // The truth for the spinner is its own runtime from /proc/PID/schedstat (ns), over the
    // same window: on a busy machine it gets less than a core, and the sample must say so.
    let spun = CpuShare::start(spin.pid());
    sample(&mut c);
    // The machine's, from the end of one sample to the end of the next, as the samples
    // read it: a walk of /proc of thousands of processes is a tenth of a second of a busy
    // core, which a window around both walks would count once too often.
    let before = cpu_jiffies();
    std::thread::sleep(Duration::from_secs(2));
    let s = sample(&mut c);
    let spun_percent = spun.percent();
    let after = cpu_jiffies();

    let row = find(&s.top_cpu, spin.pid()).expect("the spinner is in the CPU top 5");
    assert_eq!(name(&row.comm), "rb-spin");
    let percent = s.core_percent(row.value);
    assert!(
        (percent - spun_percent).abs() <= 3.0 && percent > 50.0,
        "spinner at {percent:.1}% of a core, /proc/PID/schedstat says {spun_percent:.1}%"
    );

    let total = s.cpu_percent().expect("rates");
    let truth = busy_percent(before, after);
    assert!(
        (total - truth).abs() <= 3.0,
        "total CPU {total:.1}% vs /proc/stat {truth:.1}%"
    );
}

/// 200 children from fork() one after the other, each busy for 4 ms of its own CPU time
/// (a fixed count of iterations used from 420 ms to over a second in all, depending on
/// the host), reaped at once. Prints "done".
const BURST: &str = "use Time::HiRes qw(clock_gettime CLOCK_PROCESS_CPUTIME_ID); $| = 1; <STDIN>; \
    for (1 .. 200) { my $pid = fork(); if ($pid == 0) { \
    1 while clock_gettime(CLOCK_PROCESS_CPUTIME_ID) < 0.004; exit 0 } waitpid($pid, 0) } \
    print qq(done\\n); sleep 600";

const MS: u64 = 1_000_000;

/// The exit reports of a probe of the test's own.
struct ExitReports {
    probe: Probe,
    records: Vec<ExitRecord>,
}

impl ExitReports {
    fn load() -> ExitReports {
        ExitReports {
            probe: Probe::load().expect("the BPF probe loads"),
            records: Vec::new(),
        }
    }

    /// Drops the reports so far.
    fn forget(&mut self) {
        self.probe.drain_exits(&mut self.records).expect("drain");
        self.records.clear();
    }

    /// The reports since [`Self::forget`]: the final CPU time of the processes named
    /// `comm`, how many they were, how many of them ended with exactly one freed report
    /// (`EXIT_FREED`, the last), how many have no freed report yet, and the final CPU
    /// time of all the others.
    fn take(&mut self, comm: &str) -> (u64, usize, usize, usize, u64) {
        self.probe.drain_exits(&mut self.records).expect("drain");
        // A group's last report is its final total.
        let mut finals = std::collections::HashMap::new();
        for exit in self.records.iter().filter(|e| e.flags & RECORD_OOM == 0) {
            let group = finals
                .entry((exit.tgid, exit.leader_start_ns))
                .or_insert(Group::default());
            group.cpu_ns = group.cpu_ns.max(exit.cpu_ns);
            group.named = name(&exit.comm) == comm;
            let freed = exit.flags & EXIT_FREED != 0;
            group.freed_reports += u32::from(freed);
            group.last_freed = freed;
        }
        let named = finals.values().filter(|g| g.named);
        let others = finals.values().filter(|g| !g.named);
        (
            named.clone().map(|g| g.cpu_ns).sum(),
            named.clone().count(),
            named
                .clone()
                .filter(|g| g.freed_reports == 1 && g.last_freed)
                .count(),
            named.filter(|g| g.freed_reports == 0).count(),
            others.map(|g| g.cpu_ns).sum(),
        )
    }
}

/// One group's exit reports, as [`ExitReports::take`] saw them.
#[derive(Default)]
struct Group {
    cpu_ns: u64,
    named: bool,
    freed_reports: u32,
    last_freed: bool,
}

/// cutime + cstime of a process, in nanoseconds (USER_HZ is 100).
fn children_cpu_ns(pid: u32) -> u64 {
    let fields = stat_fields(pid).expect("stat");
    // Fields 16 and 17 of /proc/PID/stat; `fields` starts at field 3.
    let ticks: u64 =
        fields[13].parse::<u64>().expect("cutime") + fields[14].parse::<u64>().expect("cstime");
    ticks * 10_000_000
}

pub(crate) fn short_lived_children_count_in_total_cpu_and_never_show_as_zombies(source: Source) {
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
    // The probe's raw exit reports over the same bracket, per process: the truth the
    // model's sum is held to, which also shows any other process that ended meanwhile.
    let mut reports = (source == Source::Probe).then(ExitReports::load);
    std::thread::sleep(Duration::from_millis(100));
    // Processes of earlier tests are freed after an RCU grace period, which lazy RCU may
    // put off for seconds: flushed now, their final reports fall before the bracket.
    flush_rcu_callbacks();

    if let Some(reports) = &mut reports {
        reports.forget();
    }
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
    // The children's final reports (when each is freed) inside the bracket.
    flush_rcu_callbacks();
    let s = sample(&mut bracket);
    let after = cpu_jiffies();

    let children = children_cpu_ns(burst.pid());
    assert!(
        children >= 500_000_000,
        "the children used only {children} ns"
    );
    // Only the probe sees each exit; the /proc walk gets the total from /proc/stat.
    if let Some(reports) = &mut reports {
        let (reported, groups, freed, unfreed, others) = reports.take("rb-burst");
        assert!(
            groups >= 200 && s.exited_groups >= 200,
            "{groups} and {} exited groups reported",
            s.exited_groups
        );
        // Each child freed inside the bracket says so in its last report, and only there:
        // the model forgets a group at that report. The kernel frees a reaped child after
        // an RCU grace period, once its last switch away is done too; here it now and then
        // kept one child for over 40 s even through rcu_barrier(), so a few may still
        // have their exit report alone.
        assert!(
            freed + unfreed == groups && unfreed <= groups / 50,
            "of {groups} children {freed} ended with one freed report, {unfreed} with none"
        );
        // The children's own final reports against what their parent reaped (cutime and
        // cstime, whole 10 ms ticks: up to 10 ms less).
        let ratio = reported as f64 / children as f64;
        assert!(
            (0.98..=1.05).contains(&ratio),
            "the exit hook reported {reported} ns for children that used {children} ns"
        );
        // The model counts each child once, and of any other process at most its whole
        // life (1 ms for rounding).
        let counted = s.exited_cpu_ns;
        assert!(
            counted + MS >= reported && counted <= reported + others + MS,
            "the model counted {counted} ns of exits: the children reported {reported} ns, \
             other processes {others} ns"
        );
    }
    let total = s.cpu_percent().expect("rates");
    let truth = busy_percent(before, after);
    // /proc/stat counts whole ticks (USER_HZ) per CPU, sampled at each tick: over this
    // one-second burst both its counters are off by a few ticks at each end, which is
    // worth about 2 points here on top of the 3 the model may differ by.
    let ticks = (after.1 - before.1) as f64;
    let tick_slack = 4.0 / ticks * 100.0;
    assert!(
        (total - truth).abs() <= 3.0 + tick_slack,
        "total CPU {total:.1}% vs /proc/stat {truth:.1}% ({ticks} ticks)"
    );
}
