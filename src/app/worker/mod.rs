//! Sampling on its own thread, so that nothing slow runs on the GTK thread: the main loop
//! only renders the samples handed over to it (see [`handover`]).
//!
//! One thread, `ringbar-sampler`, owns the [`Sampler`] (the probe, the probe service's
//! client or the /proc walk, the sensors and the real names). It samples at once, again
//! after the first interval and then every interval, and hands each sample over. The main
//! loop's requests (a click, `ringbar msg`, a reload) wake it through a condition
//! variable: a new interval samples at once and restarts the interval from there; the
//! kernel-thread and group-by settings re-rank the latest sample and hand it over without
//! sampling. The thread must be spawned after the capabilities are dropped, since
//! capabilities belong to threads: it checks that it holds none before it samples.

mod handover;
mod run;
mod wake;

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

pub use handover::{Handover, Taken};
pub use wake::Watch;

use crate::app::sampler::Sampler;
use crate::config;
use crate::model::app::GroupBy;
use crate::sample::readings::Reader;
use crate::sample::{Notice, Sample};
use crate::sensors::Wanted;

/// The thread's name, as `/proc/PID/task/TID/comm` shows it (15 bytes at most).
pub const THREAD_NAME: &str = "ringbar-sampler";

/// What the main loop asked since the thread last looked; merged, the latest wins.
#[derive(Default)]
struct Requests {
    sample_now: bool,
    interval_ms: Option<u32>,
    kernel_threads: Option<bool>,
    group_by: Option<Option<GroupBy>>,
    group_by_toggles: u32,
    net_include_local: Option<bool>,
    sensors: Option<(config::Sensors, Vec<Notice>)>,
    readers: Option<Vec<Box<dyn Reader>>>,
    wanted: Option<Wanted>,
    stop: bool,
}

impl Requests {
    fn any(&self) -> bool {
        self.sample_now
            || self.interval_ms.is_some()
            || self.kernel_threads.is_some()
            || self.group_by.is_some()
            || self.group_by_toggles > 0
            || self.net_include_local.is_some()
            || self.sensors.is_some()
            || self.readers.is_some()
            || self.wanted.is_some()
            || self.stop
    }
}

struct Shared {
    requests: Mutex<Requests>,
    changed: Condvar,
}

impl Shared {
    fn requests(&self) -> MutexGuard<'_, Requests> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The main loop's handle on the sampling thread; the thread stops when it is dropped.
pub struct Worker {
    shared: Arc<Shared>,
    handover: Arc<Handover>,
}

impl Worker {
    /// Starts the sampling thread with `sampler`: a sample at once, the next after
    /// `first_ms`, then one every `interval_ms`. Returns the handle and the sampler's
    /// sample as it is before the first (what the main loop shows until then). Fails if
    /// the thread cannot start or still holds capabilities (spawned before they were
    /// dropped): nothing may sample with them.
    pub fn spawn(
        sampler: Sampler,
        interval_ms: u32,
        first_ms: u32,
    ) -> Result<(Worker, Sample), String> {
        let first = sampler.sample().clone();
        let handover = Arc::new(
            Handover::new(&first)
                .map_err(|err| format!("cannot make the sample hand-over: {err}"))?,
        );
        let shared = Arc::new(Shared {
            requests: Mutex::new(Requests::default()),
            changed: Condvar::new(),
        });
        let (checked, check) = std::sync::mpsc::sync_channel(1);
        let thread = run::Thread {
            shared: shared.clone(),
            handover: handover.clone(),
            interval_ms,
            first_ms,
        };
        std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let holds_none = crate::records::privileges::check_this_thread_holds_none();
                let ok = holds_none.is_ok();
                let _ = checked.send(holds_none);
                if ok {
                    thread.run(sampler);
                }
            })
            .map_err(|err| format!("cannot start the sampling thread: {err}"))?;
        check
            .recv()
            .map_err(|_| "the sampling thread ended at start".to_owned())??;
        Ok((Worker { shared, handover }, first))
    }

    fn request(&self, change: impl FnOnce(&mut Requests)) {
        change(&mut self.shared.requests());
        self.shared.changed.notify_one();
    }

    /// A sample now; the interval restarts from it.
    pub fn sample_now(&self) {
        self.request(|r| r.sample_now = true);
    }

    /// A new interval, from a sample taken now.
    pub fn set_interval_ms(&self, interval_ms: u32) {
        self.request(|r| {
            r.interval_ms = Some(interval_ms);
            r.sample_now = true;
        });
    }

    /// Re-ranks the latest sample with or without kernel threads and hands it over.
    pub fn set_kernel_threads(&self, include: bool) {
        self.request(|r| r.kernel_threads = Some(include));
    }

    /// The config's `group_by`; re-ranks and hands over.
    pub fn set_group_by(&self, group_by: Option<GroupBy>) {
        self.request(|r| {
            r.group_by = Some(group_by);
            r.group_by_toggles = 0;
        });
    }

    /// The config's `[network] include_loopback`; re-ranks and hands over.
    pub fn set_net_include_local(&self, include: bool) {
        self.request(|r| r.net_include_local = Some(include));
    }

    /// Apps instead of processes or back; re-ranks and hands over (the thread logs it).
    pub fn toggle_group_by(&self) {
        self.request(|r| r.group_by_toggles += 1);
    }

    /// Rediscovers the sensors for a changed `[sensors]` table (see
    /// [`Sampler::reconfigure`]) and takes the modules' `readers` from now on.
    pub fn reconfigure(
        &self,
        sensors: &config::Sensors,
        readers: Vec<Box<dyn Reader>>,
        config_notices: Vec<Notice>,
    ) {
        let sensors = sensors.clone();
        self.request(|r| {
            r.sensors = Some((sensors, config_notices));
            r.readers = Some(readers);
        });
    }

    /// The system readings the samples take from now on; with `sample_now`, a sample
    /// at once that has them (a tooltip that needs them just opened).
    pub fn set_wanted(&self, wanted: Wanted, sample_now: bool) {
        self.request(|r| {
            r.wanted = Some(wanted);
            r.sample_now |= sample_now;
        });
    }

    /// Where the finished samples wait for the main loop.
    pub fn handover(&self) -> &Arc<Handover> {
        &self.handover
    }
}

impl Drop for Worker {
    /// Asks the thread to stop after the sample it may be taking; does not wait for it.
    fn drop(&mut self) {
        self.request(|r| r.stop = true);
    }
}
