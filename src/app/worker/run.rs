//! The sampling thread's loop: wait for the next sample's time or a request, apply the
//! requests, sample when due, hand over. Steady ticks allocate nothing.

use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use super::{Handover, Requests, Shared};
use crate::app::sampler::Sampler;

pub(super) struct Thread {
    pub shared: Arc<Shared>,
    pub handover: Arc<Handover>,
    pub interval_ms: u32,
    pub first_ms: u32,
}

fn ms(ms: u32) -> Duration {
    Duration::from_millis(u64::from(ms))
}

impl Thread {
    pub fn run(self, mut sampler: Sampler) {
        let mut interval = ms(self.interval_ms);
        // The gap after the next sample: the first interval is shorter, so that rates
        // show soon after start.
        let mut gap = ms(self.first_ms);
        let mut due = Instant::now();
        loop {
            let Some(mut requests) = self.wait(due) else {
                return;
            };
            let mut changed = apply(&mut sampler, &mut requests);
            if let Some(interval_ms) = requests.interval_ms {
                interval = ms(interval_ms);
                gap = interval;
            }
            let started = Instant::now();
            if requests.sample_now || started >= due {
                sampler.take();
                // A sample longer than the interval is followed by the next at once.
                due = started + gap;
                gap = interval;
                changed = true;
            }
            if changed {
                self.handover.publish(sampler.sample());
            }
        }
    }

    /// Waits until `due` or a request; returns the requests (none when it was time),
    /// or `None` when asked to stop.
    fn wait(&self, due: Instant) -> Option<Requests> {
        let mut requests = self.shared.requests();
        loop {
            if requests.stop {
                return None;
            }
            let now = Instant::now();
            if requests.any() || now >= due {
                return Some(std::mem::take(&mut *requests));
            }
            requests = self
                .shared
                .changed
                .wait_timeout(requests, due - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// Applies the settings asked for; returns whether the sample changed (re-ranked, new
/// sensors) without a new sample.
fn apply(sampler: &mut Sampler, requests: &mut Requests) -> bool {
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
    if let Some(wanted) = requests.wanted {
        sampler.set_wanted(wanted);
    }
    changed
}
