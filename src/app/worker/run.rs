//! The sampling thread's loop: wait for the next sample's time or a request, apply the
//! requests, sample when due, hand over. Steady ticks allocate nothing.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use super::{Handover, Parked, Requests};
use crate::app::sampler::Sampler;

/// What the main loop and the sampling thread share: the requests, their wake-up, and
/// the sampler once handed back.
pub(super) struct Shared {
    requests: Mutex<Requests>,
    changed: Condvar,
    /// The sampler, once the thread parked it when asked to hand it back.
    parked: Mutex<Option<Parked>>,
}

impl Shared {
    pub fn new() -> Shared {
        Shared {
            requests: Mutex::new(Requests::default()),
            changed: Condvar::new(),
            parked: Mutex::new(None),
        }
    }

    pub fn requests(&self) -> MutexGuard<'_, Requests> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn changed(&self) -> &Condvar {
        &self.changed
    }

    pub fn parked(&self) -> MutexGuard<'_, Option<Parked>> {
        self.parked.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Samples from `parked` until asked to stop, or to hand the sampler back: then it is
/// parked in `shared`, with the requests not yet applied, and the main loop woken.
pub(super) fn run(shared: &Shared, handover: &Handover, parked: Parked) {
    let Parked {
        mut sampler,
        mut schedule,
        requests: mut pending,
    } = parked;
    loop {
        let mut requests = std::mem::take(&mut pending);
        let Some(asked) = wait(shared, schedule.due(), requests.any()) else {
            return;
        };
        requests.then(asked);
        if requests.hand_back {
            requests.hand_back = false;
            *shared.parked() = Some(Parked {
                sampler,
                schedule,
                requests,
            });
            handover.ring();
            return;
        }
        let mut changed = apply(&mut sampler, &mut requests);
        let started = Instant::now();
        if schedule.follow(&requests, started) {
            // A baseline (the first sample after a pause) is not shown, nor what changed
            // with it: the next sample, a short gap later, shows both.
            let shown = !schedule.baseline();
            sampler.take();
            schedule.sampled(started);
            changed = shown;
        }
        if changed {
            handover.publish(sampler.sample());
        }
    }
}

/// Waits until `due` or a request (not at all when `pending`); returns the requests
/// (none when it was time), or `None` when asked to stop.
fn wait(shared: &Shared, due: Instant, pending: bool) -> Option<Requests> {
    let mut requests = shared.requests();
    loop {
        if requests.stop {
            return None;
        }
        let now = Instant::now();
        if pending || requests.any() || now >= due {
            return Some(std::mem::take(&mut *requests));
        }
        requests = shared
            .changed()
            .wait_timeout(requests, due - now)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// Applies the settings asked for; returns whether the sample changed (re-ranked, new
/// sensors) without a new sample.
pub(super) fn apply(sampler: &mut Sampler, requests: &mut Requests) -> bool {
    let mut changed = false;
    if let Some((sensors, notices)) = requests.sensors.take() {
        sampler.reconfigure(&sensors, notices);
        changed = true;
    }
    if let Some(readers) = requests.readers.take() {
        sampler.set_readers(readers);
        changed = true;
    }
    if let Some(group_by) = requests.group_by {
        sampler.set_group_by(group_by);
        changed = true;
    }
    if let Some(include) = requests.net_include_local {
        sampler.set_net_include_local(include);
        changed = true;
    }
    for _ in 0..requests.group_by_toggles {
        let group_by = sampler.toggle_group_by();
        tracing::info!("group-by={}", group_by.name());
        changed = true;
    }
    if let Some(include) = requests.kernel_threads {
        sampler.set_kernel_threads(include);
        changed = true;
    }
    if let Some(interval_ms) = requests.interval_ms {
        sampler.set_interval_ms(interval_ms);
    }
    // Not taken: the schedule follows it too.
    if let Some(sampling) = requests.sampling {
        sampler.set_sampling(sampling);
    }
    if let Some(wanted) = requests.wanted {
        sampler.set_wanted(wanted);
    }
    changed
}
