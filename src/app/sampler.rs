//! One sample per tick, whoever asks (the bar, `--once`, `--json`, `--waybar`,
//! `--bench`): the collector's process snapshot and the sensors' readings, timed and
//! stamped, in one [`Sample`].

use std::time::Instant;

use crate::config;
use crate::model::app::GroupBy;
use crate::model::controls::Controls;
use crate::model::gpu_users::Owner;
use crate::records::collector::{self, Collector};
use crate::records::probe::ProbeError;
use crate::records::realnames::RealNames;
use crate::sample::readings::{Reader, Readings};
use crate::sample::{Notice, Sample};
use crate::sensors::nvidia::Nvml;
use crate::sensors::{Roots, Sensors, Wanted};

/// The local time zone's offset from UTC at `unix_s`, for the history's times; 0 if the
/// C library cannot tell. glibc reads the zone once, then converts without allocating.
fn utc_offset_s(unix_s: u64) -> i32 {
    let Ok(time) = libc::time_t::try_from(unix_s) else {
        return 0;
    };
    // libc: rustix has no time zone conversion.
    // SAFETY: `tm` is plain data for which all zeroes is a valid value.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are to live locals for the call; localtime_r is the reentrant
    // form and keeps neither.
    let converted = unsafe { libc::localtime_r(&time, &mut tm) };
    if converted.is_null() {
        return 0;
    }
    i32::try_from(tm.tm_gmtoff).unwrap_or(0)
}

pub struct Sampler {
    collector: Collector,
    sensors: Sensors,
    sample: Sample,
    /// Why the probe is off, shown for the life of the process.
    probe_notice: Option<Notice>,
    sample_failed: bool,
    names: RealNames,
    /// The system readings taken (all, unless the bar says what it shows).
    wanted: Wanted,
    /// The readings of the layout's modules, parallel to `sample.readings`.
    readers: Vec<Box<dyn Reader>>,
}

impl Sampler {
    /// Discovers the sensors and prepares the first sample. `collector` was made while
    /// the process was still privileged; `probe_error` says why it reads /proc, if it does;
    /// `config_notices` are the config's problems.
    pub fn new(
        mut collector: Collector,
        probe_error: Option<&ProbeError>,
        sensors: &config::Sensors,
        controls: Controls,
        config_notices: Vec<Notice>,
    ) -> Sampler {
        collector.set_kernel_threads(controls.kernel_threads);
        let mut sample = Sample {
            source: collector.source(),
            interval_ms: controls.interval_ms,
            ..Sample::default()
        };
        let nvidia = match sensors.skip_gpus {
            true => None,
            false => Nvml::load_logged(),
        };
        let sensors = Sensors::discover(
            Roots::system(),
            sensors.clone(),
            nvidia,
            collector::page_size(),
            collector::monotonic_ns(),
            &mut sample.hardware,
        );
        let probe_notice = probe_error.map(|err| {
            Notice::new(
                "BPF probe off",
                format!("{err} Until then the numbers come from /proc."),
            )
        });
        let mut sampler = Sampler {
            collector,
            sensors,
            sample,
            probe_notice,
            sample_failed: false,
            names: RealNames::default(),
            wanted: Wanted::ALL,
            readers: Vec::new(),
        };
        sampler.set_config_notices(config_notices);
        sampler
    }

    /// Takes a sample. A failure is logged once (until sampling works again) and leaves
    /// the previous process figures in place.
    pub fn take(&mut self) -> &Sample {
        let started = Instant::now();
        self.collector.prepare();
        self.sensors.read(
            collector::monotonic_ns(),
            &mut self.sample.hardware,
            self.wanted,
        );
        let now_ns = collector::monotonic_ns();
        self.sample
            .readings
            .read(&mut self.readers, now_ns, self.wanted.tooltip);
        match self.collector.sample() {
            Ok(()) => self.sample_failed = false,
            Err(err) => {
                if !self.sample_failed {
                    tracing::warn!("sampling failed: {err}");
                }
                self.sample_failed = true;
            }
        }
        self.copy_processes();
        self.read_gpu_users();
        let sample = &mut self.sample;
        sample.oom_kills = *self.collector.oom_kills();
        sample.sample_us = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        sample.unix_ms = crate::records::unix_ms_now();
        sample.history.utc_offset_s = utc_offset_s(sample.unix_ms / 1000);
        sample.record_history();
        sample
    }

    /// The collector's lists into the sample, each process row under its real name, each
    /// D row with its wait channel.
    fn copy_processes(&mut self) {
        self.sample.processes = *self.collector.snapshot();
        self.names.name_rows(&mut self.sample.processes);
        crate::records::wchan::fill(&mut self.sample.processes.stuck);
    }

    /// Who uses each GPU, among the processes just sampled, under their real names.
    fn read_gpu_users(&mut self) {
        let owners = self.collector.model().processes().iter();
        let owners = owners.filter(|p| !p.kthread).map(|p| {
            let owner = Owner {
                pid: p.tgid,
                start_ns: p.start_ns,
                comm: p.comm,
            };
            (owner, p.private)
        });
        let hw = &mut self.sample.hardware;
        self.sensors
            .read_users(collector::monotonic_ns(), owners, hw);
        self.names.name_gpu_rows(&mut hw.gpus);
    }

    /// The latest sample.
    pub fn sample(&self) -> &Sample {
        &self.sample
    }

    /// Includes or excludes kernel threads in the lists at once, without a new sample.
    pub fn set_kernel_threads(&mut self, include: bool) {
        self.collector.set_kernel_threads(include);
        self.copy_processes();
    }

    /// `group_by` from the config (`None`: apps when the session has app scopes).
    pub fn set_group_by(&mut self, group_by: Option<GroupBy>) {
        self.collector.set_group_by(group_by);
        self.copy_processes();
    }

    /// `[network] include_loopback`: the machine's own traffic in the network list.
    pub fn set_net_include_local(&mut self, include: bool) {
        self.collector.set_net_include_local(include);
        self.copy_processes();
    }

    /// Right click: ranks apps instead of processes or back, at once; returns the new one.
    pub fn toggle_group_by(&mut self) -> GroupBy {
        let next = self.sample.processes.group_by.toggled();
        self.set_group_by(Some(next));
        next
    }

    /// The modules' own readers (see [`crate::sample::readings`]), for the next samples.
    pub fn set_readers(&mut self, readers: Vec<Box<dyn Reader>>) {
        self.sample.readings = Readings::of(&readers);
        self.readers = readers;
    }

    /// The system readings the next samples take.
    pub fn set_wanted(&mut self, wanted: Wanted) {
        self.wanted = wanted;
    }

    /// Whether samples are taken (`false`: none until it is `true` again, and the record
    /// source lets go of what only sampling holds).
    pub fn set_sampling(&mut self, sampling: bool) {
        self.collector.set_sampling(sampling);
    }

    pub fn set_interval_ms(&mut self, interval_ms: u32) {
        self.sample.interval_ms = interval_ms;
    }

    /// Rediscovers the sensors for a changed `[sensors]` table; `config_notices` are the
    /// config's problems, to which the sensor choices that fail are added.
    pub fn reconfigure(&mut self, sensors: &config::Sensors, config_notices: Vec<Notice>) {
        self.sensors.reconfigure(
            sensors.clone(),
            Nvml::load_logged,
            collector::monotonic_ns(),
            &mut self.sample.hardware,
        );
        self.set_config_notices(config_notices);
    }

    fn set_config_notices(&mut self, config_notices: Vec<Notice>) {
        let problems = self.sensors.config_problems(&self.sample.hardware);
        for problem in &problems {
            tracing::warn!("{problem}");
        }
        let sensor_notices = problems.into_iter().map(|p| Notice::new("config", p));
        self.sample.notices = self
            .probe_notice
            .iter()
            .cloned()
            .chain(config_notices)
            .chain(sensor_notices)
            .collect();
    }

    pub fn collector(&self) -> &Collector {
        &self.collector
    }
}
