//! Each user's share of the service's CPU time for walks. A walk costs the service, not
//! the client, so without a bound one user could make the service (outside that user's
//! own CPU limits) walk without pause. Each user gets [`WALK_TIME_PER_SECOND`], with up to
//! [`WALK_TIME_BURST`] saved up; a request beyond it waits for its share. What a request
//! cost the service is charged to its user: the walk, the copy, the messages. A bar at
//! 100 ms spends a few percent of the share; `ringbar --bench 2000` some of its burst.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The service's CPU time a user earns per second: 5 % of a CPU.
pub const WALK_TIME_PER_SECOND: Duration = Duration::from_millis(50);
/// The most a user saves up.
pub const WALK_TIME_BURST: Duration = Duration::from_secs(2);

#[derive(Default)]
pub struct WalkBudgets {
    /// Per uid: seconds of walking left (below zero after a walk that overdrew), as of when.
    users: HashMap<u32, (f64, Instant)>,
}

impl WalkBudgets {
    /// Seconds of walking `uid` has left at `now`.
    fn left(&self, uid: u32, now: Instant) -> f64 {
        let burst = WALK_TIME_BURST.as_secs_f64();
        self.users.get(&uid).map_or(burst, |&(left, at)| {
            let earned = now.saturating_duration_since(at).as_secs_f64()
                * WALK_TIME_PER_SECOND.as_secs_f64();
            (left + earned).min(burst)
        })
    }

    /// Whether `uid` may walk at `now`.
    pub fn allows(&self, uid: u32, now: Instant) -> bool {
        self.left(uid, now) > 0.0
    }

    /// When `uid` may walk again.
    pub fn next_allowed(&self, uid: u32, now: Instant) -> Instant {
        let owed = -self.left(uid, now);
        if owed < 0.0 {
            return now;
        }
        // Just past the point where it is even again.
        let wait = owed / WALK_TIME_PER_SECOND.as_secs_f64() + 1e-4;
        now + Duration::from_secs_f64(wait)
    }

    /// Charges a walk of `spent`, done at `now`, to `uid`.
    pub fn charge(&mut self, uid: u32, spent: Duration, now: Instant) {
        let left = self.left(uid, now) - spent.as_secs_f64();
        self.users.insert(uid, (left, now));
        // Users back at their full burst need no entry: the map stays as small as the
        // users who walked lately.
        let burst = WALK_TIME_BURST.as_secs_f64();
        let full: Vec<u32> = self
            .users
            .keys()
            .copied()
            .filter(|&uid| self.left(uid, now) >= burst)
            .collect();
        for uid in full {
            self.users.remove(&uid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_walks_its_burst_then_its_share() {
        let mut budgets = WalkBudgets::default();
        let start = Instant::now();
        let walk = Duration::from_millis(10);
        // A full burst: 2 s of walking at once.
        let mut now = start;
        for _ in 0..200 {
            assert!(budgets.allows(1000, now));
            budgets.charge(1000, walk, now);
        }
        assert!(!budgets.allows(1000, now), "the burst is spent");
        assert!(budgets.allows(1001, now), "another user is not held up");
        // Then 50 ms per second: one 10 ms walk every 200 ms.
        let next = budgets.next_allowed(1000, now);
        assert!(next > now && next <= now + Duration::from_millis(1));
        now = next;
        assert!(budgets.allows(1000, now));
        budgets.charge(1000, walk, now);
        let next = budgets.next_allowed(1000, now);
        let wait = next - now;
        assert!(
            wait >= Duration::from_millis(199) && wait <= Duration::from_millis(201),
            "{wait:?}"
        );
        // Saved up again after 50 s idle, and forgotten when full.
        now += Duration::from_secs(50);
        budgets.charge(1001, walk, now);
        assert!(
            !budgets.users.contains_key(&1000),
            "a full user has no entry"
        );
        assert_eq!(budgets.next_allowed(1000, now), now);
    }

    #[test]
    fn a_bar_at_100_ms_is_never_held() {
        let mut budgets = WalkBudgets::default();
        let mut now = Instant::now();
        for _ in 0..100_000 {
            assert!(budgets.allows(7, now));
            budgets.charge(7, Duration::from_micros(200), now);
            now += Duration::from_millis(100);
        }
    }
}
