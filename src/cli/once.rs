//! `ringbar --once [--json]`: two samples, then every configured module's text and the
//! tooltips the bar would show, or the same as one JSON object. Script modules run once
//! meanwhile (see `once_scripts.rs`).

use std::time::{Duration, Instant};

use super::{print, report_probe_error, Failure};
use crate::app::startup;
use crate::app::wallclock::LocalClock;
use crate::events::Events;
use crate::modules::{event_sources, Input, Module};
use crate::sinks::json;
use crate::sinks::shown;

pub fn run(interval_ms: u64, kernel_threads: bool, as_json: bool) -> Result<(), Failure> {
    let started = startup::start(None, true).map_err(Failure::Message)?;
    report_probe_error(started.probe_error.as_deref());
    let mut sampler = started.sampler;
    let interval_ms = u32::try_from(interval_ms).unwrap_or(u32::MAX);
    sampler.set_interval_ms(interval_ms);
    sampler.set_kernel_threads(kernel_threads);
    sampler.take();
    let first = Instant::now();
    // The scripts run meanwhile: the interval waits for them, not the other way round.
    let modules: Vec<_> = started.config.modules.all().cloned().collect();
    let scripts = super::once_scripts::first_states(&modules);
    let interval = Duration::from_millis(u64::from(interval_ms));
    std::thread::sleep(interval.saturating_sub(first.elapsed()));
    let events = events_now(&modules);
    let input = Input {
        sample: sampler.take(),
        clock: &LocalClock,
        compositor: &crate::modules::NO_COMPOSITOR,
        output: "",
        scripts: &scripts,
        events: &events,
    };

    if as_json {
        let document = json::document(&input, &modules);
        let text = serde_json::to_string_pretty(&document)
            .map_err(|err| Failure::Message(format!("cannot write JSON: {err}")))?;
        return print(&(text + "\n"));
    }
    // The modules' texts on one line, as the bar shows them, then their tooltips.
    let shown = shown(&input, &modules, false);
    let mut out = shown.text;
    out.push('\n');
    for tooltip in shown.tooltips {
        out.push_str(&tooltip);
        out.push('\n');
    }
    print(&out)
}

/// What the event sources the modules follow say now: each started on this thread's
/// default main context, which turns until every one has answered (or said its service
/// is absent) or a deadline passes.
fn events_now(modules: &[std::rc::Rc<dyn Module>]) -> Events {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    let events = Rc::new(RefCell::new(Events::default()));
    let context = gtk4::glib::MainContext::default();
    let Ok(_owner) = context.acquire() else {
        return Events::default();
    };
    let mut watches = Vec::new();
    let mut answers = Vec::new();
    for (source, settings) in event_sources(modules.iter()) {
        let answered = Rc::new(Cell::new(false));
        let set = answered.clone();
        let changed = Rc::new(move || set.set(true));
        if let Some(watch) = source.start(settings.as_ref(), &events, changed) {
            watches.push(watch);
            answers.push(answered);
        }
    }
    super::iterate::iterate_until(&context, Duration::from_secs(3), || {
        answers.iter().all(|answered| answered.get())
    });
    drop(watches);
    events.take()
}
