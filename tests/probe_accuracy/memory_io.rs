//! Memory and storage IO against /proc/PID/statm and /proc/PID/io.

use std::fs;
use std::time::{Duration, Instant};

use ringbar::model::Snapshot;

use crate::common::*;
use crate::*;

pub(crate) fn a_400_mb_process_is_in_the_memory_top_5_with_its_statm_rss(source: Source) {
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

pub(crate) fn a_steady_writer_is_in_the_io_top_5_at_its_proc_io_rate(source: Source) {
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
