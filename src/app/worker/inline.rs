//! Sampling on the main loop, while samples are cheap (see [`super::placement`]): the
//! main loop owns the sampler, the ticker wakes it when a sample is due or a request
//! came, and the sample is rendered from the sampler's own buffers, with no copy.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use super::schedule::Schedule;
use super::ticker::Ticker;
use super::{run, Parked, Requests, Taken};
use crate::app::sampler::Sampler;
use crate::sample::{Notice, Sample};

pub(super) struct Inline {
    sampler: Sampler,
    schedule: Schedule,
    ticker: Arc<Ticker>,
    /// What was asked since the last tick; a request makes the next tick come at once.
    /// (A cell: requests come from callbacks that may run while the sample is read.)
    requests: RefCell<Requests>,
    /// The notices of the latest sample, to tell when they change.
    notices: Vec<Notice>,
}

impl Inline {
    /// Samples on the main loop from `parked` on; `notices` are those the main loop
    /// shows. The ticker rings at once if requests came with it, else when due.
    pub fn new(parked: Parked, ticker: Arc<Ticker>, notices: Vec<Notice>) -> Inline {
        let inline = Inline {
            sampler: parked.sampler,
            schedule: parked.schedule,
            ticker,
            requests: RefCell::new(parked.requests),
            notices,
        };
        inline.arm();
        inline
    }

    fn arm(&self) {
        if self.requests.borrow().any() {
            self.ticker.arm_at(Instant::now());
        } else {
            self.ticker.arm_at(self.schedule.due());
        }
    }

    /// Takes a request, applied at the next tick, which comes at once.
    pub fn request(&self, change: impl FnOnce(&mut Requests)) {
        change(&mut self.requests.borrow_mut());
        self.arm();
    }

    /// The ticker rang: applies the requests, samples if one is due or asked for, and
    /// says whether the sample changed. Steady ticks allocate nothing.
    pub fn tick(&mut self) -> Taken {
        self.ticker.clear();
        let mut requests = self.requests.take();
        let mut changed = run::apply(&mut self.sampler, &mut requests);
        let started = Instant::now();
        if self.schedule.follow(&requests, started) {
            // A baseline is not shown (see `run::run`).
            let shown = !self.schedule.baseline();
            self.sampler.take();
            self.schedule.sampled(started);
            changed = shown;
        }
        self.arm();
        if !changed {
            return Taken::Nothing;
        }
        let notices = &self.sampler.sample().notices;
        let notices_changed = *notices != self.notices;
        if notices_changed {
            self.notices.clone_from(notices);
        }
        Taken::Sample { notices_changed }
    }

    pub fn sample(&self) -> &Sample {
        self.sampler.sample()
    }

    /// The sampler and its schedule, for the sampling thread; the ticker stops.
    pub fn park(self) -> Parked {
        self.ticker.disarm();
        Parked {
            sampler: self.sampler,
            schedule: self.schedule,
            requests: self.requests.into_inner(),
        }
    }
}
