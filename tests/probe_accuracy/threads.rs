//! Kernel threads, and one process with 10,000 threads.

use std::fs;
use std::time::{Duration, Instant};

use crate::common::*;
use crate::*;

pub(crate) fn kernel_threads_are_listed_only_when_included(source: Source) {
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

/// One process with 10,000 threads: every thread is counted, none is lost, and the
/// probe's record buffer grows in the first sample only.
pub(crate) fn ten_thousand_threads_are_all_counted(source: Source) {
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
    // Other processes may end meanwhile on a busy machine: a little slack, far less than
    // one read(2) of the iterator holds (32 KiB, over 300 records), so a lost read shows.
    const OTHERS_ENDING: usize = 64;
    assert!(
        s.tasks as usize + OTHERS_ENDING >= tasks_before + THREADS,
        "{} tasks after, {tasks_before} before",
        s.tasks
    );
    for _ in 0..3 {
        let again = sample(&mut c);
        assert!(again.tasks as usize + OTHERS_ENDING >= tasks_before + THREADS);
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
