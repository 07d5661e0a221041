//! `clock`: the local time in a strftime-style `format` (`%a %d %b %H:%M` by default),
//! `format_alt` after a left click. It has its own timer: it wakes at the next minute
//! boundary, or the next second when the format shows seconds, never on the sample tick.
//! Its tooltip is the month's calendar with today marked.

use std::fmt::Write;
use std::rc::Rc;

use serde::Deserialize;

use super::alt_format::AltFormat;
use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::{Action, Button, Date, Input, Module, Status, Table, Update};
use crate::text::Sink;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    format: String,
    format_alt: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "%a %d %b %H:%M".to_owned(),
            format_alt: "%Y-%m-%d %H:%M:%S".to_owned(),
        }
    }
}

struct Clock {
    settings: Settings,
    alternative: AltFormat,
}

/// The `clock` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "clock",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        ..Waybar::named(&["clock"])
    }),
};

/// Waybar's formats put strftime codes in braces (`{:%H:%M}`); ringbar's are plain.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    let key = match key {
        "format" => "format",
        "format-alt" => "format_alt",
        "interval" => return Carried::NotNeeded,
        _ => return Carried::No,
    };
    let format = value.as_str().map(strftime);
    Carried::one(format.map(|format| (key.to_owned(), toml::Value::String(format))))
}

/// `{:%H:%M}` as `%H:%M`.
fn strftime(format: &str) -> String {
    let mut out = String::new();
    let mut rest = format;
    while let Some(open) = rest.find("{:") {
        out.push_str(&rest[..open]);
        // fmt's locale flag (`{:L%A}`): ringbar's clock speaks the locale anyway.
        let after = &rest[open + 2..];
        let after = after.strip_prefix('L').unwrap_or(after);
        let close = after.find('}').unwrap_or(after.len());
        out.push_str(&after[..close]);
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Clock {
        settings,
        alternative: AltFormat::default(),
    }))
}

impl Clock {
    fn format(&self) -> &str {
        (self.alternative).pick(&self.settings.format, &self.settings.format_alt)
    }
}

/// Whether a strftime format shows seconds (so the clock must tick every second).
fn shows_seconds(format: &str) -> bool {
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c == '%' && matches!(chars.next(), Some('S' | 's' | 'T' | 'X' | 'c' | 'r')) {
            return true;
        }
    }
    false
}

/// Milliseconds from `unix_ms` to the next whole `period_ms` (a hair after it, so the
/// clock never wakes just before the boundary and shows the old time again).
fn until_next(unix_ms: u64, period_ms: u64) -> u64 {
    period_ms - unix_ms % period_ms + 5
}

fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// 0 = Monday … 6 = Sunday (Sakamoto's method).
fn weekday(date: Date) -> u32 {
    const T: [i32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
    let y = if date.month < 3 {
        date.year - 1
    } else {
        date.year
    };
    let m = date.month as usize - 1;
    let sunday_based = (y + y / 4 - y / 100 + y / 400 + T[m] + date.day as i32).rem_euclid(7);
    ((sunday_based + 6) % 7) as u32
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

/// The month of `today` as a grid, weeks from Monday, today in bold.
pub fn write_calendar(sink: &mut dyn Sink, today: Date) {
    let month = MONTHS[(today.month.clamp(1, 12) - 1) as usize];
    let _ = writeln!(sink.out(), "{month} {}", today.year);
    sink.out().push_str("Mo Tu We Th Fr Sa Su\n");
    let first = weekday(Date { day: 1, ..today });
    let days = days_in_month(today.year, today.month);
    for _ in 0..first {
        sink.out().push_str("   ");
    }
    for day in 1..=days {
        let column = (first + day - 1) % 7;
        if day == today.day {
            sink.bold(true);
            let _ = write!(sink.out(), "{day:>2}");
            sink.bold(false);
        } else {
            let _ = write!(sink.out(), "{day:>2}");
        }
        sink.out().push(if column == 6 || day == days {
            '\n'
        } else {
            ' '
        });
    }
}

impl Module for Clock {
    fn name(&self) -> &str {
        "clock"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Timer]
    }

    fn next_update_ms(&self, unix_ms: u64) -> Option<u64> {
        let period = if shows_seconds(self.format()) {
            1000
        } else {
            60_000
        };
        Some(until_next(unix_ms, period))
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        input.clock.format(self.format(), out);
        Some(Status::default())
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        write_calendar(sink, input.clock.today());
    }

    fn action(&self, button: Button) -> Option<Action> {
        self.alternative.click(button)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config;
    use crate::modules::tests::{default_module, CLOCK};
    use crate::sample::Sample;
    use crate::text::{Markup, Plain};

    #[test]
    fn waybar_clock_formats_lose_their_braces() {
        assert_eq!(strftime("{:%a %d} at {:%H:%M}"), "%a %d at %H:%M");
        assert_eq!(strftime("{:%H:%M"), "%H:%M");
        assert_eq!(strftime("{:L%A %H:%M}"), "%A %H:%M", "the locale flag");
    }

    #[test]
    fn formats_and_the_alternative_on_click() {
        let clock = default_module("clock");
        let sample = Sample::default();
        let input = Input {
            sample: &sample,
            clock: &CLOCK,
            compositor: &crate::modules::NO_COMPOSITOR,
            output: "",
            scripts: &crate::modules::NO_SCRIPTS,
            events: &crate::modules::NO_EVENTS,
        };
        let config = config::parse(
            "modules_center = [\"clock\"]\n[clock]\nformat = \"%H:%M\"\nformat_alt = \"%Y-%m-%d %H:%M:%S\"\n",
            "c.toml".as_ref(),
        )
        .expect("valid");
        let clock_module = &config.modules.center[0];
        let mut out = String::new();
        clock_module.text(&input, &mut out);
        assert_eq!(out, "14:28");
        assert_eq!(clock_module.next_update_ms(CLOCK.unix_ms), Some(46_005));
        assert_eq!(clock_module.action(Button::Left), Some(Action::Redraw));
        out.clear();
        clock_module.text(&input, &mut out);
        assert_eq!(out, "2026-11-23 14:28:14");
        assert_eq!(
            clock_module.next_update_ms(CLOCK.unix_ms),
            Some(1005),
            "seconds shown"
        );
        assert_eq!(clock_module.action(Button::Middle), None);
        assert_eq!(clock.follows(), [Update::Timer]);
        let typo = config::parse("[clock]\nfromat = \"%H\"\n", "c.toml".as_ref())
            .expect_err("unknown key");
        assert!(
            typo.to_string().contains("unknown field `fromat`"),
            "{typo}"
        );
    }

    #[test]
    fn calendar_marks_today() {
        let mut out = String::new();
        let today = Date {
            year: 2026,
            month: 11,
            day: 23,
        };
        write_calendar(&mut Plain(&mut out), today);
        assert_eq!(
            out,
            "November 2026\n\
             Mo Tu We Th Fr Sa Su\n\
             \x20                  1\n\
             \x202  3  4  5  6  7  8\n\
             \x209 10 11 12 13 14 15\n\
             16 17 18 19 20 21 22\n\
             23 24 25 26 27 28 29\n\
             30\n"
        );
        let mut markup = String::new();
        write_calendar(&mut Markup(&mut markup), today);
        assert!(markup.contains("\n<b>23</b> 24 25"), "{markup}");
        assert_eq!(
            weekday(Date {
                year: 2000,
                month: 2,
                day: 29
            }),
            1,
            "a Tuesday"
        );
        assert_eq!(days_in_month(2000, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
        assert!(shows_seconds("%T") && !shows_seconds("%H:%M %%S"));
    }
}
