//! The probe and the /proc walk side by side.

use std::time::Duration;

use crate::common::*;
use crate::*;

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
    // The two collectors sample one after the other, so their windows are offset by a
    // walk; /proc/stat read after each sample tells how busy each window really was.
    sample(&mut probe);
    let probe_start = cpu_jiffies();
    sample(&mut walk);
    let walk_start = cpu_jiffies();
    std::thread::sleep(Duration::from_secs(1));
    let by_probe = sample(&mut probe);
    let probe_window = busy_percent(probe_start, cpu_jiffies());
    let by_walk = sample(&mut walk);
    let walk_window = busy_percent(walk_start, cpu_jiffies());

    let probe_table = probe.model().processes();
    let walk_table = walk.model().processes();
    let (mut matched, mut missing, mut renamed) = (0, Vec::new(), Vec::new());
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
            // Only an exec between the two reads may change a name (a shell's child
            // becoming `sleep`): asked again below.
            renamed.push(p.tgid);
            continue;
        }
        assert_eq!(p.kthread, q.kthread, "{}", name(&p.comm));
        assert_eq!(p.is_zombie(), q.is_zombie(), "{}", name(&p.comm));
        let (a, b) = (p.rss_pages as f64, q.rss_pages as f64);
        // The probe reads RSS from per-CPU counters' shared part: off by a batch at most.
        let close = |x: f64, y: f64| (x - y).abs() <= (x * 0.05).max(256.0);
        if !close(a, b) {
            // A process whose memory moves on its own (a compiler on a busy machine) can
            // differ between two reads; one that holds still must agree.
            let now = read_proc(p.tgid, "statm")
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<f64>().ok());
            let moving = now.is_none_or(|now| !close(a, now));
            assert!(moving, "{} RSS: /proc {a} pages, probe {b}", name(&p.comm));
        }
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
    // A burst of other load in one window and not the other moves both /proc/stat and
    // that collector: what must agree is the difference once the windows' own is taken out.
    let offset = probe_window - walk_window;
    assert!(
        (a - b - offset).abs() <= 5.0,
        "total CPU: probe {a:.1}% over a window /proc/stat has at {probe_window:.1}%, \
         /proc walk {b:.1}% over one at {walk_window:.1}%"
    );
    // A name that differed: a new sample names each process that still runs as /proc
    // does now, unless it changed its name again meanwhile.
    if !renamed.is_empty() {
        let before: Vec<Option<String>> = renamed.iter().map(|&tgid| comm_of(tgid)).collect();
        sample(&mut probe);
        for (tgid, before) in renamed.into_iter().zip(before) {
            let named = probe
                .model()
                .processes()
                .by_tgid(tgid)
                .map(|q| name(&q.comm));
            let after = comm_of(tgid);
            if let (Some(shown), Some(now), true) = (named, &after, before == after) {
                assert_eq!(&shown, now, "the probe names {tgid} {shown}, /proc {now}");
            }
        }
    }
}
