//! Section 7: the main loop's worst stall per sample tick on the /proc fallback at 3,000
//! extra processes and a 100 ms interval: the lateness of a 16 ms timer on the bar's
//! main loop (the test hook's `stalls` file: one line per sample, the worst lateness
//! since the previous one). The bar runs in headless sway without capabilities, so the
//! probe cannot load.

use std::time::Duration;

use crate::common::crowd::Crowd;
use crate::common::session::{Compositor, Session};
use crate::common::wait_for;
use crate::report::{median, Report};

const CROWD: usize = 3000;
const WARM_UP: Duration = Duration::from_secs(3);
const WINDOW: Duration = Duration::from_secs(20);

/// (worst stall µs, sample µs) per sample, from the `stalls` file.
fn ticks(session: &Session) -> Vec<(f64, f64)> {
    let text = std::fs::read_to_string(session.hook_dir().join("stalls")).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(' ');
            Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
        })
        .collect()
}

/// Returns the worst stall in ms.
pub fn main_loop_stall(report: &mut Report) -> f64 {
    report.heading(&format!(
        "7. Main-loop stall per tick: /proc fallback, {CROWD} extra processes, 100 ms"
    ));
    let _crowd = Crowd::sleepers(CROWD);
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "interval_ms = 100\nmodules_right = [\"cpu\", \"memory\"]\n",
    );
    let bar = session.start_bar_without_capabilities();
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the first samples", Duration::from_secs(20), || {
        !ticks(&session).is_empty()
    });
    std::thread::sleep(WARM_UP);
    let from = ticks(&session).len();
    std::thread::sleep(WINDOW);
    let window: Vec<(f64, f64)> = ticks(&session).into_iter().skip(from).collect();
    assert!(!window.is_empty(), "no samples:\n{}", bar.log_text());
    let mut stalls: Vec<f64> = window.iter().map(|t| t.0 / 1000.0).collect();
    let mut samples: Vec<f64> = window.iter().map(|t| t.1 / 1000.0).collect();
    let worst = stalls.iter().copied().fold(0.0, f64::max);
    let rows = vec![vec![
        window.len().to_string(),
        format!("{:.1} ms", median(&mut samples)),
        format!("{:.1} ms", median(&mut stalls)),
        format!("{worst:.1} ms"),
    ]];
    report.table(
        &[
            "samples",
            "sample (median)",
            "stall (median)",
            "stall (worst)",
        ],
        &rows,
    );
    report.note(
        "The stall of a tick: how late a 16 ms glib timer on the bar's main loop fired, \
         the worst since the previous sample. Samples this long stay on the sampling \
         thread; the main loop only renders.",
    );
    worst
}
