//! Section 7: the /proc fallback's walk (files held open, read with `pread`, listed with
//! `getdents64`) against a plain walk that opens, reads and closes `stat`, `statm` and
//! `io` of every process, the way the fallback did before. Both parse the same text with
//! the same parsers; they alternate, round by round, in this process (root: every `io`
//! is readable, so neither skips anything).

use std::fs::{self, File};
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use ringbar::model::procstat::{parse_io, parse_statm_resident, ProcStat};
use ringbar::records::procwalk::ProcWalk;

use crate::common::crowd::processes_on_machine;
use crate::common::crowd::Crowd;
use crate::report::{median, Report};

const ROUNDS: usize = 9;
const WALKS_PER_ROUND: usize = 10;

/// The plain walk: `read_dir`, then open, read whole, close each file. Returns the
/// processes read and a checksum of what was parsed (so nothing is optimised away).
fn plain_walk(buf: &mut Vec<u8>) -> (usize, u64) {
    let read = |path: &Path, buf: &mut Vec<u8>| -> bool {
        buf.clear();
        File::open(path)
            .and_then(|mut f| f.read_to_end(buf))
            .is_ok()
    };
    let (mut processes, mut sum) = (0, 0u64);
    for entry in fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let dir = Path::new("/proc").join(pid.to_string());
        if !read(&dir.join("stat"), buf) {
            continue;
        }
        let Some(stat) = ProcStat::parse(buf) else {
            continue;
        };
        let rss = if read(&dir.join("statm"), buf) {
            parse_statm_resident(buf).unwrap_or(0)
        } else {
            0
        };
        let io = if read(&dir.join("io"), buf) {
            parse_io(buf).map_or(0, |(r, w)| r ^ w)
        } else {
            0
        };
        processes += 1;
        sum = sum.wrapping_add(stat.cpu_ticks ^ rss ^ io);
    }
    (processes, sum)
}

/// Median µs per walk of `walk`, run `WALKS_PER_ROUND` times.
fn time_round(mut walk: impl FnMut() -> usize) -> (f64, usize) {
    let mut micros = Vec::with_capacity(WALKS_PER_ROUND);
    let mut listed = 0;
    for _ in 0..WALKS_PER_ROUND {
        let started = Instant::now();
        listed = walk();
        micros.push(started.elapsed().as_secs_f64() * 1e6);
    }
    (median(&mut micros), listed)
}

/// The ratio plain / held at about 3,000 processes (for the goals table).
pub fn fallback_walks(report: &mut Report) -> f64 {
    report.heading("8. The /proc fallback: held files vs a plain open/read/close walk");
    ringbar::records::fdlimit::raise();
    let mut rows = Vec::new();
    let mut at_3000 = 0.0;
    for target in [300usize, 3000] {
        let _crowd = Crowd::sleepers(target.saturating_sub(processes_on_machine()));
        std::thread::sleep(Duration::from_secs(2));
        let mut walk = ProcWalk::new(Path::new("/proc"));
        let mut buf = Vec::with_capacity(4096);
        // Warm-up: the second walk opens the files the later ones read.
        for _ in 0..3 {
            walk.read_tasks().expect("walk");
            std::hint::black_box(plain_walk(&mut buf));
        }
        let (mut plain, mut held, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut processes = 0;
        for _ in 0..ROUNDS {
            let (a, _) = time_round(|| std::hint::black_box(plain_walk(&mut buf)).0);
            let (b, n) = time_round(|| {
                walk.read_tasks().expect("walk");
                walk.tasks().len()
            });
            plain.push(a);
            held.push(b);
            ratios.push(a / b);
            processes = n;
        }
        let fds = fs::read_dir("/proc/self/fd").map_or(0, |d| d.count());
        let (a, b, ratio) = (median(&mut plain), median(&mut held), median(&mut ratios));
        if target == 3000 {
            at_3000 = ratio;
        }
        rows.push(vec![
            format!("about {target} processes"),
            processes.to_string(),
            format!("{a:.0}"),
            format!("{b:.0}"),
            format!("{ratio:.1}×"),
            fds.to_string(),
        ]);
    }
    report.table(
        &[
            "scenario",
            "processes",
            "plain walk median µs",
            "fallback walk median µs",
            "ratio (median of rounds)",
            "fds of the bench",
        ],
        &rows,
    );
    report.note(&format!(
        "{ROUNDS} rounds of {WALKS_PER_ROUND} walks each way, alternating; the ratio is the \
         median over rounds of plain/fallback. Records only (no model update). The fallback \
         holds `stat`, `statm` and `io` of every process seen in two walks in a row (3 fds \
         each, within the fd budget), lists /proc with getdents64 into a 64 KiB buffer and \
         reads each file with one pread at offset 0."
    ));
    at_3000
}
