//! What modules render from: the latest sample, the wall clock, and the states of the
//! event sources.

use crate::events::compositor::CompositorState;
use crate::events::Events;
use crate::sample::Sample;

/// A calendar date, in the local time zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: i32,
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
}

impl Date {
    /// 0 = Sunday … 6 = Saturday (Sakamoto's method).
    pub fn weekday(self) -> u32 {
        const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
        let y = if self.month < 3 {
            self.year - 1
        } else {
            self.year
        };
        let m = self.month.clamp(1, 12) as usize - 1;
        (y + y / 4 - y / 100 + y / 400 + T[m] + self.day as i32).rem_euclid(7) as u32
    }
}

/// The local wall clock. The bar's is glib's (time zone changes included); tests use a
/// fixed one.
pub trait WallClock {
    /// Milliseconds since the Unix epoch.
    fn unix_ms(&self) -> u64;
    /// Appends the time in `zone` formatted with strftime-style `%` codes: `zone` is
    /// empty for the local zone, an IANA name (`Asia/Tokyo`) or a UTC offset (`+09:00`).
    fn format_in(&self, zone: &str, format: &str, out: &mut String);
    /// Appends the local time formatted so.
    fn format(&self, format: &str, out: &mut String) {
        self.format_in("", format, out);
    }
    /// Appends the start of `date` formatted so (the calendar's month and day names).
    fn format_date(&self, date: Date, format: &str, out: &mut String);
    fn today(&self) -> Date;
}

pub struct Input<'a> {
    pub sample: &'a Sample,
    pub clock: &'a dyn WallClock,
    /// Workspaces and the focused window; empty where no compositor is followed.
    pub compositor: &'a CompositorState,
    /// The connector of the bar's output (`DP-2`); empty for a window or a text output.
    pub output: &'a str,
    /// What each script module's script last said, by module name.
    pub scripts: &'a Scripts,
    /// The states of the other event sources.
    pub events: &'a Events,
}

/// Script states by module name (`custom/NAME`).
pub type Scripts = std::collections::BTreeMap<String, crate::events::script::ScriptState>;

/// No scripts: for outputs and tests that run none.
pub static NO_SCRIPTS: Scripts = Scripts::new();

/// No compositor: for outputs and tests that have none.
pub static NO_COMPOSITOR: CompositorState = CompositorState {
    workspaces: Vec::new(),
    window_title: None,
    window_app_id: None,
    keyboard: None,
    mode: None,
    scratchpad: None,
};

/// A clock stopped at one instant, in UTC, for tests and for outputs that have no
/// local time to show.
#[derive(Clone, Copy, Debug)]
pub struct FixedClock {
    pub unix_ms: u64,
}

impl FixedClock {
    fn civil(&self) -> (Date, u64) {
        let days = (self.unix_ms / 86_400_000) as i64;
        let seconds_of_day = (self.unix_ms / 1000) % 86_400;
        // Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's method).
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        (Date { year, month, day }, seconds_of_day)
    }
}

impl WallClock for FixedClock {
    fn unix_ms(&self) -> u64 {
        self.unix_ms
    }

    /// `%Y %m %d %H %M %S %%`, and English names (`%B %b %A %a`); other codes are
    /// written as they are. Its local zone is UTC, and of named zones it knows only UTC
    /// offsets (`+09:00`); any other stands for UTC.
    fn format_in(&self, zone: &str, format: &str, out: &mut String) {
        let offset_ms = utc_offset_seconds(zone).unwrap_or(0) * 1000;
        let shifted = FixedClock {
            unix_ms: self.unix_ms.saturating_add_signed(offset_ms),
        };
        let (date, seconds) = shifted.civil();
        write_fixed(date, seconds, format, out);
    }

    fn format_date(&self, date: Date, format: &str, out: &mut String) {
        write_fixed(date, 0, format, out);
    }

    fn today(&self) -> Date {
        self.civil().0
    }
}

/// A zone that is a fixed offset from UTC, in seconds: `UTC`, `Z`, `+09:00`, `-0330`,
/// `+05` (RFC 3339 and ISO 8601 forms, as glib reads them).
pub fn utc_offset_seconds(zone: &str) -> Option<i64> {
    if zone == "UTC" || zone == "Z" {
        return Some(0);
    }
    let (sign, digits) = match zone.as_bytes().first()? {
        b'+' => (1, &zone[1..]),
        b'-' => (-1, &zone[1..]),
        _ => return None,
    };
    let (hours, minutes) = match (digits.len(), digits.split_once(':')) {
        (2, None) => (digits, "0"),
        (4, None) => digits.split_at(2),
        (5, Some((hours, minutes))) if hours.len() == 2 => (hours, minutes),
        _ => return None,
    };
    if !digits.bytes().all(|b| b.is_ascii_digit() || b == b':') {
        return None;
    }
    let (hours, minutes): (i64, i64) = (hours.parse().ok()?, minutes.parse().ok()?);
    (hours <= 24 && minutes < 60).then_some(sign * (hours * 3600 + minutes * 60))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The fixed clock's strftime: the codes tests use, in English.
fn write_fixed(date: Date, seconds: u64, format: &str, out: &mut String) {
    use std::fmt::Write;
    let month = MONTHS[(date.month.clamp(1, 12) - 1) as usize];
    let weekday = WEEKDAYS[date.weekday() as usize];
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let _ = match chars.next() {
            Some('Y') => write!(out, "{}", date.year),
            Some('m') => write!(out, "{:02}", date.month),
            Some('d') => write!(out, "{:02}", date.day),
            Some('e') => write!(out, "{:>2}", date.day),
            Some('B') => write!(out, "{month}"),
            Some('b') => write!(out, "{}", &month[..3]),
            Some('A') => write!(out, "{weekday}"),
            Some('a') => write!(out, "{}", &weekday[..3]),
            Some('H') => write!(out, "{:02}", seconds / 3600),
            Some('M') => write!(out, "{:02}", seconds / 60 % 60),
            Some('S') => write!(out, "{:02}", seconds % 60),
            Some('%') => write!(out, "%"),
            Some(other) => write!(out, "%{other}"),
            None => write!(out, "%"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_clock_knows_its_calendar() {
        // 2026-11-23 14:28:14 UTC.
        let clock = FixedClock {
            unix_ms: 1_795_444_094_000,
        };
        let mut out = String::new();
        clock.format("%Y-%m-%d %H:%M:%S %% %q", &mut out);
        assert_eq!(out, "2026-11-23 14:28:14 % %q");
        assert_eq!(
            FixedClock {
                unix_ms: 951_782_400_000
            }
            .today(),
            Date {
                year: 2000,
                month: 2,
                day: 29
            }
        );
    }
}
