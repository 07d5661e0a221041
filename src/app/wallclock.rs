//! The local wall clock for modules (glib's DateTime), and a timer that fires at a
//! wall-clock instant: right after a suspend, at once when the clock is set, and again
//! when the time zone changes.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

use gtk4::prelude::*;
use gtk4::{gio, glib};

use crate::modules::utc_offset_seconds;
use crate::modules::{Date, WallClock};

/// The local time, its zone read afresh on every use: `TZ` when set, else
/// `/etc/localtime`, so a change of time zone shows at the next tick. (glib's own local
/// zone is cached for the life of the process.)
pub struct LocalClock;

fn local_zone() -> glib::TimeZone {
    let identifier = std::env::var("TZ").unwrap_or_else(|_| ":/etc/localtime".to_owned());
    glib::TimeZone::new(Some(&identifier))
}

fn now() -> Option<glib::DateTime> {
    glib::DateTime::now(&local_zone()).ok()
}

/// The time now in `zone` (empty: the local zone); `None` for a zone glib does not know.
fn now_in(zone: &str) -> Option<glib::DateTime> {
    if zone.is_empty() {
        return now();
    }
    // glib gives UTC for an identifier it cannot read (`from_identifier`, which says so,
    // is glib 2.68's).
    let tz = glib::TimeZone::new(Some(zone));
    if tz.identifier() == "UTC" && zone != "UTC" && utc_offset_seconds(zone) != Some(0) {
        return None;
    }
    glib::DateTime::now(&tz).ok()
}

impl WallClock for LocalClock {
    fn unix_ms(&self) -> u64 {
        crate::records::unix_ms_now()
    }

    fn format_in(&self, zone: &str, format: &str, out: &mut String) {
        match now_in(zone).and_then(|time| time.format(format).ok()) {
            Some(text) => out.push_str(&text),
            // Not a format or zone glib can use (it says nothing about why).
            None => out.push('–'),
        }
    }

    fn format_date(&self, date: Date, format: &str, out: &mut String) {
        let zone = local_zone();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modules::FixedClock;

    /// Hours and minutes of a zone's time now, as minutes of the day.
    fn minutes_of_day(zone: &str) -> i64 {
        let mut out = String::new();
        LocalClock.format_in(zone, "%H %M", &mut out);
        let (hours, minutes) = out.split_once(' ').expect(&out);
        let number = |text: &str| text.parse::<i64>().expect(text);
        number(hours) * 60 + number(minutes)
    }

    #[test]
    fn a_named_zone_and_an_offset_are_that_far_from_utc() {
        // Tokyo keeps no summer time: always nine hours ahead of UTC. Read twice in a
        // row, the minute may turn between the two reads.
        let ahead = (minutes_of_day("Asia/Tokyo") - minutes_of_day("UTC")).rem_euclid(1440);
        assert!([540, 541].contains(&ahead), "{ahead}");
        let ahead = (minutes_of_day("-03:30") - minutes_of_day("UTC")).rem_euclid(1440);
        assert!([1230, 1231].contains(&ahead), "{ahead}");
    }

    #[test]
    fn an_offset_reads_as_the_fixed_clock_reads_it() {
        let fixed = |out: &mut String| {
            let clock = FixedClock {
                unix_ms: LocalClock.unix_ms(),
            };
            clock.format_in("+05:30", "%d %H:%M", out);
        };
        let (mut before, mut local, mut after) = (String::new(), String::new(), String::new());
        fixed(&mut before);
        LocalClock.format_in("+05:30", "%d %H:%M", &mut local);
        fixed(&mut after);
        assert!(
            local == before || local == after,
            "{local} {before} {after}"
        );
    }

    #[test]
    fn an_unknown_zone_shows_a_dash() {
        let mut out = String::new();
        LocalClock.format_in("Mars/Olympus_Mons", "%H:%M", &mut out);
        assert_eq!(out, "–");
    }
}
