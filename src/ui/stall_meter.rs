//! For the tests and the benchmark only (feature `test-support`): how long the main loop
//! stalls. A 16 ms timer (a frame at 60 Hz) runs on the main loop; how late it fires is
//! the time the loop was busy elsewhere. Each time a sample is rendered the test hook
//! appends a line to its `stalls` file: the worst lateness since the previous sample,
//! how long that sample took to take (both in µs) and its interval (ms). While the bar
//! takes no sample (its layout shows none), a line `WORST 0 0` comes every 500 ms instead.

use std::cell::Cell;
use std::io::Write as _;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib;

use crate::sample::Sample;

const PERIOD: Duration = Duration::from_millis(16);
/// How often a line comes while the bar takes no sample.
const HEARTBEAT: Duration = Duration::from_millis(500);

pub struct StallMeter {
    /// The worst lateness since the last report, in µs.
    worst_us: Rc<Cell<u64>>,
    file: Rc<PathBuf>,
    _timer: glib::SourceId,
    /// The lines' timer while no sample comes.
    heartbeat: Cell<Option<glib::SourceId>>,
}

impl StallMeter {
    /// Starts the timer on the default main context; reports go to `file`.
    pub fn start(file: PathBuf) -> StallMeter {
        let worst_us = Rc::new(Cell::new(0));
        let worst = worst_us.clone();
        let mut last = Instant::now();
        // glib counts a timeout's next expiry from its dispatch: each interval is one
        // period plus the time the loop could not run the timer.
        let timer = glib::timeout_add_local(PERIOD, move || {
            let now = Instant::now();
            let late = now.duration_since(last).saturating_sub(PERIOD);
            last = now;
            let late_us = u64::try_from(late.as_micros()).unwrap_or(u64::MAX);
            worst.set(worst.get().max(late_us));
            glib::ControlFlow::Continue
        });
        let _ = std::fs::remove_file(&file);
        StallMeter {
            worst_us,
            file: Rc::new(file),
            _timer: timer,
            heartbeat: Cell::new(None),
        }
    }

    /// The bar takes samples (`true`), or none: then the lines come from a timer.
    pub fn set_sampling(&self, sampling: bool) {
        let running = self.heartbeat.take();
        match (sampling, running) {
            (true, Some(heartbeat)) => heartbeat.remove(),
            (false, None) => {
                let (worst, file) = (self.worst_us.clone(), self.file.clone());
                let heartbeat = glib::timeout_add_local(HEARTBEAT, move || {
                    append(&file, worst.replace(0), 0, 0);
                    glib::ControlFlow::Continue
                });
                self.heartbeat.set(Some(heartbeat));
            }
            (_, running) => self.heartbeat.set(running),
        }
    }

    /// Appends `worst_stall_us sample_us interval_ms` for `sample` and starts over.
    pub fn report(&self, sample: &Sample) {
        let worst = self.worst_us.replace(0);
        append(&self.file, worst, sample.sample_us, sample.interval_ms);
    }
}

fn append(file: &std::path::Path, worst_us: u64, sample_us: u32, interval_ms: u32) {
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .and_then(|mut out| writeln!(out, "{worst_us} {sample_us} {interval_ms}"));
    if let Err(err) = appended {
        tracing::warn!("test hook: writing {}: {err}", file.display());
    }
}
