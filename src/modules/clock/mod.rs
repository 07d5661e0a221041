//! `clock`: the local time, or a `timezone`'s (`timezones` cycled by the `tz_up` and
//! `tz_down` actions), in a strftime-style `format` (`%a %d %b %H:%M` by default),
//! `format_alt` after a left click. It has its own timer: it wakes at the next minute
//! boundary, or the next second when the format shows seconds, never on the sample tick.
//! Its tooltip is the month's calendar with today marked, or the user's
//! `tooltip-format` around `{calendar}`, laid out as Waybar's (`calendar.rs`); its
//! `actions` switch the calendar between month and year and move it. `locale` gives its
//! names and formats another language than the session's.

mod calendar;
mod calendar_settings;
mod locale;
mod waybar;
mod zones;

use std::cell::{Cell, RefCell};
use std::fmt::Write;
use std::rc::Rc;

use serde::{Deserialize, Deserializer};

use super::alt_format::AltFormat;
use super::import::Waybar;
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table, Update};
use crate::text::MarkupBuffer;
use crate::text::Sink;
use calendar::{Calendar, Mode, Scratch, View};
use zones::Zones;

/// The fields a `tooltip-format` takes besides strftime's codes.
const TOOLTIP_FIELDS: [&str; 3] = ["calendar", "ordinal_date", "tz_list"];

/// What a click or scroll may do to the calendar (Waybar's clock actions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CalendarAction {
    /// Month view to year view and back.
    Mode,
    ShiftUp,
    ShiftDown,
    ShiftReset,
    /// The next or previous of `timezones`.
    TzUp,
    TzDown,
}

/// `[clock.actions]`: which click or scroll does what.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Actions {
    on_click: Option<CalendarAction>,
    on_click_middle: Option<CalendarAction>,
    on_click_right: Option<CalendarAction>,
    on_scroll_up: Option<CalendarAction>,
    on_scroll_down: Option<CalendarAction>,
    on_click_backward: Option<CalendarAction>,
    on_click_forward: Option<CalendarAction>,
}

impl Actions {
    fn of(&self, button: Button) -> Option<CalendarAction> {
        match button {
            Button::Left => self.on_click,
            Button::Middle => self.on_click_middle,
            Button::Right => self.on_click_right,
            Button::ScrollUp => self.on_scroll_up,
            Button::ScrollDown => self.on_scroll_down,
            Button::Back => self.on_click_backward,
            Button::Forward => self.on_click_forward,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "time_format")]
    format: String,
    #[serde(alias = "format-alt", deserialize_with = "time_format")]
    format_alt: String,
    tooltip: bool,
    #[serde(rename = "tooltip-format", deserialize_with = "tooltip_format")]
    tooltip_format: Option<String>,
    calendar: Calendar,
    actions: Actions,
    #[serde(deserialize_with = "zone")]
    timezone: Option<String>,
    #[serde(deserialize_with = "zones::zone_names")]
    timezones: Vec<String>,
    #[serde(
        rename = "timezone-tooltip-format",
        deserialize_with = "timezone_tooltip_format"
    )]
    timezone_tooltip_format: Option<String>,
    /// The language of the day and month names and of `%c`; unset: the session's.
    #[serde(deserialize_with = "locale::deserialize")]
    locale: Option<locale::Locale>,
}

/// A strftime format, or Waybar's form of one (`{:%H:%M}`), read as Waybar reads it.
fn time_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let format = String::deserialize(d)?;
    Ok(match format.contains("{:") {
        true => waybar::strftime(&format),
        false => format,
    })
}

fn zone<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    zones::zone_name(d).map(Some)
}

/// The time in each of the other zones in `{tz_list}`: as `format` unless set.
fn timezone_tooltip_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    super::format::deserialize_markup(d, &[])
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "%a %d %b %H:%M".to_owned(),
            format_alt: "%Y-%m-%d %H:%M:%S".to_owned(),
            tooltip: true,
            tooltip_format: None,
            calendar: Calendar::default(),
            actions: Actions::default(),
            timezone: None,
            timezones: Vec::new(),
            timezone_tooltip_format: None,
            locale: None,
        }
    }
}

/// Pango markup with strftime's codes and `{calendar}`, `{ordinal_date}`, `{tz_list}`.
fn tooltip_format<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    super::format::deserialize_markup(d, &TOOLTIP_FIELDS)
}

struct Clock {
    settings: Settings,
    alternative: AltFormat,
    /// The calendar's view, switched by the `mode` action.
    mode: Cell<Mode>,
    /// Months the calendar is moved from today's.
    shift: Cell<i32>,
    /// The columns of a week number ([`Calendar::week_width`]).
    week_width: usize,
    /// The tooltip's buffers, kept so that a tooltip allocates nothing once warm.
    markup: MarkupBuffer,
    calendar_scratch: RefCell<Scratch>,
    zones: Zones,
}

/// The `clock` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "clock",
    make,
    waybar: Some(Waybar {
        settings: &["tooltip"],
        convert: waybar::from_waybar,
        ..Waybar::named(&["clock"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Clock {
        mode: Cell::new(settings.calendar.mode),
        shift: Cell::new(0),
        week_width: settings.calendar.week_width(),
        markup: MarkupBuffer::default(),
        calendar_scratch: RefCell::new(Scratch::default()),
        zones: Zones::new(settings.timezone.as_deref(), &settings.timezones),
        settings,
        alternative: AltFormat::default(),
    }))
}

impl Clock {
    fn format(&self) -> &str {
        (self.alternative).pick(&self.settings.format, &self.settings.format_alt)
    }

    /// The calendar as Pango markup, moved by the scrolls so far.
    fn write_calendar(&self, input: &Input<'_>, out: &mut String, scratch: &mut Scratch) {
        let today = input.clock.today();
        let months = today.year * 12 + today.month as i32 - 1 + self.shift.get();
        let shown = super::Date {
            year: months.div_euclid(12),
            month: months.rem_euclid(12) as u32 + 1,
            day: 1,
        };
        let view = View {
            shown,
            today,
            mode: self.mode.get(),
        };
        let calendar = (&self.settings.calendar, self.week_width);
        calendar::write(out, calendar, &view, input.clock, scratch);
    }

    /// The user's `tooltip-format`: its text through strftime, its fields filled in.
    fn write_tooltip_format(
        &self,
        format: &str,
        input: &Input<'_>,
        out: &mut String,
        scratch: &mut Scratch,
    ) {
        let mut rest = format;
        while let Some(open) = rest.find('{') {
            let Some(len) = rest[open..].find('}') else {
                break;
            };
            if open > 0 {
                input
                    .clock
                    .format_in(self.zones.shown(), &rest[..open], out);
            }
            match &rest[open + 1..open + len] {
                "calendar" => self.write_calendar(input, out, scratch),
                "ordinal_date" => write_ordinal(input.clock.today().day, out),
                "tz_list" => {
                    let own = self.settings.timezone_tooltip_format.as_deref();
                    let format = (own.unwrap_or(&self.settings.format), own.is_some());
                    self.zones.write_list(input, format, out);
                }
                _ => {}
            }
            rest = &rest[open + len + 1..];
        }
        if !rest.is_empty() {
            input.clock.format_in(self.zones.shown(), rest, out);
        }
    }

    fn act(&self, action: CalendarAction) {
        let step = match self.mode.get() {
            Mode::Year => 12,
            Mode::Month => 1,
        } * self.settings.calendar.on_scroll;
        match action {
            CalendarAction::Mode => self.mode.set(match self.mode.get() {
                Mode::Month => Mode::Year,
                Mode::Year => Mode::Month,
            }),
            CalendarAction::ShiftUp => self.shift.set(self.shift.get().saturating_add(step)),
            CalendarAction::ShiftDown => self.shift.set(self.shift.get().saturating_sub(step)),
            CalendarAction::ShiftReset => self.shift.set(0),
            CalendarAction::TzUp => self.zones.step(true),
            CalendarAction::TzDown => self.zones.step(false),
        }
    }
}

/// `28th`.
fn write_ordinal(day: u32, out: &mut String) {
    let suffix = match (day % 10, day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    let _ = write!(out, "{day}{suffix}");
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
        let _spoken = self.settings.locale.as_ref().map(locale::Locale::speak);
        input
            .clock
            .format_in(self.zones.shown(), self.format(), out);
        Some(Status::default())
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if !self.settings.tooltip {
            return;
        }
        let Ok(mut calendar) = self.calendar_scratch.try_borrow_mut() else {
            return;
        };
        let _spoken = self.settings.locale.as_ref().map(locale::Locale::speak);
        self.markup
            .write(sink, |markup| match &self.settings.tooltip_format {
                Some(format) => self.write_tooltip_format(format, input, markup, &mut calendar),
                None => self.write_calendar(input, markup, &mut calendar),
            });
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        match self.settings.actions.of(button) {
            Some(action) => {
                self.act(action);
                Some(Action::Redraw)
            }
            None => self.alternative.click(button),
        }
    }
}

#[cfg(test)]
mod tests;
