use super::calendar::{days_in_month, week_number, Numbering};
use super::waybar::strftime;
use super::*;
use crate::config;
use crate::modules::tests::{default_module, CLOCK};
use crate::modules::Date;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn input(sample: &Sample) -> Input<'_> {
    Input {
        sample,
        clock: &CLOCK,
        compositor: &crate::modules::NO_COMPOSITOR,
        output: "",
        scripts: &crate::modules::NO_SCRIPTS,
        events: &crate::modules::NO_EVENTS,
    }
}

fn clock_from(toml: &str) -> Rc<dyn Module> {
    let config = config::parse(
        &format!("modules_center = [\"clock\"]\n[clock]\n{toml}"),
        "c.toml".as_ref(),
    )
    .expect(toml);
    config.modules.center[0].clone()
}

fn tooltip(clock: &dyn Module, markup: bool) -> String {
    let sample = Sample::default();
    let mut out = String::new();
    match markup {
        true => clock.tooltip(&mut Markup(&mut out), &input(&sample)),
        false => clock.tooltip(&mut Plain(&mut out), &input(&sample)),
    }
    out
}

#[test]
fn waybar_clock_formats_lose_their_braces() {
    assert_eq!(strftime("{:%a %d} at {:%H:%M}"), "%a %d at %H:%M");
    assert_eq!(strftime("{:%H:%M"), "%H:%M");
    assert_eq!(strftime("{:L%A %H:%M}"), "%A %H:%M", "the locale flag");
    assert_eq!(strftime("100% {:%H}"), "100%% %H", "a literal percent sign");
}

#[test]
fn a_waybar_format_written_by_hand_reads_as_waybar_reads_it() {
    let sample = Sample::default();
    let clock = clock_from("format = \"{:%H:%M} 100%\"\nformat-alt = \"{:%Y}\"\n");
    let mut out = String::new();
    clock.text(&input(&sample), &mut out);
    assert_eq!(out, "14:28 100%");
    assert_eq!(clock.action(Button::Left), Some(Action::Redraw));
    out.clear();
    clock.text(&input(&sample), &mut out);
    assert!(out.len() == 4 && out.starts_with("20"), "{out}");
}

#[test]
fn formats_and_the_alternative_on_click() {
    let clock = default_module("clock");
    let sample = Sample::default();
    let input = input(&sample);
    let clock_module = clock_from("format = \"%H:%M\"\nformat_alt = \"%Y-%m-%d %H:%M:%S\"\n");
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
    let typo =
        config::parse("[clock]\nfromat = \"%H\"\n", "c.toml".as_ref()).expect_err("unknown key");
    assert!(
        typo.to_string().contains("unknown field `fromat`"),
        "{typo}"
    );
}

#[test]
fn the_default_tooltip_is_the_month_with_today_marked() {
    let clock = default_module("clock");
    assert_eq!(
        tooltip(&*clock, false),
        "November 2026       \n\
         Mo Tu We Th Fr Sa Su\n\
         \x20                  1\n\
         \x202  3  4  5  6  7  8\n\
         \x209 10 11 12 13 14 15\n\
         16 17 18 19 20 21 22\n\
         23 24 25 26 27 28 29\n\
         30                  "
    );
    assert!(
        tooltip(&*clock, true).contains("\n<b>23</b> 24 25"),
        "{}",
        tooltip(&*clock, true)
    );
    assert!(tooltip(&*clock_from("tooltip = false"), true).is_empty());
}

#[test]
fn a_waybar_calendar_with_weeks_formats_and_a_sunday_start() {
    let clock = clock_from(
        "tooltip-format = \"<tt><small>{calendar}</small></tt>\"\n\
         [clock.calendar]\nweeks-pos = \"right\"\nfirst-day-of-week = 0\n\
         [clock.calendar.format]\nmonths = \"<b>{}</b>\"\nweeks = \"<i>W{}</i>\"\n\
         today = \"<u>{}</u>\"\ndays = \"<span>{}</span>\"\nweekdays = \"<tt>{}</tt>\"\n",
    );
    let markup = tooltip(&*clock, true);
    assert!(
        markup.starts_with("<tt><small><span><b>November 2026           </b>\n"),
        "{markup}"
    );
    // Weeks from Sunday are numbered from the first Sunday (strftime's %U).
    for line in [
        "<tt>Su Mo Tu We Th Fr Sa    </tt>",
        "\x201  2  3  4  5  6  7 <i>W44</i>",
        "22 <u>23</u> 24 25 26 27 28 <i>W47</i>",
        "29 30                <i>W48</i></span></small></tt>",
    ] {
        assert!(markup.contains(line), "{line:?} in\n{markup}");
    }
    crate::text::markup::check(&markup, true).expect("valid markup");
}

#[test]
fn actions_move_the_calendar_and_switch_it_to_the_year() {
    let clock = clock_from(
        "[clock.calendar]\nmode-mon-col = 3\nweeks-pos = \"left\"\non-scroll = 2\n\
         [clock.actions]\non-click-right = \"mode\"\non-scroll-up = \"shift_up\"\n\
         on-scroll-down = \"shift_down\"\non-click-middle = \"shift_reset\"\n",
    );
    let first_line = |clock: &Rc<dyn Module>| {
        let text = tooltip(&**clock, false);
        text.lines()
            .next()
            .unwrap_or_default()
            .trim_end()
            .to_owned()
    };
    assert_eq!(first_line(&clock), "November 2026");
    assert_eq!(clock.action(Button::ScrollUp), Some(Action::Redraw));
    assert_eq!(first_line(&clock), "January 2027", "two months on");
    clock.action(Button::ScrollDown);
    clock.action(Button::ScrollDown);
    assert_eq!(first_line(&clock), "September 2026");
    clock.action(Button::Middle);
    clock.action(Button::Right);
    let year = tooltip(&*clock, false);
    assert_eq!(
        year.lines()
            .next()
            .map(str::split_whitespace)
            .map(Iterator::collect::<Vec<_>>),
        Some(vec!["January", "2026", "February", "2026", "March", "2026"]),
        "{year}"
    );
    assert_eq!(year.matches("2026").count(), 12, "{year}");
    assert!(
        year.contains("\n\nApril 2026"),
        "a blank line between rows: {year}"
    );
    // Weeks on the left: ISO numbers, the first week of 2026 holding 1 January.
    assert!(
        year.lines().nth(2).is_some_and(|l| l.starts_with("01 ")),
        "{year}"
    );
    clock.action(Button::ScrollUp);
    assert!(
        tooltip(&*clock, false).starts_with("January 2028"),
        "a year is 12 months, twice"
    );
    // Left click still switches to the alternative format: no action is set for it.
    assert_eq!(clock.action(Button::Left), Some(Action::Redraw));
}

#[test]
fn a_tooltip_format_takes_strftime_codes_and_its_fields() {
    let clock = clock_from("tooltip-format = \"<b>%Y</b> the {ordinal_date}{tz_list}\"");
    assert_eq!(tooltip(&*clock, true), "<b>2026</b> the 23rd");
    for (bad, why) in [
        ("tooltip-format = \"{calender}\"", "no {calender}"),
        ("tooltip-format = \"<b>%Y\"", "is not closed"),
        ("[clock.calendar]\nmode-mon-col = 5", "1, 2, 3, 4, 6 or 12"),
        ("[clock.calendar]\nmode = \"decade\"", "unknown variant"),
        ("[clock.actions]\non-click = \"explode\"", "unknown variant"),
    ] {
        let toml = format!("modules_center = [\"clock\"]\n[clock]\n{bad}\n");
        let err = config::parse(&toml, "c.toml".as_ref()).expect_err(bad);
        assert!(err.to_string().contains(why), "{bad}: {err}");
    }
}

#[test]
fn week_numbers_as_strftime_counts_them() {
    let date = |year, month, day| Date { year, month, day };
    // (date, %U, %W, %V) as GNU date prints them.
    for (d, sunday, monday, iso) in [
        (date(2026, 11, 23), 47, 47, 48),
        (date(2026, 1, 1), 0, 0, 1),
        (date(2027, 1, 1), 0, 0, 53),
        (date(2024, 12, 30), 52, 53, 1),
        (date(2021, 1, 3), 1, 0, 53),
    ] {
        assert_eq!(week_number(d, Numbering::Sunday), sunday, "{d:?}");
        assert_eq!(week_number(d, Numbering::Monday), monday, "{d:?}");
        assert_eq!(week_number(d, Numbering::Iso), iso, "{d:?}");
    }
    assert_eq!(date(2000, 2, 29).weekday(), 2, "a Tuesday");
    assert_eq!(days_in_month(2000, 2), 29);
    assert_eq!(days_in_month(1900, 2), 28);
    assert!(shows_seconds("%T") && !shows_seconds("%H:%M %%S"));
    let mut ordinals = String::new();
    for day in [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31] {
        write_ordinal(day, &mut ordinals);
        ordinals.push(' ');
    }
    assert_eq!(
        ordinals,
        "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 31st "
    );
}

#[test]
fn time_zones_cycle_on_their_actions_and_list_the_others() {
    // The fixed clock's local zone is UTC: 14:28 there.
    let clock = clock_from(
        "format = \"%H:%M\"\ntimezones = [\"\", \"+09:00\", \"-03:30\"]\n\
         tooltip-format = \"{tz_list}\"\n\
         [clock.actions]\non-scroll-up = \"tz_up\"\non-scroll-down = \"tz_down\"\n\
         on-click-forward = \"tz_up\"\non-click-backward = \"tz_down\"\n",
    );
    let sample = Sample::default();
    let text = |clock: &Rc<dyn Module>| {
        let mut out = String::new();
        clock.text(&input(&sample), &mut out);
        out
    };
    assert_eq!(text(&clock), "14:28");
    // Waybar's list leaves out the local zone and the zone shown.
    assert_eq!(tooltip(&*clock, false), "23:28\n10:58");
    assert_eq!(clock.action(Button::ScrollUp), Some(Action::Redraw));
    assert_eq!(text(&clock), "23:28");
    assert_eq!(tooltip(&*clock, false), "10:58");
    clock.action(Button::ScrollUp);
    clock.action(Button::ScrollUp);
    assert_eq!(text(&clock), "14:28", "round the list");
    clock.action(Button::ScrollDown);
    assert_eq!(text(&clock), "10:58", "back round it");
    // Waybar's documented pair: the mouse's side buttons.
    assert_eq!(clock.action(Button::Forward), Some(Action::Redraw));
    assert_eq!(text(&clock), "14:28");
    clock.action(Button::Back);
    assert_eq!(text(&clock), "10:58");

    // With a format of its own the list shows the zone shown too.
    let clock = clock_from(
        "timezone = \"+01:00\"\ntimezones = [\"UTC\", \"+01:00\"]\n\
         timezone-tooltip-format = \"<b>%H</b>\"\ntooltip-format = \"{tz_list}\"\n",
    );
    assert_eq!(tooltip(&*clock, true), "<b>14</b>\n<b>15</b>");
    let one = clock_from("timezone = \"-01:00\"\nformat = \"%H\"\ntooltip-format = \"{tz_list}\"");
    assert_eq!(text(&one), "13", "`timezone` alone");
    assert_eq!(tooltip(&*one, false), "", "a single zone lists none");
    for bad in [
        "timezone = \"Mars/Olympus_Mons\"",
        "timezones = [\"UTC\", \"../../etc/passwd\"]",
        "timezone = \"+9\"",
    ] {
        let toml = format!("modules_center = [\"clock\"]\n[clock]\n{bad}\n");
        let err = config::parse(&toml, "c.toml".as_ref()).expect_err(bad);
        assert!(
            err.to_string().contains("is not a time zone"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn named_zones_are_read_from_the_zone_database() {
    // Debian's tzdata (priority required) holds them.
    let toml = "[clock]\ntimezones = [\"America/Chicago\", \"Asia/Tokyo\", \"UTC\", \"\"]\n";
    config::parse(toml, "c.toml".as_ref()).expect("zones from the database");
    assert!(super::zones::check("Europe/Paris").is_ok());
    assert!(
        super::zones::check("Europe").is_err(),
        "a folder is no zone"
    );
}
