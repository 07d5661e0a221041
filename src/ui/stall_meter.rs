//! For the tests and the benchmark only (feature `test-support`): how long the main loop
//! stalls. A 16 ms timer (a frame at 60 Hz) runs on the main loop; how late it fires is
//! the time the loop was busy elsewhere. Each time a sample is rendered the test hook
//! appends a line to its `stalls` file: the worst lateness since the previous sample,
//! how long that sample took to take (both in µs) and its interval (ms).

use std::cell::Cell;
use std::io::Write as _;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib;

use crate::sample::Sample;

const PERIOD: Duration = Duration::from_millis(16);

pub struct StallMeter {
    /// The worst lateness since the last report, in µs.
    worst_us: Rc<Cell<u64>>,
    file: PathBuf,
    _timer: glib::SourceId,
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
            file,
            _timer: timer,
        }
    }

    /// Appends `worst_stall_us sample_us interval_ms` for `sample` and starts over.
    pub fn report(&self, sample: &Sample) {
        let worst = self.worst_us.replace(0);
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.file)
            .and_then(|mut file| {
                writeln!(file, "{worst} {} {}", sample.sample_us, sample.interval_ms)
            });
        if let Err(err) = appended {
            tracing::warn!("test hook: writing {}: {err}", self.file.display());
        }
    }
}
