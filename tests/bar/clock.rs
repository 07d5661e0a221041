//! The clock: its own wall-clock timer, the calendar, and staying right across a time
//! zone change and a clock step (what a resume from suspend looks like to a timer).

use std::time::Duration;

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

#[test]
fn the_clock_ticks_on_its_own_timer_and_shows_its_calendar() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"clock\", \"cpu\"]\n[clock]\nformat = \"%H:%M:%S\"\n\
         format_alt = \"day %d of %B\"\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let clock = || bar.field("clock");
    // The sample interval is 2 s; the clock shows seconds, so its own timer must tick
    // every second and agree with the system clock.
    wait_for("the clock to show the time", WAIT, || {
        clock() == date("%H:%M:%S")
    });
    let first = clock();
    wait_for("the next second", Duration::from_millis(1500), || {
        clock() != first
    });

    // Hovered until the calendar shows, so the pointer is surely on the bar before the
    // click (a click right after the first motion can reach sway before the bar has it).
    let mut pointer = session.pointer();
    hover_at_until_tooltip_shows(&mut pointer, &bar, 30, "Mo Tu We Th Fr Sa Su");
    assert!(
        bar.tooltip_text().contains(&date("%B %Y")),
        "{}",
        bar.tooltip_text()
    );
    pointer.click("left");
    wait_for("the alternative format", WAIT, || {
        clock() == date("day %d of %B")
    });
    let markup = bar.tooltip_markup();
    let today = date("%-d");
    assert!(
        markup.contains(&format!("<b>{today:>2}</b>")),
        "today in bold: {markup}"
    );
}

/// Points `/etc/localtime` at another zone the way timedatectl does (a new link renamed
/// over the old one), and puts the original back when dropped, also when a test fails.
struct ZoneSwitch {
    original: std::path::PathBuf,
}

impl ZoneSwitch {
    fn new() -> ZoneSwitch {
        let original = std::fs::read_link("/etc/localtime").expect("/etc/localtime is a link");
        ZoneSwitch { original }
    }

    fn point_to(&self, target: &std::path::Path) {
        let staged = std::path::Path::new("/etc/.localtime.ringbar-test");
        let _ = std::fs::remove_file(staged);
        std::os::unix::fs::symlink(target, staged).expect("symlink");
        std::fs::rename(staged, "/etc/localtime").expect("rename over /etc/localtime");
    }
}

impl Drop for ZoneSwitch {
    fn drop(&mut self) {
        self.point_to(&self.original.clone());
    }
}

/// Steps CLOCK_REALTIME by `seconds` (the monotonic clock does not move), as a resume
/// from suspend does; steps it back when dropped.
struct ClockStep {
    seconds: i64,
}

fn step_realtime(seconds: i64) {
    // SAFETY: timex is plain old data; all-zero is a valid value to fill in.
    let mut adjust: libc::timex = unsafe { std::mem::zeroed() };
    adjust.modes = libc::ADJ_SETOFFSET | libc::ADJ_NANO;
    adjust.time.tv_sec = seconds;
    adjust.time.tv_usec = 0;
    // SAFETY: adjust is a valid, writable timex for the duration of the call.
    let result = unsafe { libc::clock_adjtime(libc::CLOCK_REALTIME, &raw mut adjust) };
    assert!(
        result >= 0,
        "clock_adjtime: {}",
        std::io::Error::last_os_error()
    );
}

impl ClockStep {
    fn forward(seconds: i64) -> ClockStep {
        step_realtime(seconds);
        ClockStep { seconds }
    }
}

impl Drop for ClockStep {
    fn drop(&mut self) {
        step_realtime(-self.seconds);
    }
}

/// Waits until the next minute boundary is at least 10 s away, so a change the clock
/// shows within a few seconds cannot be the minute timer's regular tick.
fn away_from_a_minute_boundary() {
    wait_for(
        "a quiet second of the minute",
        Duration::from_secs(70),
        || {
            let second: u32 = date("%S").parse().unwrap_or(0);
            (3..48).contains(&second)
        },
    );
}

#[test]
fn the_clock_follows_a_time_zone_change_and_a_clock_step_at_once() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // Minutes only: the clock's own timer fires once a minute, so an update within a few
    // seconds can only come from the zone watch or the timer's clock-set cancellation.
    session.write_config_file(
        "config.toml",
        "modules_left = [\"clock\", \"cpu\"]\n[clock]\nformat = \"%H:%M %Z\"\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let clock = || bar.field("clock");
    let soon = Duration::from_secs(4);
    wait_for("the clock to show the time", WAIT, || {
        clock() == date("%H:%M %Z")
    });

    // A new time zone, as timedatectl sets it: 5:30 ahead of UTC, so the minutes move.
    away_from_a_minute_boundary();
    let zone = ZoneSwitch::new();
    zone.point_to(std::path::Path::new("/usr/share/zoneinfo/Asia/Kolkata"));
    let in_kolkata = date("%H:%M %Z");
    assert!(
        in_kolkata.ends_with("IST"),
        "date reads the new zone: {in_kolkata}"
    );
    wait_for("the clock to show the new zone", soon, || {
        clock() == date("%H:%M %Z")
    });
    // The label is set before its frame is drawn, and sway shows it at its next frame:
    // the screen is read until it shows the zone.
    let mut on_screen = String::new();
    let shown = (0..20).any(|_| {
        on_screen = crate::common::ocr::read_text(&session.screenshot(0, 0, 200, 26));
        on_screen.contains("IST") || {
            std::thread::sleep(Duration::from_millis(200));
            false
        }
    });
    assert!(
        shown,
        "the zone on screen: {on_screen:?}; the label {:?}; the outputs: {}; the bar's log: {}",
        clock(),
        session.swaymsg(&["-t", "get_outputs"]),
        bar.log_text()
    );
    drop(zone);
    wait_for("the clock to show the old zone again", soon, || {
        clock() == date("%H:%M %Z")
    });

    // The wall clock jumps 7 minutes while the monotonic clock stands still: what a timer
    // sees after a suspend. A monotonic timer would be up to 7 minutes late.
    away_from_a_minute_boundary();
    let before = clock();
    let step = ClockStep::forward(7 * 60);
    let stepped = std::time::Instant::now();
    while clock() != date("%H:%M %Z") {
        assert!(
            stepped.elapsed() < soon,
            "the clock shows {:?}, {:?} before the step, and date says {:?}; the bar's \
             renders: {:?}; its log: {}",
            clock(),
            before,
            date("%H:%M %Z"),
            std::fs::read_to_string(session.hook_dir().join("renders")),
            bar.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_ne!(clock(), before, "the shown time moved");
    drop(step);
    wait_for("the clock to come back", soon, || {
        clock() == date("%H:%M %Z")
    });
}

/// Waybar's `max-length` on any module: the label shows so many characters, the rest
/// ellipsized, while the module's text stays whole.
#[test]
fn max_length_cuts_a_label_on_screen() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"clock\"]\nmodules_right = [\"cpu\"]\n\
         [clock]\nformat = \"WORDS %Y ENDING\"\nmax-length = 9\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let whole = format!("WORDS {} ENDING", date("%Y"));
    wait_for("the clock's text", WAIT, || bar.field("clock") == whole);
    let left_text = || crate::common::ocr::read_text(&session.screenshot(0, 0, 400, 26));
    wait_for("the start on screen, not the end", WAIT, || {
        let text = left_text();
        eprintln!("OCR: {text:?}");
        text.contains("WORDS") && !text.contains("ENDING")
    });
}
