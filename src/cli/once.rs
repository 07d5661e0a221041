//! `ringbar --once [--json]`: two samples, then every configured module's text and the
//! tooltips the bar would show, or the same as one JSON object. Script modules run once
//! meanwhile (see `once_scripts.rs`).

use std::time::{Duration, Instant};

use super::{print, report_probe_error, Failure};
use crate::app::startup;
use crate::app::wallclock::LocalClock;
use crate::modules::{Events, Input, Module, Update};
use crate::sinks::json;
use crate::sinks::shown;

pub fn run(interval_ms: u64, kernel_threads: bool, as_json: bool) -> Result<(), Failure> {
    let started = startup::start(None).map_err(Failure::Message)?;
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

/// What the event sources the modules follow say now, each asked once.
fn events_now(modules: &[std::rc::Rc<dyn Module>]) -> Events {
    let mut events = Events::default();
    if modules.iter().any(|m| m.follows(Update::Network)) {
        let sys = std::path::Path::new("/sys");
        match crate::events::network::netlink::snapshot(sys, Duration::from_secs(1)) {
            Ok(state) => events.network = Some(state),
            Err(err) => tracing::warn!("network: cannot read rtnetlink, not shown: {err}"),
        }
    }
    if modules.iter().any(|m| m.follows(Update::Audio)) {
        events.audio = audio_now(Duration::from_secs(1));
    }
    if modules.iter().any(|m| m.follows(Update::Bluetooth)) {
        events.bluetooth = bluetooth_now(Duration::from_secs(3));
    }
    if modules.iter().any(|m| m.follows(Update::PowerProfile)) {
        events.power_profiles = power_profiles_now(Duration::from_secs(3));
    }
    events
}

/// power-profiles-daemon's profiles, as [`bluetooth_now`] asks BlueZ.
fn power_profiles_now(timeout: Duration) -> Option<crate::events::power_profiles::PowerProfiles> {
    use std::cell::RefCell;
    use std::rc::Rc;
    let context = gtk4::glib::MainContext::default();
    let _owner = context.acquire().ok()?;
    let answer = Rc::new(RefCell::new(None));
    let stored = answer.clone();
    let _watch = crate::events::power_profiles::dbus::PowerProfilesWatch::start(move |now| {
        *stored.borrow_mut() = Some(now.cloned());
    });
    super::iterate::iterate_until(&context, timeout, || answer.borrow().is_some());
    answer.take().flatten()
}

/// BlueZ's adapters and devices, as [`audio_now`] asks the sound server: `None` when
/// bluetoothd does not run or does not answer within `timeout`.
fn bluetooth_now(timeout: Duration) -> Option<crate::events::bluetooth::BluetoothState> {
    use std::cell::RefCell;
    use std::rc::Rc;
    let context = gtk4::glib::MainContext::default();
    let _owner = context.acquire().ok()?;
    // `Some(None)` once BlueZ is known to be absent.
    let answer = Rc::new(RefCell::new(None));
    let stored = answer.clone();
    let _watch = crate::events::bluetooth::bluez::BluetoothWatch::start(move |now| {
        *stored.borrow_mut() = Some(now.cloned());
    });
    super::iterate::iterate_until(&context, timeout, || answer.borrow().is_some());
    answer.take().flatten()
}

/// The sound server's state, from a connection made for it on this thread's default
/// main context, which runs until the state comes or `timeout` passes.
fn audio_now(timeout: Duration) -> Option<crate::events::audio::AudioState> {
    use std::cell::RefCell;
    use std::rc::Rc;
    let context = gtk4::glib::MainContext::default();
    let _owner = context.acquire().ok()?;
    let state = Rc::new(RefCell::new(None));
    let stored = state.clone();
    let _watch = crate::events::audio::pulse::AudioWatch::start(move |now| {
        *stored.borrow_mut() = now.cloned();
    })?;
    super::iterate::iterate_until(&context, timeout, || state.borrow().is_some());
    state.take()
}
