//! The main loop's tick while it takes the samples itself: a CLOCK_MONOTONIC timerfd,
//! made once and armed for each sample, so that a tick allocates nothing and costs one
//! wake-up.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::Instant;

use rustix::time::{
    timerfd_create, timerfd_settime, Itimerspec, TimerfdClockId, TimerfdFlags, TimerfdTimerFlags,
    Timespec,
};

pub struct Ticker {
    fd: OwnedFd,
}

impl Ticker {
    pub fn new() -> io::Result<Ticker> {
        let flags = TimerfdFlags::NONBLOCK | TimerfdFlags::CLOEXEC;
        let fd = timerfd_create(TimerfdClockId::Monotonic, flags)?;
        Ok(Ticker { fd })
    }

    /// Readable at `due` (at once if it is past), replacing any earlier arming.
    pub fn arm_at(&self, due: Instant) {
        let wait = due.saturating_duration_since(Instant::now());
        // A zero value disarms a timerfd: the least wait is a nanosecond.
        let nanos = wait.subsec_nanos().max(u32::from(wait.as_secs() == 0));
        self.set(Timespec {
            tv_sec: wait.as_secs().try_into().unwrap_or(i64::MAX),
            tv_nsec: nanos.into(),
        });
    }

    /// Never readable until armed again.
    pub fn disarm(&self) {
        self.set(Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        });
        self.clear();
    }

    fn set(&self, value: Timespec) {
        let spec = Itimerspec {
            it_interval: Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            },
            it_value: value,
        };
        // Fails only for an invalid fd or value, neither of which this can pass.
        let _ = timerfd_settime(&self.fd, TimerfdTimerFlags::empty(), &spec);
    }

    /// Takes the expiry, so that the fd is no longer readable.
    pub fn clear(&self) {
        let mut expirations = [0u8; 8];
        // EAGAIN when it has not expired: nothing to clear.
        let _ = rustix::io::read(&self.fd, &mut expirations);
    }

    pub fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn readable(ticker: &Ticker, within: Duration) -> bool {
        let fd = ticker.fd();
        let mut fds = [rustix::event::PollFd::new(
            &fd,
            rustix::event::PollFlags::IN,
        )];
        let timeout = rustix::event::Timespec::try_from(within).expect("timeout");
        rustix::event::poll(&mut fds, Some(&timeout)).unwrap_or(0) == 1
    }

    #[test]
    fn rings_when_due_or_at_once_when_past_and_not_when_disarmed() {
        let ticker = Ticker::new().expect("timerfd");
        assert!(!readable(&ticker, Duration::ZERO), "not armed yet");
        ticker.arm_at(Instant::now() + Duration::from_millis(300));
        assert!(!readable(&ticker, Duration::from_millis(50)), "not due yet");
        assert!(readable(&ticker, Duration::from_secs(2)), "due");
        ticker.clear();
        assert!(!readable(&ticker, Duration::ZERO), "cleared");
        ticker.arm_at(Instant::now() - Duration::from_secs(1));
        assert!(readable(&ticker, Duration::from_secs(1)), "past: at once");
        ticker.arm_at(Instant::now() + Duration::from_millis(100));
        ticker.disarm();
        assert!(!readable(&ticker, Duration::from_millis(300)), "disarmed");
    }
}
