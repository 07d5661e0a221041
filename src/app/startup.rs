//! What the bar and `--waybar` do before their main loop, in the order privacy needs:
//! load the probe while the process holds CAP_BPF/CAP_PERFMON, drop every capability, and
//! only then read what the user controls (config, state).

use std::path::PathBuf;

use gtk4::glib;

use crate::app::paths;
use crate::app::sampler::Sampler;
use crate::app::state::StateFile;
use crate::config::{self, Config};
use crate::model::controls::Controls;
use crate::records::collector::Collector;
use crate::records::{fdlimit, privileges};
use crate::sample::Notice;

pub struct Started {
    pub sampler: Sampler,
    /// Why the probe did not load (the numbers come from /proc), for the caller to report.
    pub probe_error: Option<String>,
    pub config: Config,
    pub config_file: Option<PathBuf>,
    pub controls: Controls,
    pub state_file: Option<StateFile>,
}

/// The first thing the bar and `--waybar` do: a reload asked of a process still starting
/// (SIGHUP, SIGUSR1) must not end it, which is those signals' default action, until
/// [`handle_signals`] takes them over; it reads its config as it starts anyway.
pub fn ignore_reloads_until_handled() {
    for signal in [libc::SIGUSR1, libc::SIGHUP] {
        // libc: rustix has no call to set a signal's disposition.
        // SAFETY: SIG_IGN is a valid disposition for these signals; no handler code runs.
        unsafe { libc::signal(signal, libc::SIG_IGN) };
    }
}

/// [`start`], its failure logged as an error (`None`: the process must end) and the
/// probe's as a warning.
pub fn start_logged(interval_ms: Option<u32>) -> Option<Started> {
    let started = start(interval_ms, false)
        .map_err(|err| tracing::error!("{err}"))
        .ok()?;
    if let Some(err) = &started.probe_error {
        tracing::warn!("BPF probe off, reading /proc instead: {err}");
    }
    Some(started)
}

/// Loads the probe (or falls back to /proc), drops privileges, reads config and state;
/// `interval_ms` (from the command line) overrides both. With `whole_sample` (`--once`,
/// `--bench`) the samples hold every reading, not only what the layout shows (the GPUs
/// though no listed module shows one). Fails only when privileges cannot be dropped:
/// nothing must run with them.
pub fn start(interval_ms: Option<u32>, whole_sample: bool) -> Result<Started, String> {
    // The /proc fallback keeps files open; the children get the usual limit back.
    fdlimit::raise();
    let (mut collector, probe_error) = Collector::new(false);
    // Who reads, judged with the powers the process started with.
    collector.set_privacy(privileges::reader_privacy());
    match privileges::drop_all() {
        Ok(dropped) => tracing::debug!("capabilities dropped: {dropped:?}"),
        Err(err) => return Err(format!("cannot drop privileges: {err}")),
    }

    let config_file = paths::config_file();
    let (mut config, config_notices) = load_config(config_file.as_deref());
    if whole_sample {
        config.sensors.skip_gpus = false;
    }
    let state_file = paths::state_file();
    let defaults = Controls {
        interval_ms: config.interval_ms,
        kernel_threads: config.kernel_threads,
    };
    let state_file = state_file.map(|path| StateFile {
        path,
        config: defaults,
    });
    let mut controls = state_file.as_ref().map_or(defaults, StateFile::load);
    if let Some(ms) = interval_ms {
        controls.interval_ms = ms;
        tracing::info!("interval={ms}ms from the command line");
    }
    let mut sampler = Sampler::new(
        collector,
        probe_error.as_ref(),
        &config.sensors,
        controls,
        config_notices,
    );
    sampler.set_group_by(config.group_by);
    sampler.set_net_include_local(config.net_include_local);
    let roots = crate::sample::readings::Roots::system();
    sampler.set_readers(crate::modules::readers_of(config.modules.all(), &roots));
    Ok(Started {
        sampler,
        probe_error: probe_error.map(|err| err.to_string()),
        config,
        config_file,
        controls,
        state_file,
    })
}

/// SIGTERM and SIGINT end `main_loop` (logged); SIGUSR1 and SIGHUP call `reload`.
pub fn handle_signals(main_loop: &glib::MainLoop, reload: impl Fn() + 'static) {
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
        let main_loop = main_loop.clone();
        glib_unix::unix_signal_add_local(signal, move || {
            tracing::info!("{name}: exiting");
            main_loop.quit();
            glib::ControlFlow::Continue
        });
    }
    let reload = std::rc::Rc::new(reload);
    for signal in [libc::SIGUSR1, libc::SIGHUP] {
        let reload = reload.clone();
        glib_unix::unix_signal_add_local(signal, move || {
            reload();
            glib::ControlFlow::Continue
        });
    }
}

/// The config (the defaults if there is none or it is broken) and its problem as a notice.
pub fn load_config(path: Option<&std::path::Path>) -> (Config, Vec<Notice>) {
    let (config, error) = match path {
        Some(path) => config::load(path),
        None => (Config::default(), None),
    };
    let notices = error
        .map(|err| {
            tracing::error!("config: {err}");
            Notice::new("config", err.to_string())
        })
        .into_iter()
        .collect();
    (config, notices)
}
