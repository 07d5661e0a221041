//! The bar in a real compositor: headless sway (and weston for the fallback) run by an
//! unprivileged user, ringbar installed with file capabilities, the real probe, real
//! clicks from a virtual pointer, screenshots with grim.

#[path = "../common/mod.rs"]
mod common;

mod bars_per_output;
mod clock;
mod code_pages;
mod drawing;
mod groups;
mod heap_trim;
mod hidden_readings;
mod history;
mod hotplug_storm;
mod idle_inhibitor;
mod image;
mod imported_style;
mod keyboard;
mod killed;
mod lifecycle;
mod module_menu;
mod monitor;
mod niri;
mod overflow;
mod reloads;
mod responsive;
mod taskbar;
mod tooltips;
mod workspace_modules;

use std::process::Command;
use std::time::Duration;

use common::wait_for;

const WAIT: Duration = Duration::from_secs(20);

/// The bar's background from resources/style.css: rgba(24, 26, 33, 0.92).
fn is_bar_background([r, g, b]: [u8; 3]) -> bool {
    r.abs_diff(24) <= 8 && g.abs_diff(26) <= 8 && b.abs_diff(33) <= 8
}

fn capability_line<'a>(status: &'a str, name: &str) -> &'a str {
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .map_or("", str::trim)
}

/// The monitor modules at the left edge, where the tests hover and click.
const LEFT_MONITOR: &str = "modules_left = [\"cpu\", \"memory\"]\n";

/// Waits until the tooltip, opened by hovering over the left edge's first module, shows
/// `needle`.
fn hover_until_tooltip_shows(
    pointer: &mut common::session::Pointer,
    bar: &common::session::RunningBar,
    needle: &str,
) {
    hover_at_until_tooltip_shows(pointer, bar, 40, needle);
}

/// Waits until the tooltip, opened by hovering at `x` on the bar, shows `needle`.
fn hover_at_until_tooltip_shows(
    pointer: &mut common::session::Pointer,
    bar: &common::session::RunningBar,
    at: u32,
    needle: &str,
) {
    // A click hides the tooltip; GTK shows it again after the pointer moves and rests.
    let mut x = at;
    wait_for(&format!("the tooltip to show `{needle}`"), WAIT, || {
        x = if x == at { at + 5 } else { at };
        pointer.move_to(x, 12);
        std::thread::sleep(Duration::from_millis(1500));
        bar.tooltip_text().contains(needle)
    });
}

/// `date +FORMAT` now, in the machine's time zone (the bar's too).
fn date(format: &str) -> String {
    let out = Command::new("date")
        .arg(format!("+{format}"))
        .output()
        .expect("run date");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}
