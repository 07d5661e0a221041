//! The hand-over of finished samples from the sampling thread to the main loop: one slot
//! under a mutex and an eventfd that wakes the main loop.
//!
//! Three samples exist, each allocated once: the sampler's own, the slot's and the main
//! loop's. The sampling thread copies its sample into the slot with `clone_from` (into
//! the slot's buffers); the main loop swaps the slot's sample with its own, so the slot
//! then holds the older buffers for the next copy. Once warm nothing allocates, at most
//! one sample waits, and a sample not yet taken is overwritten: the newest wins.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::{Mutex, MutexGuard, PoisonError};

use rustix::event::{eventfd, EventfdFlags};

use crate::sample::Sample;

/// What [`Handover::take`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    Nothing,
    /// A new sample; whether its notices differ from the previous one's (the bar's
    /// marker then changes).
    Sample {
        notices_changed: bool,
    },
}

impl Taken {
    pub fn any(self) -> bool {
        self != Taken::Nothing
    }
}

pub struct Handover {
    slot: Mutex<Slot>,
    /// Readable while a sample waits (or just was taken: a spurious wake-up is harmless).
    wake: OwnedFd,
}

struct Slot {
    sample: Sample,
    /// Whether `sample` came since the main loop last took one.
    fresh: bool,
}

impl Handover {
    /// An empty slot whose buffers start as copies of `first`.
    pub fn new(first: &Sample) -> io::Result<Handover> {
        let wake = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)?;
        Ok(Handover {
            slot: Mutex::new(Slot {
                sample: first.clone(),
                fresh: false,
            }),
            wake,
        })
    }

    fn slot(&self) -> MutexGuard<'_, Slot> {
        // A panic while holding the lock cannot leave a half-copied sample that matters:
        // the next copy overwrites it.
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The sampling thread: puts a copy of `sample` in the slot, over one not yet taken,
    /// and wakes the main loop if it was not already woken for that one.
    pub fn publish(&self, sample: &Sample) {
        let mut slot = self.slot();
        slot.sample.clone_from(sample);
        let wake = !slot.fresh;
        slot.fresh = true;
        drop(slot);
        if wake {
            self.ring();
        }
    }

    /// Wakes the main loop without a sample (the sampling thread handed its sampler back).
    pub fn ring(&self) {
        // The counter only saturates after 2^64 - 2 unread wake-ups; an error here (none
        // is possible on a valid eventfd) would only delay the main loop.
        let _ = rustix::io::write(&self.wake, &1u64.to_ne_bytes());
    }

    /// The main loop: swaps the newest sample into `latest` if one came since the last
    /// call (the old one's buffers go back to the slot), and says so. Clears the wake-up
    /// first, so a sample published meanwhile wakes the loop again.
    pub fn take(&self, latest: &mut Sample) -> Taken {
        let mut count = [0u8; 8];
        // EAGAIN when nothing was written since the last read: nothing to clear.
        let _ = rustix::io::read(&self.wake, &mut count[..]);
        let mut slot = self.slot();
        if !slot.fresh {
            return Taken::Nothing;
        }
        slot.fresh = false;
        std::mem::swap(&mut slot.sample, latest);
        Taken::Sample {
            notices_changed: slot.sample.notices != latest.notices,
        }
    }

    /// The fd the main loop watches: readable when a sample waits.
    pub fn wake_fd(&self) -> BorrowedFd<'_> {
        self.wake.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Notice;

    fn readable(fd: BorrowedFd<'_>) -> bool {
        let mut fds = [rustix::event::PollFd::new(
            &fd,
            rustix::event::PollFlags::IN,
        )];
        rustix::event::poll(&mut fds, Some(&rustix::event::Timespec::default())).unwrap_or(0) == 1
    }

    fn stamped(unix_ms: u64) -> Sample {
        Sample {
            unix_ms,
            ..Sample::default()
        }
    }

    #[test]
    fn the_newest_sample_wins_and_one_wake_up_takes_it() {
        let handover = Handover::new(&Sample::default()).expect("eventfd");
        let mut latest = Sample::default();
        assert!(!readable(handover.wake_fd()));
        assert_eq!(handover.take(&mut latest), Taken::Nothing, "none yet");
        for unix_ms in [1000, 2000, 3000] {
            handover.publish(&stamped(unix_ms));
        }
        assert!(readable(handover.wake_fd()));
        let unchanged = Taken::Sample {
            notices_changed: false,
        };
        assert_eq!(handover.take(&mut latest), unchanged);
        assert_eq!(latest.unix_ms, 3000, "the newest of the three");
        assert!(!readable(handover.wake_fd()), "taking clears the wake-up");
        assert_eq!(
            handover.take(&mut latest),
            Taken::Nothing,
            "taken once only"
        );
        assert_eq!(latest.unix_ms, 3000);
        let mut noticed = stamped(4000);
        noticed.notices.push(Notice::new("config", "broken"));
        handover.publish(&noticed);
        assert!(readable(handover.wake_fd()), "a later sample wakes again");
        let changed = Taken::Sample {
            notices_changed: true,
        };
        assert_eq!(handover.take(&mut latest), changed);
        assert_eq!(latest.unix_ms, 4000);
    }
}
