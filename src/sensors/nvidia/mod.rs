//! NVIDIA GPUs through NVML, loaded at run time: no link-time dependency, and a machine
//! without the driver simply has no NVIDIA GPU. The rest of the bar sees NVML only
//! through the [`Nvidia`] trait, so tests use a fake.

mod nvml;

use crate::model::{Gpu, GpuDriver, GpuReading, Value};

pub use nvml::Nvml;

/// The library the NVIDIA driver installs (the unversioned name is only in -dev packages).
pub const LIBRARY: &str = "libnvidia-ml.so.1";

/// One device's values at one moment; `None` where NVML could not tell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NvidiaSample {
    pub busy_percent: Option<u32>,
    pub vram_used: Option<u64>,
    pub vram_total: Option<u64>,
    pub celsius: Option<u32>,
    pub graphics_mhz: Option<u32>,
    pub max_graphics_mhz: Option<u32>,
}

/// A process on an NVIDIA GPU; `None` where NVML did not tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NvidiaProcess {
    pub pid: u32,
    /// From the running compute and graphics process lists.
    pub memory_bytes: Option<u64>,
    /// The busiest of its SM, encoder and decoder use in NVML's latest sample.
    pub busy_percent: Option<u32>,
}

/// What the bar needs from NVML. `Send`: the sensors are read on the sampling thread.
pub trait Nvidia: Send {
    fn device_count(&self) -> u32;
    /// (model name, PCI address as `0000:01:00.0`).
    fn describe(&self, index: u32) -> Option<(String, String)>;
    fn sample(&self, index: u32) -> NvidiaSample;
    /// The processes on the device into `out` (cleared first). `last_seen_us` is NVML's
    /// timestamp of the utilisation samples read before, moved on to the latest. A query
    /// that fails leaves its part out, never the sample.
    fn processes(&self, index: u32, last_seen_us: &mut u64, out: &mut Vec<NvidiaProcess>);
}

/// The GPUs NVML reports, named `nvidia0`, `nvidia1`… like their device nodes, with
/// their NVML device index.
pub fn discover(nvidia: &dyn Nvidia) -> Vec<(Gpu, u32)> {
    (0..nvidia.device_count())
        .map(|index| {
            let (model, pci_slot) = nvidia.describe(index).unwrap_or_default();
            let mut gpu = Gpu::new(&format!("nvidia{index}"), GpuDriver::Nvidia, &pci_slot);
            gpu.model = model;
            (gpu, index)
        })
        .collect()
}

pub fn read(nvidia: &dyn Nvidia, index: u32, out: &mut GpuReading) {
    let sample = nvidia.sample(index);
    *out = GpuReading {
        busy_percent: Value::read(sample.busy_percent.filter(|&p| p <= 100).map(f64::from)),
        mhz: Value::read(sample.graphics_mhz.map(f64::from)),
        max_mhz: Value::read(sample.max_graphics_mhz.map(f64::from)),
        celsius: Value::read(sample.celsius.filter(|&c| c <= 150).map(f64::from)),
        vram_used: Value::read(sample.vram_used),
        vram_total: Value::read(sample.vram_total),
        throttle: Value::Absent,
        asleep: false,
    };
}

#[cfg(test)]
pub mod tests {
    use std::ffi::OsStr;

    use nvml_wrapper::error::NvmlError;

    use super::*;

    /// A fake NVML: two GPUs, the second of which fails every query.
    pub struct FakeNvidia;

    impl Nvidia for FakeNvidia {
        fn device_count(&self) -> u32 {
            2
        }

        fn describe(&self, index: u32) -> Option<(String, String)> {
            (index == 0).then(|| {
                (
                    "NVIDIA GeForce RTX 3070".to_owned(),
                    "0000:01:00.0".to_owned(),
                )
            })
        }

        fn sample(&self, index: u32) -> NvidiaSample {
            if index != 0 {
                return NvidiaSample::default();
            }
            NvidiaSample {
                busy_percent: Some(83),
                vram_used: Some(3 << 30),
                vram_total: Some(8 << 30),
                celsius: Some(71),
                graphics_mhz: Some(1905),
                max_graphics_mhz: Some(2100),
            }
        }

        /// GPU 0: a game (pid 4242) and, in the compute list only, a job NVML has no
        /// utilisation for; GPU 1 fails.
        fn processes(&self, index: u32, last_seen_us: &mut u64, out: &mut Vec<NvidiaProcess>) {
            out.clear();
            if index == 0 {
                *last_seen_us += 1;
                out.push(NvidiaProcess {
                    pid: 4242,
                    memory_bytes: Some(512 << 20),
                    busy_percent: Some(40),
                });
                out.push(NvidiaProcess {
                    pid: 4343,
                    memory_bytes: Some(2 << 30),
                    busy_percent: None,
                });
            }
        }
    }

    #[test]
    fn fake_nvml_gpus_are_discovered_and_read() {
        let found = discover(&FakeNvidia);
        assert_eq!(found.len(), 2);
        let (gpu, _) = &found[0];
        assert_eq!(gpu.card, "nvidia0");
        assert_eq!(gpu.model, "NVIDIA GeForce RTX 3070");
        assert!(gpu.is_named("0000:01:00.0"));
        let mut reading = GpuReading::default();
        read(&FakeNvidia, 0, &mut reading);
        assert_eq!(reading.busy_percent, Value::Known(83.0));
        assert_eq!(reading.vram_total, Value::Known(8 << 30));
        assert_eq!(reading.celsius, Value::Known(71.0));
        assert_eq!(reading.mhz, Value::Known(1905.0));
        assert_eq!(reading.max_mhz, Value::Known(2100.0));
        read(&FakeNvidia, 1, &mut reading);
        assert_eq!(reading.busy_percent, Value::Failed);
        assert_eq!(found[1].0.pci_slot, "", "a device NVML cannot describe");
    }

    #[test]
    fn the_real_loader_reports_a_missing_library() {
        let err = Nvml::load_from(OsStr::new("libnvidia-ml-absent.so.1"))
            .err()
            .expect("no such library");
        assert!(matches!(err, NvmlError::LibloadingError(_)), "{err:?}");
        let installed = ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]
            .iter()
            .any(|dir| std::path::Path::new(dir).join(LIBRARY).exists());
        if !installed {
            assert!(Nvml::load().is_err());
            assert!(Nvml::load_logged().is_none(), "no driver: no NVIDIA GPU");
        }
    }
}
