//! When the next sample is due, wherever samples are taken: at once at start, the next
//! after a shorter first gap (so that rates show soon), then every interval. A new
//! interval samples at once and restarts from there; a sample longer than the interval
//! is followed by the next at once. While the layout shows nothing of the samples, none
//! is due; the first after that is due at once, as a baseline: the samples before are
//! from before the pause, and rates against them would be over the pause. It is not
//! shown; the next, the short first gap later, is.

use std::time::{Duration, Instant};

/// While no sample is due, the sampling still looks this often whether one is (it is
/// woken at once by any request anyway).
const IDLE_LOOK: Duration = Duration::from_secs(3600);

fn ms(ms: u32) -> Duration {
    Duration::from_millis(u64::from(ms))
}

#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    interval: Duration,
    /// The gap after the next sample: shorter than the interval only for the first.
    gap: Duration,
    /// The first gap, again after a pause (at most the interval).
    first: Duration,
    due: Instant,
    /// Whether samples are due at all.
    sampling: bool,
    /// Whether the sample due is a baseline after a pause (see [`Schedule::baseline`]).
    baseline: bool,
}

impl Schedule {
    /// A sample due now, the next `first_ms` after it, then every `interval_ms`.
    pub fn new(interval_ms: u32, first_ms: u32) -> Schedule {
        Schedule {
            interval: ms(interval_ms),
            gap: ms(first_ms),
            first: ms(first_ms),
            due: Instant::now(),
            sampling: true,
            baseline: false,
        }
    }

    /// Whether samples are due (`false`: none, until it is `true` again: then at once).
    pub fn set_sampling(&mut self, sampling: bool) {
        if sampling && !self.sampling {
            self.due = Instant::now();
            self.gap = self.first.min(self.interval);
            self.baseline = true;
        }
        self.sampling = sampling;
    }

    /// Every `interval_ms` from the next sample on.
    pub fn set_interval_ms(&mut self, interval_ms: u32) {
        self.interval = ms(interval_ms);
        if !self.baseline {
            self.gap = self.interval;
        }
    }

    /// Whether the sample due is the first after a pause: taken only as the baseline of
    /// the next one's rates, and not shown.
    pub fn baseline(&self) -> bool {
        self.baseline
    }

    pub fn due(&self) -> Instant {
        match self.sampling {
            true => self.due,
            false => Instant::now() + IDLE_LOOK,
        }
    }

    /// Follows the requests' new interval and sampling; says whether to sample at
    /// `now`: when due, or asked (`sample_now`), unless sampling is off.
    pub fn follow(&mut self, requests: &super::Requests, now: Instant) -> bool {
        if let Some(interval_ms) = requests.interval_ms {
            self.set_interval_ms(interval_ms);
        }
        if let Some(sampling) = requests.sampling {
            self.set_sampling(sampling);
        }
        self.sampling && (requests.sample_now || now >= self.due)
    }

    /// A sample was started at `started`: the next is due a gap later.
    pub fn sampled(&mut self, started: Instant) {
        self.due = started + self.gap;
        self.gap = self.interval;
        self.baseline = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_gap_is_short_then_every_interval_and_a_new_interval_restarts() {
        let mut schedule = Schedule::new(2000, 250);
        let start = schedule.due();
        assert!(start <= Instant::now(), "the first sample is due at once");
        schedule.sampled(start);
        assert_eq!(schedule.due(), start + ms(250));
        schedule.sampled(schedule.due());
        assert_eq!(schedule.due(), start + ms(2250));
        schedule.set_interval_ms(500);
        let clicked = start + ms(2300);
        schedule.sampled(clicked);
        assert_eq!(schedule.due(), clicked + ms(500));
    }

    #[test]
    fn no_sample_is_due_while_sampling_is_off_and_one_at_once_when_it_is_on_again() {
        let mut schedule = Schedule::new(2000, 250);
        schedule.sampled(schedule.due());
        schedule.set_sampling(false);
        assert!(schedule.due() >= Instant::now() + IDLE_LOOK - ms(1000));
        schedule.set_sampling(false);
        assert!(schedule.due() > Instant::now() + ms(2000));
        let before = Instant::now();
        schedule.set_sampling(true);
        assert!(schedule.due() >= before && schedule.due() <= Instant::now());
    }

    #[test]
    fn the_first_sample_after_a_pause_is_a_baseline_followed_by_the_short_gap() {
        let mut schedule = Schedule::new(2000, 250);
        assert!(!schedule.baseline(), "the first at start is shown");
        schedule.sampled(schedule.due());
        schedule.sampled(schedule.due());
        assert!(!schedule.baseline());
        schedule.set_sampling(false);
        schedule.set_sampling(true);
        assert!(schedule.baseline());
        // A new interval meanwhile keeps the short gap after the baseline.
        schedule.set_interval_ms(1000);
        let resumed = schedule.due();
        schedule.sampled(resumed);
        assert!(!schedule.baseline(), "the next one is shown");
        assert_eq!(schedule.due(), resumed + ms(250));
        schedule.sampled(schedule.due());
        assert_eq!(schedule.due(), resumed + ms(1250));
        // The short gap is never longer than the interval.
        schedule.set_interval_ms(100);
        schedule.set_sampling(false);
        schedule.set_sampling(true);
        let resumed = schedule.due();
        schedule.sampled(resumed);
        assert_eq!(schedule.due(), resumed + ms(100));
    }
}
