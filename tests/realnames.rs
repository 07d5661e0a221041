//! Real names for the rows shown, from real processes: a python3 script, a program whose
//! name is longer than `comm`'s 15 bytes, processes whose argv[0] lies, a kernel thread.

mod common;

use std::fs;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::time::Duration;

use ringbar::model::top::Row;
use ringbar::model::Snapshot;
use ringbar::records::realnames::RealNames;

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn comm_of(pid: u32) -> [u8; 16] {
    let name = common::comm_of(pid).expect("comm");
    let mut comm = [0u8; 16];
    comm[..name.len()].copy_from_slice(name.as_bytes());
    comm
}

/// The name `RealNames` gives a row of process `pid` (a kernel thread if `kthread`).
fn shown(names: &mut RealNames, pid: u32, start_ns: u64, kthread: bool) -> String {
    let mut snap = Snapshot::default();
    snap.top_memory.offer(Row {
        tgid: pid,
        start_ns,
        comm: comm_of(pid),
        kthread,
        value: 1,
        ..Row::default()
    });
    names.name_rows(&mut snap);
    String::from_utf8_lossy(snap.top_memory.rows()[0].name()).into_owned()
}

#[test]
fn rows_show_the_script_the_whole_name_and_never_a_lying_argv0() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("rb_sync_job.py");
    fs::write(&script, "import time\nwhile True:\n    time.sleep(1)\n").expect("script");
    let python = Killed(
        Command::new("python3")
            .arg(&script)
            .spawn()
            .expect("python3"),
    );
    let long_path = dir.path().join("rb-a-very-long-program-name");
    std::os::unix::fs::symlink("/bin/sleep", &long_path).expect("symlink");
    let long = Killed(Command::new(&long_path).arg("1000").spawn().expect("long"));
    let liar = Killed(
        Command::new("/bin/sleep")
            .arg0("firefox")
            .arg("1000")
            .spawn()
            .expect("liar"),
    );
    let long_liar = Killed(
        Command::new(&long_path)
            .arg0("/usr/lib/firefox/firefox")
            .arg("1000")
            .spawn()
            .expect("long liar"),
    );
    std::thread::sleep(Duration::from_millis(300));

    let mut names = RealNames::default();
    assert_eq!(common::comm_of(python.0.id()).as_deref(), Some("python3"));
    assert_eq!(shown(&mut names, python.0.id(), 1, false), "rb_sync_job.py");
    assert_eq!(
        common::comm_of(long.0.id()).as_deref(),
        Some("rb-a-very-long-")
    );
    assert_eq!(
        shown(&mut names, long.0.id(), 1, false),
        "rb-a-very-long-program-name"
    );
    assert_eq!(shown(&mut names, liar.0.id(), 1, false), "sleep");
    assert_eq!(
        shown(&mut names, long_liar.0.id(), 1, false),
        "rb-a-very-long-",
        "argv[0] that does not extend comm is not believed"
    );
    // kthreadd (PID 2) is a kernel thread: it keeps its comm, and nothing is read.
    assert_eq!(shown(&mut names, 2, 1, true), "kthreadd");
    assert!(!names.is_cached(2, 1));

    // Cached by (PID, start time): a process that reused the PID is read again.
    assert!(names.is_cached(python.0.id(), 1));
    assert!(!names.is_cached(python.0.id(), 2));
    assert_eq!(shown(&mut names, python.0.id(), 2, false), "rb_sync_job.py");
    assert!(names.is_cached(python.0.id(), 2));
}

#[test]
fn the_bar_s_lists_carry_the_real_names() {
    common::require_root();
    let _serial = common::serial();
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("rb_hog.py");
    // Holds 200 MiB so that it ranks among the top 5 by memory.
    fs::write(
        &script,
        "import time\nx = bytearray(200 << 20)\nfor i in range(0, len(x), 4096): x[i] = 1\ntime.sleep(1000)\n",
    )
    .expect("script");
    let hog = Killed(
        Command::new("python3")
            .arg(&script)
            .spawn()
            .expect("python3"),
    );
    std::thread::sleep(Duration::from_millis(800));
    let mut sampler = common::probe_sampler();
    sampler.take();
    let sample = sampler.take();
    let row = sample
        .processes
        .top_memory
        .rows()
        .iter()
        .find(|r| r.tgid == hog.0.id())
        .expect("the hog among the top 5 by memory");
    assert_eq!(String::from_utf8_lossy(row.name()), "rb_hog.py");
    let json = ringbar::sinks::json::document(
        &common::input(sample),
        &ringbar::config::Config::default()
            .modules
            .all()
            .cloned()
            .collect::<Vec<_>>(),
    );
    let names: Vec<_> = json["memory"]["top"]
        .as_array()
        .expect("top")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert!(names.contains(&"rb_hog.py"), "{names:?}");
}
