//! Hardware sensors, discovered under a sysfs and a procfs root and re-read with
//! pread(2) each tick. Every reader takes its roots, so tests run against fake trees.
//!
//! Discovery (directory scans, symlink reads) happens at start-up and again on a slow
//! timer, sooner while some value is failing; a tick only preads files already open.

pub mod cpu;
pub mod drm_users;
/// Fake sysfs trees, for the test suite only.
#[cfg(any(test, feature = "test-support"))]
pub mod fixtures;
pub mod gpu;
pub mod gpu_users;
#[cfg(test)]
mod machines;
pub mod nvidia;
pub mod system;

pub use crate::records::sysfs::{
    parse_integer, read_integer, read_text, sorted_entries, SensorFile,
};

use crate::config;
use crate::model::{Gpu, GpuReading, Hardware, Value};
use cpu::CpuSensors;
use gpu::DrmGpu;
use gpu_users::GpuUsers;
use nvidia::Nvidia;
use system::SystemSensors;
pub use system::Wanted;

/// Rediscover this often when everything reads fine (a GPU may have been plugged in)…
const REDISCOVER_NS: u64 = 60_000_000_000;
/// …and this often while some value fails (a driver reload, a vanished device).
const REDISCOVER_FAILING_NS: u64 = 5_000_000_000;

/// How one GPU is read each tick: through its sysfs files, or through NVML.
pub enum GpuReader {
    Drm(Box<DrmGpu>),
    /// The NVML device index.
    Nvidia(u32),
}

impl GpuReader {
    pub fn read(&mut self, now_ns: u64, out: &mut GpuReading, nvidia: Option<&dyn Nvidia>) {
        match (self, nvidia) {
            (GpuReader::Drm(gpu), _) => gpu.read(now_ns, out),
            (GpuReader::Nvidia(index), Some(nvml)) => nvidia::read(nvml, *index, out),
            (GpuReader::Nvidia(_), None) => *out = GpuReading::default(),
        }
    }
}

/// Where the sensors live: `/sys` and `/proc` on a real machine.
pub use crate::sample::readings::Roots;

/// Every sensor of the machine, and when to look for changes.
pub struct Sensors {
    roots: Roots,
    config: config::Sensors,
    page_size: u64,
    cpu: CpuSensors,
    /// Parallel to `Hardware::gpus`.
    gpus: Vec<GpuReader>,
    nvidia: Option<Box<dyn Nvidia>>,
    system: SystemSensors,
    users: GpuUsers,
    discovered_ns: u64,
}

impl Sensors {
    /// Discovers everything and fills `hw` with the GPUs found (no readings yet).
    pub fn discover(
        roots: Roots,
        config: config::Sensors,
        nvidia: Option<Box<dyn Nvidia>>,
        page_size: u64,
        now_ns: u64,
        hw: &mut Hardware,
    ) -> Sensors {
        let cpu = CpuSensors::discover(&roots.sys, &roots.proc, config.cpu_temperature.as_ref());
        match cpu.temperature_source() {
            Some(source) => tracing::info!("CPU temperature from {}", source.description),
            None => tracing::debug!("no CPU temperature sensor found"),
        }
        let system = SystemSensors::discover(&roots, page_size);
        let users = GpuUsers::new(&roots.proc);
        let mut sensors = Sensors {
            roots,
            config,
            page_size,
            cpu,
            gpus: Vec::new(),
            nvidia,
            system,
            users,
            discovered_ns: now_ns,
        };
        sensors.set_gpus(sensors.find_gpus(), hw);
        sensors
    }

    /// Discovers everything again for a changed config. NVML stays loaded while GPUs are
    /// shown, is loaded (`load_nvidia`) when they come to be, and unloaded when not.
    pub fn reconfigure(
        &mut self,
        config: config::Sensors,
        load_nvidia: impl FnOnce() -> Option<Box<dyn Nvidia>>,
        now_ns: u64,
        hw: &mut Hardware,
    ) {
        let nvidia = match (config.skip_gpus, self.nvidia.take()) {
            (true, _) => None,
            (false, Some(loaded)) => Some(loaded),
            (false, None) => load_nvidia(),
        };
        *hw = Hardware::default();
        *self = Sensors::discover(
            self.roots.clone(),
            config,
            nvidia,
            self.page_size,
            now_ns,
            hw,
        );
    }

    /// Problems with the config's sensor choices, for the bar's notices.
    pub fn config_problems(&self, hw: &Hardware) -> Vec<String> {
        let mut problems = Vec::new();
        if let (true, Some(named)) = (self.cpu.missing_named_sensor, &self.config.cpu_temperature) {
            problems.push(format!(
                "sensors.cpu_temperature: no hwmon {:?}{} here; using automatic discovery",
                named.hwmon,
                named
                    .label
                    .as_ref()
                    .map(|l| format!(" with label {l:?}"))
                    .unwrap_or_default()
            ));
        }
        let gpu_named = self.config.gpu.as_ref().filter(|_| !self.config.skip_gpus);
        if let (Some(wanted), None) = (gpu_named, hw.configured_gpu) {
            problems.push(format!(
                "sensors.gpu: no GPU {wanted:?} here; showing the busiest"
            ));
        }
        problems
    }

    fn find_gpus(&self) -> Vec<(Gpu, GpuReader)> {
        if self.config.skip_gpus {
            return Vec::new();
        }
        let mut found: Vec<(Gpu, GpuReader)> = gpu::discover(&self.roots.sys)
            .into_iter()
            .map(|drm: DrmGpu| (drm.describe(), GpuReader::Drm(Box::new(drm))))
            .collect();
        if let Some(nvidia) = &self.nvidia {
            let nvidia_gpus = nvidia::discover(nvidia.as_ref()).into_iter();
            found.extend(nvidia_gpus.map(|(gpu, index)| (gpu, GpuReader::Nvidia(index))));
        }
        found
    }

    fn set_gpus(&mut self, found: Vec<(Gpu, GpuReader)>, hw: &mut Hardware) {
        for (gpu, _) in &found {
            if !hw.gpus.iter().any(|g| same_gpu(g, gpu)) {
                tracing::info!("GPU {} {} at {}", gpu.card, gpu.driver.name(), gpu.pci_slot);
            }
        }
        for gpu in &hw.gpus {
            if !found.iter().any(|(g, _)| same_gpu(g, gpu)) {
                tracing::info!("GPU {} {} is gone", gpu.card, gpu.driver.name());
            }
        }
        let (gpus, readers) = found.into_iter().unzip();
        hw.gpus = gpus;
        self.gpus = readers;
        hw.configured_gpu = self
            .config
            .gpu
            .as_deref()
            .and_then(|wanted| hw.gpus.iter().position(|g| g.is_named(wanted)));
    }

    /// Reads every sensor into `hw`, rediscovering first when it is time.
    /// Reads every sensor; of the system readings, those `wanted`.
    pub fn read(&mut self, now_ns: u64, hw: &mut Hardware, wanted: Wanted) {
        let since = now_ns.saturating_sub(self.discovered_ns);
        let wait = if any_failed(hw) {
            REDISCOVER_FAILING_NS
        } else {
            REDISCOVER_NS
        };
        if since >= wait {
            self.rediscover(now_ns, hw);
        }
        hw.cpu = self.cpu.read();
        for (gpu, reader) in hw.gpus.iter_mut().zip(&mut self.gpus) {
            reader.read(now_ns, &mut gpu.reading, self.nvidia.as_deref());
        }
        self.system.read(now_ns, hw, wanted);
    }

    /// Who uses each GPU, after the process sample: `processes` are its user processes,
    /// each with whether it is private to the reader.
    pub fn read_users(
        &mut self,
        now_ns: u64,
        processes: impl Iterator<Item = (crate::model::gpu_users::Owner, bool)>,
        hw: &mut Hardware,
    ) {
        let nvidia = self.nvidia.as_deref();
        self.users.read(now_ns, processes, hw, &self.gpus, nvidia);
    }

    /// How many times a process's fds were looked at for DRM clients.
    pub fn user_scans(&self) -> u64 {
        self.users.scans()
    }

    /// Looks again for GPUs and sensors; keeps the readers (and their history, such as
    /// the last RC6 residency) of whatever is still there and still reads.
    fn rediscover(&mut self, now_ns: u64, hw: &mut Hardware) {
        self.discovered_ns = now_ns;
        let found = self.find_gpus();
        let unchanged = found.len() == hw.gpus.len()
            && found
                .iter()
                .zip(&hw.gpus)
                .all(|((g, _), old)| same_gpu(g, old));
        if !unchanged || hw.gpus.iter().any(gpu_failed) {
            self.set_gpus(found, hw);
        }
        if cpu_failed(hw) || hw.cpu.celsius.is_absent() || self.cpu.reads_cpuinfo() {
            let (sys, proc) = (&self.roots.sys, &self.roots.proc);
            let cpu = CpuSensors::discover(sys, proc, self.config.cpu_temperature.as_ref());
            if cpu.temperature_source() != self.cpu.temperature_source() {
                match cpu.temperature_source() {
                    Some(source) => tracing::info!("CPU temperature from {}", source.description),
                    None => tracing::info!("CPU temperature sensor is gone"),
                }
            }
            self.cpu = cpu;
        }
        if self.system.failed(hw) {
            self.system = SystemSensors::discover(&self.roots, self.page_size);
        }
    }
}

fn same_gpu(a: &Gpu, b: &Gpu) -> bool {
    a.card == b.card && a.driver == b.driver && a.pci_slot == b.pci_slot
}

fn failed<T: Copy>(value: Value<T>) -> bool {
    matches!(value, Value::Failed)
}

fn gpu_failed(gpu: &Gpu) -> bool {
    let r = &gpu.reading;
    failed(r.busy_percent)
        || failed(r.mhz)
        || failed(r.max_mhz)
        || failed(r.celsius)
        || failed(r.vram_used)
        || failed(r.vram_total)
        || failed(r.throttle)
}

fn cpu_failed(hw: &Hardware) -> bool {
    failed(hw.cpu.celsius) || failed(hw.cpu.average_mhz)
}

fn any_failed(hw: &Hardware) -> bool {
    cpu_failed(hw) || hw.gpus.iter().any(gpu_failed)
}
