//! The monitor's settings the user changes with clicks and `ringbar msg`, applied to the
//! sampler and remembered in the state file.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::model::controls::Controls;
use crate::modules::Action;
use crate::sampler::Sampler;

pub struct Monitor {
    pub sampler: Sampler,
    controls: Controls,
    state_file: Option<PathBuf>,
}

impl Monitor {
    pub fn new(sampler: Sampler, controls: Controls, state_file: Option<PathBuf>) -> Monitor {
        tracing::info!(
            "{} {}",
            controls.interval_line(),
            controls.kernel_threads_line()
        );
        Monitor {
            sampler,
            controls,
            state_file,
        }
    }

    /// Reads the config file again and rediscovers the sensors it names; returns it for
    /// the caller's modules and widgets.
    pub fn reload_config(&mut self, config_file: Option<&Path>) -> Config {
        tracing::info!("reloading the config");
        let (config, notices) = crate::startup::load_config(config_file);
        self.sampler.reconfigure(&config.sensors, notices);
        self.sampler.set_group_by(config.group_by);
        config
    }

    pub fn interval_ms(&self) -> u32 {
        self.controls.interval_ms
    }

    /// Changes the interval or the kernel-thread setting, remembers it and logs it
    /// (`interval=500ms`, `kernel-threads=on`). The caller re-arms its timer.
    pub fn apply(&mut self, action: Action) {
        let controls = &mut self.controls;
        let line = match action {
            Action::CycleInterval => {
                controls.cycle_interval();
                self.sampler.set_interval_ms(controls.interval_ms);
                controls.interval_line()
            }
            Action::ToggleKernelThreads => {
                controls.toggle_kernel_threads();
                self.sampler.set_kernel_threads(controls.kernel_threads);
                controls.kernel_threads_line()
            }
            Action::ToggleGroupBy => {
                // Not remembered: the config's `group_by` (or the session) decides at start.
                let group_by = self.sampler.toggle_group_by();
                tracing::info!("group-by={}", group_by.name());
                return;
            }
            // A module's own state, nothing of the monitor's.
            Action::Redraw | Action::Script(_) => return,
        };
        if let Some(path) = &self.state_file {
            if let Err(err) = crate::state::save(path, self.controls) {
                tracing::warn!("cannot remember the setting in {}: {err}", path.display());
            }
        }
        tracing::info!("{line}");
    }
}
