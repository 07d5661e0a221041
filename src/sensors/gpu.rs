//! GPUs the kernel exposes in sysfs: Intel i915 and xe, AMD amdgpu. NVIDIA GPUs come
//! through NVML instead (see `nvidia.rs`).
//!
//! Layouts (relative to `/sys/class/drm/cardN`):
//! - i915: `gt/gt0/rc6_residency_ms`, `rps_act_freq_mhz`, `rps_max_freq_mhz` and
//!   `throttle_reason_*` (Linux 5.19+); before that `power/rc6_residency_ms`,
//!   `gt_act_freq_mhz`, `gt_max_freq_mhz`.
//! - xe: `device/tile0/gt0/gtidle/idle_residency_ms`, `device/tile0/gt0/freq0/act_freq`,
//!   `max_freq` and `throttle/reason_*`.
//! - amdgpu: `device/gpu_busy_percent`, `device/mem_info_vram_{used,total}` (bytes), and
//!   the `amdgpu` hwmon: `temp*_label` "edge", `freq*_label` "sclk" with `freq*_input` in Hz.

use std::path::{Path, PathBuf};

use super::{read_text, sorted_entries, SensorFile};
use crate::model::hardware::IdleSample;
use crate::model::{Gpu, GpuDriver, GpuReading, Throttle, Value};

/// Where a GPU's busy share comes from.
#[derive(Debug)]
enum Busy {
    /// amdgpu: the driver's own percentage.
    Percent(SensorFile),
    /// i915 RC6 / xe gt-idle residency in ms: busy is the share of time not idle.
    IdleResidency {
        file: SensorFile,
        last: Option<IdleSample>,
    },
}

/// One DRM card's sensor files, opened at discovery.
#[derive(Debug)]
pub struct DrmGpu {
    card: String,
    driver: GpuDriver,
    pci_slot: String,
    busy: Option<Busy>,
    /// The current frequency and the divisor that makes it MHz (amdgpu reports Hz).
    mhz: Option<(SensorFile, f64)>,
    max_mhz: Option<SensorFile>,
    celsius: Option<SensorFile>,
    vram_used: Option<SensorFile>,
    vram_total: Option<SensorFile>,
    /// (bit in [`Throttle`], file); empty where the driver reports no reasons.
    throttle: Vec<(usize, SensorFile)>,
    /// `device/power/runtime_status`: a suspended GPU is not read (reading would wake it).
    runtime_status: Option<SensorFile>,
    status: String,
}

/// Finds the i915, xe and amdgpu cards under `sys` (normally `/sys`).
pub fn discover(sys: &Path) -> Vec<DrmGpu> {
    let mut cards: Vec<(u32, PathBuf)> = sorted_entries(&sys.join("class/drm"))
        .into_iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            // Skips connectors (card0-eDP-1), render nodes and the `version` file.
            let number = name.strip_prefix("card")?.parse().ok()?;
            Some((number, path))
        })
        .collect();
    cards.sort_by_key(|(number, _)| *number);
    cards
        .into_iter()
        .filter_map(|(_, card)| DrmGpu::open(&card))
        .collect()
}

/// The file name a symlink points at: the driver of `device/driver`, the PCI address of
/// `device`.
fn link_name(path: &Path) -> Option<String> {
    let target = std::fs::read_link(path).ok()?;
    Some(target.file_name()?.to_str()?.to_owned())
}

impl DrmGpu {
    fn open(card: &Path) -> Option<DrmGpu> {
        let device = card.join("device");
        let driver = match link_name(&device.join("driver"))?.as_str() {
            "i915" => GpuDriver::I915,
            "xe" => GpuDriver::Xe,
            "amdgpu" => GpuDriver::Amdgpu,
            // nvidia is read through NVML; virtual and firmware framebuffers have no sensors.
            _ => return None,
        };
        let mut gpu = DrmGpu {
            card: card.file_name()?.to_str()?.to_owned(),
            driver,
            pci_slot: link_name(&device).unwrap_or_default(),
            busy: None,
            mhz: None,
            max_mhz: None,
            celsius: None,
            vram_used: None,
            vram_total: None,
            throttle: Vec::new(),
            runtime_status: SensorFile::existing(device.join("power/runtime_status")),
            status: String::with_capacity(16),
        };
        let idle =
            |file: Option<SensorFile>| file.map(|file| Busy::IdleResidency { file, last: None });
        match driver {
            GpuDriver::I915 => {
                let gt = card.join("gt/gt0");
                if gt.is_dir() {
                    gpu.busy = idle(SensorFile::existing(gt.join("rc6_residency_ms")));
                    gpu.mhz = SensorFile::existing(gt.join("rps_act_freq_mhz")).map(|f| (f, 1.0));
                    gpu.max_mhz = SensorFile::existing(gt.join("rps_max_freq_mhz"));
                    gpu.throttle = throttle_files(&gt, "throttle_reason_");
                } else {
                    gpu.busy = idle(SensorFile::existing(card.join("power/rc6_residency_ms")));
                    gpu.mhz = SensorFile::existing(card.join("gt_act_freq_mhz")).map(|f| (f, 1.0));
                    gpu.max_mhz = SensorFile::existing(card.join("gt_max_freq_mhz"));
                }
            }
            GpuDriver::Xe => {
                let gt = device.join("tile0/gt0");
                gpu.busy = idle(SensorFile::existing(gt.join("gtidle/idle_residency_ms")));
                gpu.mhz = SensorFile::existing(gt.join("freq0/act_freq")).map(|f| (f, 1.0));
                gpu.max_mhz = SensorFile::existing(gt.join("freq0/max_freq"));
                gpu.throttle = throttle_files(&gt.join("freq0/throttle"), "reason_");
            }
            GpuDriver::Amdgpu => {
                gpu.busy = SensorFile::existing(device.join("gpu_busy_percent")).map(Busy::Percent);
                gpu.vram_used = SensorFile::existing(device.join("mem_info_vram_used"));
                gpu.vram_total = SensorFile::existing(device.join("mem_info_vram_total"));
                gpu.mhz = hwmon_input(&device, "freq", "sclk").map(|f| (f, 1e6));
            }
            GpuDriver::Nvidia => return None,
        }
        // amdgpu: "edge"; xe (discrete): "pkg".
        gpu.celsius =
            hwmon_input(&device, "temp", "edge").or_else(|| hwmon_input(&device, "temp", "pkg"));
        Some(gpu)
    }

    pub fn describe(&self) -> Gpu {
        Gpu::new(&self.card, self.driver, &self.pci_slot)
    }

    pub fn read(&mut self, now_ns: u64, out: &mut GpuReading) {
        if let Some(status) = &mut self.runtime_status {
            if status.read_line(&mut self.status) && self.status == "suspended" {
                *out = GpuReading {
                    busy_percent: Value::Known(0.0),
                    asleep: true,
                    ..GpuReading::default()
                };
                if let Some(Busy::IdleResidency { last, .. }) = &mut self.busy {
                    *last = None;
                }
                return;
            }
        }
        out.asleep = false;
        out.busy_percent = match &mut self.busy {
            None => Value::Absent,
            Some(Busy::Percent(file)) => Value::read(file.read_scaled(1.0, 0.0..=100.0)),
            Some(Busy::IdleResidency { file, last }) => match file.read_u64() {
                None => {
                    *last = None;
                    Value::Failed
                }
                Some(idle_ms) => {
                    let sample = IdleSample {
                        at_ns: now_ns,
                        idle_ms,
                    };
                    // The first reading has nothing to compare with yet.
                    last.replace(sample)
                        .and_then(|before| before.busy_percent_until(sample))
                        .map_or(Value::Absent, Value::Known)
                }
            },
        };
        out.mhz = match &mut self.mhz {
            None => Value::Absent,
            Some((file, divisor)) => Value::read(file.read_scaled(*divisor, 0.0..=10_000.0)),
        };
        out.max_mhz = read_optional(&mut self.max_mhz, |f| f.read_scaled(1.0, 0.0..=10_000.0));
        out.celsius = read_optional(&mut self.celsius, |f| f.read_scaled(1000.0, -40.0..=150.0));
        out.vram_used = read_optional(&mut self.vram_used, SensorFile::read_u64);
        out.vram_total = read_optional(&mut self.vram_total, SensorFile::read_u64);
        out.throttle = if self.throttle.is_empty() {
            Value::Absent
        } else {
            let mut throttle = Some(Throttle::default());
            for (bit, file) in &mut self.throttle {
                match file.read_scaled(1.0, 0.0..=1.0) {
                    Some(active) if active > 0.0 => throttle.iter_mut().for_each(|t| t.set(*bit)),
                    Some(_) => {}
                    None => throttle = None,
                }
            }
            Value::read(throttle)
        };
    }
}

fn read_optional<T: Copy>(
    file: &mut Option<SensorFile>,
    read: impl FnOnce(&mut SensorFile) -> Option<T>,
) -> Value<T> {
    match file {
        None => Value::Absent,
        Some(file) => Value::read(read(file)),
    }
}

/// The throttle reason files that exist in `dir`, named `{prefix}{reason}`.
fn throttle_files(dir: &Path, prefix: &str) -> Vec<(usize, SensorFile)> {
    Throttle::REASONS
        .iter()
        .enumerate()
        .filter_map(|(bit, reason)| {
            SensorFile::existing(dir.join(format!("{prefix}{reason}"))).map(|f| (bit, f))
        })
        .collect()
}

/// `{kind}N_input` of the input labelled `label` in the device's hwmon directory.
fn hwmon_input(device: &Path, kind: &str, label: &str) -> Option<SensorFile> {
    sorted_entries(&device.join("hwmon"))
        .iter()
        .find_map(|hwmon| {
            (1..=16).find_map(|index| {
                let label_file = hwmon.join(format!("{kind}{index}_label"));
                (read_text(&label_file).as_deref() == Some(label))
                    .then(|| hwmon.join(format!("{kind}{index}_input")))
            })
        })
        .and_then(SensorFile::existing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensors::fixtures;

    fn read_all(gpus: &mut [DrmGpu], now_ns: u64) -> Vec<GpuReading> {
        gpus.iter_mut()
            .map(|gpu| {
                let mut reading = GpuReading::default();
                gpu.read(now_ns, &mut reading);
                reading
            })
            .collect()
    }

    #[test]
    fn i915_busy_from_rc6_frequencies_and_throttle() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = dir.path();
        fixtures::intel_i915_laptop(sys);
        let mut gpus = discover(sys);
        assert_eq!(gpus.len(), 1, "connectors and render nodes are skipped");
        assert_eq!(
            gpus[0].describe(),
            Gpu::new("card0", GpuDriver::I915, "0000:00:02.0")
        );
        let first = read_all(&mut gpus, 1_000_000_000);
        assert_eq!(
            first[0].busy_percent,
            Value::Absent,
            "one reading is no delta"
        );
        assert_eq!(first[0].mhz, Value::Known(350.0));
        assert_eq!(first[0].max_mhz, Value::Known(1300.0));
        assert_eq!(first[0].throttle, Value::Known(Throttle::default()));
        assert_eq!(first[0].celsius, Value::Absent);

        // 2 s later, 1.5 s more in RC6: busy 25 %.
        fixtures::write(sys, fixtures::I915_RC6, "120500\n");
        fixtures::write(sys, fixtures::I915_GT0_THROTTLE_PL1, "1\n");
        let second = read_all(&mut gpus, 3_000_000_000);
        assert_eq!(second[0].busy_percent, Value::Known(25.0));
        assert_eq!(
            second[0].throttle.known().map(|t| t.names().count()),
            Some(1)
        );
    }

    #[test]
    fn i915_before_per_gt_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = dir.path();
        fixtures::intel_i915_legacy(sys);
        let mut gpus = discover(sys);
        read_all(&mut gpus, 1_000_000_000);
        fixtures::write(sys, "class/drm/card0/power/rc6_residency_ms", "50900\n");
        let reading = read_all(&mut gpus, 2_000_000_000);
        assert_eq!(reading[0].busy_percent, Value::Known(10.0));
        assert_eq!(reading[0].mhz, Value::Known(300.0));
        assert_eq!(reading[0].max_mhz, Value::Known(1100.0));
        assert_eq!(reading[0].throttle, Value::Absent);
    }

    #[test]
    fn xe_busy_from_gt_idle() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = dir.path();
        fixtures::intel_xe(sys);
        let mut gpus = discover(sys);
        assert_eq!(gpus[0].describe().driver, GpuDriver::Xe);
        read_all(&mut gpus, 1_000_000_000);
        fixtures::write(sys, fixtures::XE_IDLE, "200400\n");
        let reading = read_all(&mut gpus, 2_000_000_000);
        assert_eq!(reading[0].busy_percent, Value::Known(60.0));
        assert_eq!(reading[0].mhz, Value::Known(1950.0));
        assert_eq!(reading[0].max_mhz, Value::Known(2450.0));
        assert_eq!(reading[0].celsius, Value::Known(48.0));
        assert!(reading[0].throttle.known().is_some_and(|t| t.is_empty()));
    }

    #[test]
    fn amdgpu_percent_vram_edge_temperature_and_sclk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = dir.path();
        fixtures::amd_desktop(sys);
        let mut gpus = discover(sys);
        assert_eq!(
            gpus[0].describe(),
            Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0")
        );
        let reading = read_all(&mut gpus, 1)[0];
        assert_eq!(reading.busy_percent, Value::Known(37.0));
        assert_eq!(reading.vram_used, Value::Known(1_288_490_188));
        assert_eq!(reading.vram_total, Value::Known(8_573_157_376));
        assert_eq!(reading.celsius, Value::Known(61.0));
        assert_eq!(reading.mhz, Value::Known(1800.0));
        assert_eq!(reading.throttle, Value::Absent);

        fixtures::write(sys, fixtures::AMD_BUSY, "250\n");
        fixtures::write(sys, fixtures::AMD_VRAM_USED, "");
        let bad = read_all(&mut gpus, 2)[0];
        assert_eq!(bad.busy_percent, Value::Failed, "absurd");
        assert_eq!(bad.vram_used, Value::Failed, "empty");

        fixtures::write(sys, fixtures::AMD_RUNTIME_STATUS, "suspended\n");
        let asleep = read_all(&mut gpus, 3)[0];
        assert!(asleep.asleep);
        assert_eq!(asleep.busy_percent, Value::Known(0.0));
        assert_eq!(
            asleep.vram_used,
            Value::Absent,
            "a sleeping GPU is not woken"
        );
    }

    #[test]
    fn nothing_at_all() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(discover(dir.path()).is_empty());
        fixtures::virtual_gpu(dir.path());
        assert!(discover(dir.path()).is_empty(), "virtio-gpu has no sensors");
    }
}
