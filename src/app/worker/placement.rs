//! Where samples are taken, chosen by how long they take. A sample of the BPF probe
//! (some 30 to 400 µs) costs the main loop less than handing it over from a thread:
//! a thread wake-up, a copy of the sample and a second wake-up of the main loop. A
//! sample of the /proc walk (milliseconds, tens of them with thousands of processes)
//! would hold up drawing and input, so it stays on the sampling thread. The choice
//! follows the measured times both ways, with a margin between the two limits so that
//! a sample near one does not move sampling back and forth.

/// Samples move to the main loop after this many in a row took less than
/// [`MAIN_LOOP_BELOW_US`].
const CHEAP_STREAK: u32 = 8;
/// A sample this short is cheaper on the main loop than handed over.
const MAIN_LOOP_BELOW_US: u32 = 1000;
/// Samples move to the sampling thread after this many in a row took longer than
/// [`THREAD_ABOVE_US`]: one late sample (the CPU taken by another task) moves nothing.
const COSTLY_STREAK: u32 = 2;
/// A sample this long on the main loop would delay a frame noticeably.
const THREAD_ABOVE_US: u32 = 4000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    MainLoop,
    Thread,
}

#[derive(Debug)]
pub struct Placement {
    place: Place,
    /// Samples in a row that argue for the other place.
    streak: u32,
}

impl Placement {
    pub fn new(place: Place) -> Placement {
        Placement { place, streak: 0 }
    }

    #[cfg(test)]
    pub fn place(&self) -> Place {
        self.place
    }

    /// A sample took `sample_us`; returns the place samples should move to, if they
    /// should, and from then on counts from there.
    pub fn sampled(&mut self, sample_us: u32) -> Option<Place> {
        let (argues_to_move, streak_needed, other) = match self.place {
            Place::Thread => (
                sample_us < MAIN_LOOP_BELOW_US,
                CHEAP_STREAK,
                Place::MainLoop,
            ),
            Place::MainLoop => (sample_us > THREAD_ABOVE_US, COSTLY_STREAK, Place::Thread),
        };
        self.streak = if argues_to_move { self.streak + 1 } else { 0 };
        if self.streak < streak_needed {
            return None;
        }
        self.place = other;
        self.streak = 0;
        Some(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(placement: &mut Placement, times: &[u32]) -> Vec<Option<Place>> {
        times.iter().map(|&us| placement.sampled(us)).collect()
    }

    #[test]
    fn cheap_samples_move_to_the_main_loop_after_a_streak_and_an_outlier_restarts_it() {
        let mut placement = Placement::new(Place::Thread);
        let moves = feed(&mut placement, &[40, 50, 60, 30, 45, 2500, 40, 40]);
        assert!(moves.iter().all(Option::is_none), "{moves:?}");
        let moves = feed(&mut placement, &[40, 40, 40, 40, 40, 40]);
        assert_eq!(moves.last(), Some(&Some(Place::MainLoop)), "{moves:?}");
        assert_eq!(placement.place(), Place::MainLoop);
        assert_eq!(moves.iter().flatten().count(), 1);
    }

    #[test]
    fn costly_samples_leave_the_main_loop_but_one_late_sample_does_not() {
        let mut placement = Placement::new(Place::MainLoop);
        assert_eq!(feed(&mut placement, &[9000, 60, 9000, 3000]), vec![None; 4]);
        assert_eq!(placement.sampled(20_000), None);
        assert_eq!(placement.sampled(25_000), Some(Place::Thread));
        assert_eq!(placement.place(), Place::Thread);
        // Between the limits nothing moves, either way.
        assert_eq!(feed(&mut placement, &[2000; 20]), vec![None; 20]);
        placement = Placement::new(Place::MainLoop);
        assert_eq!(feed(&mut placement, &[2000; 20]), vec![None; 20]);
    }
}
