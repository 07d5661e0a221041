//! `--once` runs the main-loop clients (script runners, the sound server's) for one
//! answer: their main context turns until they have it or a deadline passes.

use std::time::{Duration, Instant};

use gtk4::glib::{self, ControlFlow, MainContext, Priority};

/// Turns `context` until `done` holds or `timeout` passes.
pub fn iterate_until(context: &MainContext, timeout: Duration, done: impl Fn() -> bool) {
    // Wakes the loop so the deadline is seen.
    let tick = glib::timeout_source_new(Duration::from_millis(50), None, Priority::DEFAULT, || {
        ControlFlow::Continue
    });
    tick.attach(Some(context));
    let deadline = Instant::now() + timeout;
    while !done() && Instant::now() < deadline {
        context.iteration(true);
    }
    tick.destroy();
}
