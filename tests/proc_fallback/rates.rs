//! Rates from a walk of thousands of processes: a walk takes a tenth of a second and no
//! two take as long, so a process read late in one walk and early in the next (or the
//! other way round) must have its rate over its own interval, not the walks' starts'.

use std::time::Duration;

use ringbar::records::collector::Collector;

use crate::common::*;
use crate::Sleepers;

#[test]
fn a_spinner_read_last_in_walks_of_three_thousand_has_its_true_share_of_a_core() {
    require_root();
    let _serial = serial();
    ringbar::records::fdlimit::raise();
    let subjects = Subjects::new();
    let _crowd = Sleepers::spawn(&subjects, "rb-crowd", 3000);
    // Started after the crowd, it has a higher pid: the walk reads it last.
    let spin = Subject::spawn(
        &subjects.program("rb-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    std::thread::sleep(Duration::from_millis(300));
    let mut c = Collector::with_proc(false);
    // The first walk reads and closes every file, the second opens them again and holds
    // them, the third reads the held files: the second is the longest by far.
    c.sample().expect("walk");
    c.sample().expect("walk");
    let spun = CpuShare::start(spin.pid());
    std::thread::sleep(Duration::from_millis(500));
    c.sample().expect("walk");
    let truth = spun.percent();

    let s = c.snapshot();
    let row = s
        .top_cpu
        .rows()
        .iter()
        .find(|r| r.tgid == spin.pid())
        .expect("the spinner is in the CPU top 5");
    let percent = s.core_percent(row.value);
    // /proc counts CPU time in ticks of 10 ms: 2 % of this interval each.
    assert!(
        (percent - truth).abs() <= 6.0,
        "spinner at {percent:.1}% of a core over {} ms, /proc/PID/schedstat says {truth:.1}%",
        s.interval_ns / 1_000_000
    );
}
