//! How often a burst of changes is drawn. A player that sends 3000 signals in a second,
//! or a terminal that retitles its window at every keystroke, would otherwise have the
//! bar lay its labels out once per turn of the main loop. The first change after a quiet
//! spell is drawn at once; the ones that follow within [`GAP`] are drawn together, once,
//! when the gap is over. So nothing is late by more than a frame, and a burst costs at
//! most one drawing per frame.

use std::time::{Duration, Instant};

/// One frame at 60 Hz: more often than this, nobody sees the difference.
pub const GAP: Duration = Duration::from_millis(16);

/// When one kind of change is drawn.
#[derive(Debug, Default)]
pub struct Pacer {
    last_drawn: Option<Instant>,
    /// A change waits for the gap to end; later ones join it.
    holding: bool,
}

/// What to do with a change.
#[derive(Debug, PartialEq, Eq)]
pub enum Pace {
    /// Draw it now.
    Now,
    /// Draw it after this long, then call [`Pacer::release`].
    After(Duration),
    /// A drawing is already due: it will show this change too.
    Joined,
}

impl Pacer {
    /// A change came at `now`.
    pub fn changed(&mut self, now: Instant) -> Pace {
        if self.holding {
            return Pace::Joined;
        }
        match self.last_drawn {
            Some(last) if now < last + GAP => {
                self.holding = true;
                Pace::After(last + GAP - now)
            }
            _ => {
                self.last_drawn = Some(now);
                Pace::Now
            }
        }
    }

    /// The changes held were drawn at `now`.
    pub fn release(&mut self, now: Instant) {
        self.holding = false;
        self.last_drawn = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_change_is_drawn_at_once() {
        let start = Instant::now();
        let mut pacer = Pacer::default();
        assert_eq!(pacer.changed(start), Pace::Now);
        assert_eq!(pacer.changed(start + GAP), Pace::Now);
        assert_eq!(pacer.changed(start + GAP * 5), Pace::Now);
    }

    #[test]
    fn a_burst_is_drawn_once_per_gap_and_its_last_change_is_not_lost() {
        let start = Instant::now();
        let mut pacer = Pacer::default();
        let mut drawn = 0;
        let mut due: Option<Instant> = None;
        // 3000 changes over 300 ms, one every 100 µs.
        for i in 0..3000u32 {
            let now = start + Duration::from_micros(100) * i;
            if let Some(at) = due.filter(|at| *at <= now) {
                pacer.release(at);
                drawn += 1;
                due = None;
            }
            match pacer.changed(now) {
                Pace::Now => drawn += 1,
                Pace::After(wait) => {
                    assert!(wait <= GAP && due.is_none());
                    due = Some(now + wait);
                }
                Pace::Joined => assert!(due.is_some()),
            }
        }
        // The last change is held, and drawn when its gap ends.
        assert!(due.is_some(), "the burst's last change waits for a drawing");
        drawn += 1;
        let most = Duration::from_millis(300).as_millis() / GAP.as_millis() + 2;
        assert!(
            (2..=most as u32).contains(&drawn),
            "{drawn} drawings, at most {most}"
        );
    }

    #[test]
    fn after_a_held_drawing_the_next_change_waits_for_the_gap_again() {
        let start = Instant::now();
        let mut pacer = Pacer::default();
        assert_eq!(pacer.changed(start), Pace::Now);
        let ms = Duration::from_millis;
        assert_eq!(pacer.changed(start + ms(4)), Pace::After(GAP - ms(4)));
        assert_eq!(pacer.changed(start + ms(5)), Pace::Joined);
        pacer.release(start + GAP);
        assert_eq!(pacer.changed(start + GAP + ms(1)), Pace::After(GAP - ms(1)));
    }
}
