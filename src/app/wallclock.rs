//! The local wall clock for modules (glib's DateTime), and a timer that fires at a
//! wall-clock instant: right after a suspend, at once when the clock is set, and again
//! when the time zone changes.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

use gtk4::prelude::*;
use gtk4::{gio, glib};

use crate::modules::{Date, WallClock};

/// The local time, its zone read afresh on every use: `TZ` when set, else
/// `/etc/localtime`, so a change of time zone shows at the next tick. (glib's own local
/// zone is cached for the life of the process.)
pub struct LocalClock;

fn now() -> Option<glib::DateTime> {
    let identifier = std::env::var("TZ").unwrap_or_else(|_| ":/etc/localtime".to_owned());
    let zone = glib::TimeZone::new(Some(&identifier));
    glib::DateTime::now(&zone).ok()
}

impl WallClock for LocalClock {
    fn unix_ms(&self) -> u64 {
        crate::records::unix_ms_now()
    }

    fn format(&self, format: &str, out: &mut String) {
        match now().and_then(|time| time.format(format).ok()) {
            Some(text) => out.push_str(&text),
            // Not a format glib can use (it says nothing about why).
            None => out.push('–'),
        }
    }

    fn format_date(&self, date: Date, format: &str, out: &mut String) {
        let identifier = std::env::var("TZ").unwrap_or_else(|_| ":/etc/localtime".to_owned());
        let zone = glib::TimeZone::new(Some(&identifier));
        let month = i32::try_from(date.month).unwrap_or(1);
        let day = i32::try_from(date.day).unwrap_or(1);
        let start = glib::DateTime::new(&zone, date.year, month, day, 0, 0, 0.0);
        match start.and_then(|time| time.format(format)) {
            Ok(text) => out.push_str(&text),
            Err(_) => out.push('–'),
        }
    }

    fn today(&self) -> Date {
        now().map_or(
            Date {
                year: 1970,
                month: 1,
                day: 1,
            },
            |time| Date {
                year: time.year(),
                month: u32::try_from(time.month()).unwrap_or(1),
                day: u32::try_from(time.day_of_month()).unwrap_or(1),
            },
        )
    }
}

/// A CLOCK_REALTIME timerfd watched on the glib main loop. It is armed at absolute
/// wall-clock instants, so a suspend does not delay it and setting the clock fires it
/// (TFD_TIMER_CANCEL_ON_SET); `/etc/localtime` is watched for time zone changes.
pub struct WallTimer {
    fd: OwnedFd,
    source: Option<glib::SourceId>,
    _zone_monitor: Option<gio::FileMonitor>,
}

impl WallTimer {
    /// Calls `on_fire` on the main loop each time the timer fires or the zone changes.
    pub fn new(on_fire: impl Fn() + 'static) -> io::Result<WallTimer> {
        use rustix::time::{timerfd_create, TimerfdClockId, TimerfdFlags};
        let flags = TimerfdFlags::NONBLOCK | TimerfdFlags::CLOEXEC;
        let fd = timerfd_create(TimerfdClockId::Realtime, flags)?;
        let on_fire = std::rc::Rc::new(on_fire);
        let fire = on_fire.clone();
        let source =
            glib_unix::unix_fd_add_local(fd.as_raw_fd(), glib::IOCondition::IN, move |fd, _| {
                let mut expirations = [0u8; 8];
                // SAFETY: `fd` is this timer's timerfd, open while its source is: the source
                // is removed before the fd closes (drop).
                let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
                // The result is ignored on purpose: ECANCELED (the clock was set) fires too.
                let _ = rustix::io::read(fd, &mut expirations);
                fire();
                glib::ControlFlow::Continue
            });
        let zone_monitor = gio::File::for_path("/etc/localtime")
            .monitor_file(gio::FileMonitorFlags::WATCH_MOVES, gio::Cancellable::NONE)
            .map_err(|err| tracing::debug!("not watching /etc/localtime: {err}"))
            .ok();
        if let Some(monitor) = &zone_monitor {
            monitor.connect_changed(move |_, _, _, _| on_fire());
        }
        Ok(WallTimer {
            fd,
            source: Some(source),
            _zone_monitor: zone_monitor,
        })
    }

    /// Fires at `unix_ms` (wall clock), replacing any earlier arming.
    pub fn arm_at(&self, unix_ms: u64) -> io::Result<()> {
        use rustix::time::{timerfd_settime, Itimerspec, TimerfdTimerFlags, Timespec};
        let spec = Itimerspec {
            it_interval: Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            },
            it_value: Timespec {
                tv_sec: (unix_ms / 1000) as i64,
                tv_nsec: ((unix_ms % 1000) * 1_000_000) as i64,
            },
        };
        let flags = TimerfdTimerFlags::ABSTIME | TimerfdTimerFlags::CANCEL_ON_SET;
        timerfd_settime(&self.fd, flags, &spec)?;
        Ok(())
    }
}

impl Drop for WallTimer {
    fn drop(&mut self) {
        if let Some(source) = self.source.take() {
            source.remove();
        }
    }
}
