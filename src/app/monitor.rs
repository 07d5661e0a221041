//! The monitor's settings the user changes with clicks and `ringbar msg`, passed to the
//! sampling (see [`crate::app::worker`]) and remembered in the state file, and the
//! latest sample: what the main loop renders.

use std::path::Path;

use crate::app::sampler::Sampler;
use crate::app::state::StateFile;
use crate::app::state_writer::StateWriter;
use crate::app::worker::{Taken, Watch, Worker};
use crate::config::Config;
use crate::model::controls::{Controls, Request};
use crate::sample::readings::Roots;
use crate::sample::Sample;
use crate::sensors::Wanted;

/// The first sample after start-up comes this soon after the one taken at once, so the
/// labels show rates at once.
const FIRST_TICK_MS: u32 = 250;

pub struct Monitor {
    worker: Worker,
    /// The latest sample handed over.
    sample: Sample,
    controls: Controls,
    state_file: Option<StateFile>,
    state_writer: StateWriter,
}

impl Monitor {
    /// Starts sampling on its own thread. Call once the capabilities are dropped (the
    /// thread checks it holds none, else this fails) and, in the bar, after the
    /// environment is set for GTK: no thread may exist before.
    pub fn start(
        sampler: Sampler,
        controls: Controls,
        state_file: Option<StateFile>,
    ) -> Result<Monitor, String> {
        tracing::info!(
            "{} {}",
            controls.interval_line(),
            controls.kernel_threads_line()
        );
        let first_ms = FIRST_TICK_MS.min(controls.interval_ms);
        let (worker, sample) = Worker::spawn(sampler, controls.interval_ms, first_ms)?;
        Ok(Monitor {
            worker,
            sample,
            controls,
            state_file,
            state_writer: StateWriter::default(),
        })
    }

    /// The latest sample handed over (before the first: the sampler's empty one, with
    /// the sensors found and the notices).
    pub fn sample(&self) -> &Sample {
        self.worker.sample(&self.sample)
    }

    /// Takes the newest sample, if one came (or is due) since the last call, and says
    /// so. Steady ticks allocate nothing.
    pub fn receive(&mut self) -> Taken {
        self.worker.receive(&mut self.sample)
    }

    /// What the main loop watches to call [`Monitor::receive`].
    pub fn watch(&self, on_wake: impl FnMut() -> gtk4::glib::ControlFlow + 'static) -> Watch {
        let (handover, ticker) = self.worker.wakes();
        Watch::new(handover, Some(ticker), on_wake)
    }

    /// Whether samples are taken at all (see [`Worker::set_sampling`]).
    pub fn set_sampling(&self, sampling: bool) {
        self.worker.set_sampling(sampling);
    }

    /// A sample now.
    pub fn sample_now(&self) {
        self.worker.sample_now();
    }

    /// The system readings the samples take (see [`Wanted`]); with `sample_now`, one
    /// at once.
    pub fn set_wanted(&self, wanted: Wanted, sample_now: bool) {
        self.worker.set_wanted(wanted, sample_now);
    }

    /// Reads the config file again and has the sampling thread rediscover the sensors it
    /// names; returns it for the caller's modules and widgets.
    pub fn reload_config(&mut self, config_file: Option<&Path>) -> Config {
        tracing::info!("reloading the config");
        let (config, notices) = crate::app::startup::load_config(config_file);
        let readers = crate::modules::readers_of(config.modules.all(), &Roots::system());
        self.worker.reconfigure(&config.sensors, readers, notices);
        self.worker.set_group_by(config.group_by);
        self.worker.set_net_include_local(config.net_include_local);
        self.follow_config(&config);
        config
    }

    /// A value the config changed since it was last read wins over the click that chose
    /// the one in use, as it does at start (see [`StateFile::load`]).
    fn follow_config(&mut self, config: &Config) {
        let Some(state_file) = &mut self.state_file else {
            return;
        };
        let old = state_file.config;
        state_file.config = Controls {
            interval_ms: config.interval_ms,
            kernel_threads: config.kernel_threads,
        };
        if old == state_file.config {
            return;
        }
        if old.interval_ms != config.interval_ms {
            self.controls.interval_ms = config.interval_ms;
            self.worker.set_interval_ms(config.interval_ms);
            tracing::info!("{} from config.toml", self.controls.interval_line());
        }
        if old.kernel_threads != config.kernel_threads {
            self.controls.kernel_threads = config.kernel_threads;
            self.worker.set_kernel_threads(config.kernel_threads);
            tracing::info!("{} from config.toml", self.controls.kernel_threads_line());
        }
        self.remember();
    }

    pub fn interval_ms(&self) -> u32 {
        self.controls.interval_ms
    }

    /// Changes the interval (sampled at once) or the kernel-thread or group-by setting
    /// (the latest sample re-ranked at once), remembers it and logs it (`interval=500ms`,
    /// `kernel-threads=on`; the sampling thread logs `group-by=…`). The result comes
    /// through the hand-over.
    pub fn apply(&mut self, request: Request) {
        let controls = &mut self.controls;
        let line = match request {
            Request::CycleInterval => {
                controls.cycle_interval();
                self.worker.set_interval_ms(controls.interval_ms);
                controls.interval_line()
            }
            Request::ToggleKernelThreads => {
                controls.toggle_kernel_threads();
                self.worker.set_kernel_threads(controls.kernel_threads);
                controls.kernel_threads_line()
            }
            Request::ToggleGroupBy => {
                // Not remembered: the config's `group_by` (or the session) decides at start.
                self.worker.toggle_group_by();
                return;
            }
        };
        self.remember();
        tracing::info!("{line}");
    }

    fn remember(&mut self) {
        if let Some(state_file) = &self.state_file {
            self.state_writer.write(state_file, self.controls);
        }
    }
}
