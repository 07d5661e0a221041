//! The clock's calendar, laid out as Waybar lays out its `{calendar}`: a month (or the
//! whole year, `mode-mon-col` months side by side), weekday names two columns wide,
//! days right-aligned in three, week numbers on the left or right, and the user's Pango
//! formats around months, weekdays, days, weeks and today (`{}` in each is the text).

use std::fmt::Write;

use unicode_width::UnicodeWidthStr;

pub use super::calendar_settings::{Calendar, Mode, Numbering, WeeksPos};

use crate::modules::{Date, WallClock};
use crate::text::push_escaped;

/// A month's column: seven days of two digits and a space between.
const MONTH_WIDTH: usize = 20;
/// The week number with its separating space, without a `weeks` format.
const WEEK_WIDTH: usize = 3;

pub fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1 January of the date's year (0-based).
fn day_of_year(date: Date) -> u32 {
    (1..date.month)
        .map(|m| days_in_month(date.year, m))
        .sum::<u32>()
        + date.day
        - 1
}

/// The week number strftime's `%V` (ISO), `%W` (Monday) or `%U` (Sunday) gives.
pub fn week_number(date: Date, numbering: Numbering) -> u32 {
    let yday = day_of_year(date) as i32;
    let wday = date.weekday() as i32;
    match numbering {
        Numbering::Sunday => ((yday + 7 - wday) / 7) as u32,
        Numbering::Monday => ((yday + 7 - (wday + 6) % 7) / 7) as u32,
        Numbering::Iso => {
            let monday_based = (wday + 6) % 7;
            let week = (yday - monday_based + 10) / 7;
            let weeks_in = |year: i32| -> i32 {
                let jan1 = Date {
                    year,
                    month: 1,
                    day: 1,
                }
                .weekday();
                if jan1 == 4 || (jan1 == 3 && is_leap(year)) {
                    53
                } else {
                    52
                }
            };
            if week < 1 {
                weeks_in(date.year - 1) as u32
            } else if week > weeks_in(date.year) {
                1
            } else {
                week as u32
            }
        }
    }
}

/// Appends `format` with its `{}` replaced by `text`; `text` alone without a format.
fn wrap(out: &mut String, format: Option<&str>, text: &str) {
    wrap_with(out, format, |out| out.push_str(text));
}

/// [`wrap`] around what `write` appends; a format without `{}` shows alone, as fmt
/// leaves out an argument it has no place for.
fn wrap_with(out: &mut String, format: Option<&str>, write: impl FnOnce(&mut String)) {
    match format.map(|f| f.split_once("{}")) {
        Some(Some((before, after))) => {
            out.push_str(before);
            write(out);
            out.push_str(after);
        }
        Some(None) => out.push_str(format.unwrap_or_default()),
        None => write(out),
    }
}

/// Pads `text` (markup-free) with spaces to `width` display columns.
fn pad(out: &mut String, text: &str, width: usize, right_align: bool) {
    let fill = width.saturating_sub(UnicodeWidthStr::width(text));
    if right_align {
        out.extend(std::iter::repeat_n(' ', fill));
    }
    push_escaped(out, text);
    if !right_align {
        out.extend(std::iter::repeat_n(' ', fill));
    }
}

/// What [`write`] shows: the month (or year) the calendar is on, and the real today.
pub struct View {
    pub shown: Date,
    pub today: Date,
    pub mode: Mode,
}

impl Calendar {
    fn first_weekday(&self) -> u32 {
        // ringbar's calendar has always started on Monday, as ISO 8601 does.
        self.first_day_of_week.unwrap_or(1)
    }

    fn numbering(&self) -> Numbering {
        match self.weeks_numbering {
            Some(numbering) => numbering,
            None if self.iso8601 || self.first_weekday() == 1 => Numbering::Iso,
            None => Numbering::Sunday,
        }
    }

    /// The columns a week number takes, its separating space included.
    pub fn week_width(&self) -> usize {
        if self.weeks_pos == WeeksPos::Hidden {
            return 0;
        }
        match &self.format.weeks {
            Some(format) => {
                let mut visible = String::new();
                crate::text::markup::visible_text(&format.replace("{}", ""), &mut visible);
                WEEK_WIDTH + UnicodeWidthStr::width(visible.as_str())
            }
            None => WEEK_WIDTH,
        }
    }
}

/// Rows of a month: its title, the weekday names, and its weeks.
fn lines_in_month(year: i32, month: u32, first_weekday: u32) -> u32 {
    2 + (lead_days(year, month, first_weekday) + days_in_month(year, month)).div_ceil(7)
}

/// The days of the month's first week that belong to the month before.
fn lead_days(year: i32, month: u32, first_weekday: u32) -> u32 {
    let first = Date {
        year,
        month,
        day: 1,
    };
    (first.weekday() + 7 - first_weekday) % 7
}

/// Buffers [`write`] keeps between tooltips, so that drawing one allocates nothing once
/// warm.
#[derive(Default)]
pub struct Scratch {
    body: String,
    line: String,
    text: String,
    name: String,
}

/// Appends the calendar as Pango markup. `week_width`: [`Calendar::week_width`].
pub fn write(
    out: &mut String,
    (calendar, week_width): (&Calendar, usize),
    view: &View,
    clock: &dyn WallClock,
    scratch: &mut Scratch,
) {
    let first = calendar.first_weekday();
    let year = view.shown.year;
    // Rows of months: the whole year `mode-mon-col` at a time, or the one month.
    let (columns, rows, first_month) = match view.mode {
        Mode::Year => (calendar.mode_mon_col, 12 / calendar.mode_mon_col, 1),
        Mode::Month => (1, 1, view.shown.month),
    };
    let Scratch {
        body,
        line: line_text,
        text,
        name,
    } = scratch;
    body.clear();
    for row in 0..rows {
        // The year's rows of months, a blank line between.
        if row > 0 {
            body.push_str("\n\n");
        }
        let row_months = (0..columns).map(|column| first_month + row * columns + column);
        let lines = row_months
            .clone()
            .map(|m| lines_in_month(year, m, first))
            .max()
            .unwrap_or(0);
        for line in 0..lines {
            if line > 0 {
                body.push('\n');
            }
            line_text.clear();
            for (column, month) in row_months.clone().enumerate() {
                if column > 0 {
                    line_text.push_str("   ");
                }
                let month_lines = lines_in_month(year, month, first);
                write_month_line(
                    line_text,
                    (calendar, view.today, clock),
                    (year, month, line, month_lines),
                    (first, week_width),
                    (text, name),
                );
            }
            let format = match line {
                0 => calendar.format.months.as_deref(),
                1 => calendar.format.weekdays.as_deref(),
                _ => None,
            };
            wrap(body, format, line_text);
        }
    }
    wrap(out, calendar.format.days.as_deref(), body);
}

/// One line of one month, padded to the month's column.
fn write_month_line(
    out: &mut String,
    (calendar, today, clock): (&Calendar, Date, &dyn WallClock),
    (year, month, line, month_lines): (i32, u32, u32, u32),
    (first, week_width): (u32, usize),
    (text, name): (&mut String, &mut String),
) {
    let left = calendar.weeks_pos == WeeksPos::Left;
    let right = calendar.weeks_pos == WeeksPos::Right;
    text.clear();
    match line {
        0 => {
            clock.format_date(
                Date {
                    year,
                    month,
                    day: 1,
                },
                "%B %Y",
                text,
            );
            return pad(out, text, MONTH_WIDTH + week_width, false);
        }
        1 => {
            for i in 0..7 {
                if i > 0 {
                    text.push(' ');
                }
                // A day of the right weekday: 4 January 1970 was a Sunday.
                let day = 4 + (first + i) % 7;
                name.clear();
                let date = Date {
                    year: 1970,
                    month: 1,
                    day,
                };
                clock.format_date(date, "%a", name);
                let short = two_columns(name);
                text.extend(std::iter::repeat_n(' ', 2 - UnicodeWidthStr::width(short)));
                text.push_str(short);
            }
            return pad(out, text, MONTH_WIDTH + week_width, left);
        }
        _ => {}
    }
    let week_start = week_start_day(year, month, line, first);
    let week_first = Date {
        year,
        month,
        day: week_start.max(1) as u32,
    };
    let has_week = line < month_lines;
    if left && has_week {
        write_week(out, calendar, week_first);
        out.push(' ');
    } else if left {
        out.extend(std::iter::repeat_n(' ', week_width));
    }
    if has_week {
        let last = days_in_month(year, month);
        let lead = if line == 2 {
            lead_days(year, month, first)
        } else {
            0
        };
        out.extend(std::iter::repeat_n(' ', lead as usize * 3));
        let from = week_first.day;
        let to = (from + 6 - lead).min(last);
        for day in from..=to {
            if day > from {
                out.push(' ');
            }
            if (Date { year, month, day }) == today {
                let marked = calendar.format.today.as_deref().unwrap_or("<b>{}</b>");
                wrap_with(out, Some(marked), |out| {
                    let _ = write!(out, "{day:>2}");
                });
            } else {
                let _ = write!(out, "{day:>2}");
            }
        }
        let shown = lead + to - from + 1;
        out.extend(std::iter::repeat_n(' ', (7 - shown as usize) * 3));
    } else {
        out.extend(std::iter::repeat_n(' ', MONTH_WIDTH));
    }
    if right && has_week {
        out.push(' ');
        write_week(out, calendar, week_first);
    } else if right {
        out.extend(std::iter::repeat_n(' ', week_width));
    }
}

/// The day of the month the week on `line` starts on (0 or less for the first week,
/// which starts in the month before).
fn week_start_day(year: i32, month: u32, line: u32, first: u32) -> i32 {
    1 - lead_days(year, month, first) as i32 + 7 * (line as i32 - 2)
}

fn write_week(out: &mut String, calendar: &Calendar, date: Date) {
    let number = week_number(date, calendar.numbering());
    wrap_with(out, calendar.format.weeks.as_deref(), |out| {
        let _ = write!(out, "{number:02}");
    });
}

/// The start of `name` that fills at most two columns (`Mo` of `Monday`).
fn two_columns(name: &str) -> &str {
    let mut end = 0;
    for (at, c) in name.char_indices() {
        let next = &name[..at + c.len_utf8()];
        if UnicodeWidthStr::width(next) > 2 {
            break;
        }
        end = at + c.len_utf8();
    }
    &name[..end]
}
