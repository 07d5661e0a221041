//! The main loop's stalls, as the test hook writes them (`stalls`: one line per sample,
//! the worst delay of a 16 ms timer since the previous sample, in µs, first), next to
//! the same timer in the test's own process: a machine that stops every process for a
//! moment (a virtual machine whose host takes its CPUs) shows there too, and is not the
//! bar waiting.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const PERIOD: Duration = Duration::from_millis(16);
/// Longer than any frame the bar should miss, shorter than a request's timeout.
const LIMIT_US: u64 = 250_000;

/// The worst stall of each sample so far, in µs.
pub fn worst_per_sample(hook_dir: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(hook_dir.join("stalls")).unwrap_or_default();
    text.lines()
        .filter_map(|line| line.split(' ').next()?.parse().ok())
        .collect()
}

/// The bar's stalls from now on, measured beside a 16 ms timer in this process.
pub struct Window {
    hook_dir: std::path::PathBuf,
    before: usize,
    stop: Arc<AtomicBool>,
    machine_worst_us: Arc<AtomicU64>,
    timer: Option<JoinHandle<()>>,
}

impl Window {
    pub fn open(hook_dir: &Path) -> Window {
        let stop = Arc::new(AtomicBool::new(false));
        let machine_worst_us = Arc::new(AtomicU64::new(0));
        let timer = {
            let (stop, worst) = (stop.clone(), machine_worst_us.clone());
            std::thread::spawn(move || {
                let mut last = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(PERIOD);
                    let now = Instant::now();
                    let late = now.duration_since(last).saturating_sub(PERIOD);
                    last = now;
                    let late_us = u64::try_from(late.as_micros()).unwrap_or(u64::MAX);
                    worst.fetch_max(late_us, Ordering::Relaxed);
                }
            })
        };
        Window {
            hook_dir: hook_dir.to_path_buf(),
            before: worst_per_sample(hook_dir).len(),
            stop,
            machine_worst_us,
            timer: Some(timer),
        }
    }

    /// Stops the window: the bar's worst stall of each sample since it opened, and the
    /// test's own timer's worst delay meanwhile (both µs).
    pub fn close(mut self) -> (Vec<u64>, u64) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(timer) = self.timer.take() {
            timer.join().expect("the test's own timer");
        }
        let machine_us = self.machine_worst_us.load(Ordering::Relaxed);
        let stalls = worst_per_sample(&self.hook_dir);
        (stalls[self.before.min(stalls.len())..].to_vec(), machine_us)
    }

    /// Asserts that the samples since the window opened went on (at least three) and
    /// the main loop never stalled 250 ms or more beyond what the machine itself stalled
    /// meanwhile: nothing waited for `what`.
    pub fn assert_on_time(self, what: &str) {
        let (since, machine_us) = self.close();
        assert!(since.len() >= 3, "samples went on: {since:?}");
        assert!(
            since.iter().all(|&us| us < LIMIT_US + machine_us),
            "the main loop waited for {what}: {since:?} µs (the test's own timer was \
             {machine_us} µs late at worst meanwhile)"
        );
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
