//! When the next sample is due, wherever samples are taken: at once at start, the next
//! after a shorter first gap (so that rates show soon), then every interval. A new
//! interval samples at once and restarts from there; a sample longer than the interval
//! is followed by the next at once.

use std::time::{Duration, Instant};

fn ms(ms: u32) -> Duration {
    Duration::from_millis(u64::from(ms))
}

#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    interval: Duration,
    /// The gap after the next sample: shorter than the interval only for the first.
    gap: Duration,
    due: Instant,
}

impl Schedule {
    /// A sample due now, the next `first_ms` after it, then every `interval_ms`.
    pub fn new(interval_ms: u32, first_ms: u32) -> Schedule {
        Schedule {
            interval: ms(interval_ms),
            gap: ms(first_ms),
            due: Instant::now(),
        }
    }

    /// Every `interval_ms` from the next sample on.
    pub fn set_interval_ms(&mut self, interval_ms: u32) {
        self.interval = ms(interval_ms);
        self.gap = self.interval;
    }

    pub fn due(&self) -> Instant {
        self.due
    }

    /// A sample was started at `started`: the next is due a gap later.
    pub fn sampled(&mut self, started: Instant) {
        self.due = started + self.gap;
        self.gap = self.interval;
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
}
