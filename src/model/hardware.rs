//! Hardware readings for the labels and the tooltip: CPU temperature and frequency,
//! GPUs, swap activity and the power profile. The sensor
//! readers fill a [`Hardware`] in place each tick; nothing here reads a file.

pub use super::value::Value;

/// A sysfs file's one integer (`54000\n`); `None` if empty or not a number.
pub fn parse_integer(text: &[u8]) -> Option<i64> {
    std::str::from_utf8(text).ok()?.trim().parse().ok()
}

/// CPU temperature and frequency.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpuReading {
    pub celsius: Value<f64>,
    /// Average, highest and lowest current frequency over online CPUs, MHz.
    pub average_mhz: Value<f64>,
    pub highest_mhz: Value<f64>,
    pub lowest_mhz: Value<f64>,
    /// The hardware maximum (cpuinfo_max_freq), MHz.
    pub hardware_max_mhz: Option<f64>,
    /// Where the kernel has no cpufreq: /proc/cpuinfo's average, highest and lowest
    /// `cpu MHz`, a virtual machine's fixed clock, for Waybar's frequency fields only.
    pub nominal_mhz: Option<[f64; 3]>,
}

/// The kernel driver behind a GPU, which decides how it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuDriver {
    I915,
    Xe,
    Amdgpu,
    Nvidia,
}

impl GpuDriver {
    pub fn name(self) -> &'static str {
        match self {
            GpuDriver::I915 => "i915",
            GpuDriver::Xe => "xe",
            GpuDriver::Amdgpu => "amdgpu",
            GpuDriver::Nvidia => "nvidia",
        }
    }
}

/// Why an Intel GPU runs below the frequency it asked for, one bit per reason the driver
/// reports (`throttle_reason_*` in i915, `throttle/reason_*` in xe).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Throttle(pub u16);

impl Throttle {
    /// The reasons in bit order, as the drivers name them.
    pub const REASONS: [&'static str; 8] = [
        "pl1",
        "pl2",
        "pl4",
        "thermal",
        "prochot",
        "ratl",
        "vr_thermalert",
        "vr_tdc",
    ];

    pub fn set(&mut self, reason: usize) {
        self.0 |= 1 << reason;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Self::REASONS
            .into_iter()
            .enumerate()
            .filter(move |(bit, _)| self.0 & (1 << bit) != 0)
            .map(|(_, name)| name)
    }
}

/// One GPU at one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuReading {
    pub busy_percent: Value<f64>,
    pub mhz: Value<f64>,
    pub max_mhz: Value<f64>,
    pub celsius: Value<f64>,
    /// Video memory in bytes (discrete GPUs).
    pub vram_used: Value<u64>,
    pub vram_total: Value<u64>,
    pub throttle: Value<Throttle>,
    /// A discrete GPU in runtime suspend: not read, so the bar does not wake it.
    pub asleep: bool,
}

/// An idle-residency counter (i915 RC6, xe gt idle) in ms, read at a time in ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleSample {
    pub at_ns: u64,
    pub idle_ms: u64,
}

impl IdleSample {
    /// The busy share between two readings: the part of the wall time not spent idle.
    /// `None` for a zero interval or a counter that went backwards (a wrap, a reset).
    pub fn busy_percent_until(self, later: IdleSample) -> Option<f64> {
        let wall_ns = later.at_ns.checked_sub(self.at_ns).filter(|&ns| ns > 0)?;
        let idle_ns = later
            .idle_ms
            .checked_sub(self.idle_ms)?
            .saturating_mul(1_000_000);
        // The counter ticks in whole ms and is read a little off the wall clock, so idle
        // can exceed the interval by a hair: that is 0 % busy, not negative.
        let busy_ns = wall_ns.saturating_sub(idle_ns);
        // Clamped: in floating point, busy_ns == wall_ns may come out a hair above 100.
        Some((busy_ns as f64 * 100.0 / wall_ns as f64).min(100.0))
    }
}

/// A GPU found at discovery, with its latest reading. `clone_from` reuses the strings.
#[derive(Debug, PartialEq)]
pub struct Gpu {
    /// `card0`, or `nvidia0` for a GPU seen through NVML.
    pub card: String,
    pub driver: GpuDriver,
    /// The PCI address (`0000:03:00.0`), which the config may name.
    pub pci_slot: String,
    /// The marketing name where the driver offers one (NVML).
    pub model: String,
    pub reading: GpuReading,
    /// Its busiest processes (see `gpu_users.rs`); empty where none can be seen.
    pub processes: super::gpu_process::GpuProcesses,
}

impl Gpu {
    pub fn new(card: &str, driver: GpuDriver, pci_slot: &str) -> Gpu {
        Gpu {
            card: card.to_owned(),
            driver,
            pci_slot: pci_slot.to_owned(),
            model: String::new(),
            reading: GpuReading::default(),
            processes: Default::default(),
        }
    }

    /// Whether the config's `gpu = "…"` names this GPU (card name or PCI address).
    pub fn is_named(&self, wanted: &str) -> bool {
        self.card == wanted || self.pci_slot.eq_ignore_ascii_case(wanted)
    }
}

/// `pswpin` and `pswpout` from `/proc/vmstat`: pages swapped in and out since boot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SwapCounters {
    pub pages_in: u64,
    pub pages_out: u64,
}

impl SwapCounters {
    pub fn parse(text: &[u8]) -> Option<SwapCounters> {
        let (mut pages_in, mut pages_out) = (None, None);
        for line in text.split(|&b| b == b'\n') {
            let mut words = line.split(|&b| b == b' ');
            let slot = match words.next() {
                Some(b"pswpin") => &mut pages_in,
                Some(b"pswpout") => &mut pages_out,
                _ => continue,
            };
            *slot = words
                .next()
                .and_then(|w| std::str::from_utf8(w).ok())
                .and_then(|w| w.trim().parse().ok());
        }
        Some(SwapCounters {
            pages_in: pages_in?,
            pages_out: pages_out?,
        })
    }

    /// Bytes per second swapped in and out between two readings `elapsed_ns` apart.
    /// Counters that went backwards (never on a sane kernel) count as no activity.
    pub fn rates(
        self,
        later: SwapCounters,
        elapsed_ns: u64,
        page_size: u64,
    ) -> Option<SwapActivity> {
        if elapsed_ns == 0 {
            return None;
        }
        let per_second = |before: u64, after: u64| {
            after.saturating_sub(before) as f64 * page_size as f64 * 1e9 / elapsed_ns as f64
        };
        Some(SwapActivity {
            in_per_second: per_second(self.pages_in, later.pages_in),
            out_per_second: per_second(self.pages_out, later.pages_out),
        })
    }
}

/// Swap traffic in bytes per second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SwapActivity {
    pub in_per_second: f64,
    pub out_per_second: f64,
}

/// Everything the sensors read, refreshed in place each tick. `clone_from` reuses the
/// lists and strings.
#[derive(Debug, Default, PartialEq)]
pub struct Hardware {
    pub cpu: CpuReading,
    pub gpus: Vec<Gpu>,
    /// The GPU named in the config, if it is present.
    pub configured_gpu: Option<usize>,
    /// Absent until two readings exist, and on kernels without the counters.
    pub swap: Value<SwapActivity>,
    /// `/sys/firmware/acpi/platform_profile`; empty where the firmware has none.
    pub power_profile: String,
    /// Its choices, space-separated as the kernel lists them.
    pub power_profile_choices: String,
}

impl Hardware {
    /// The GPU on the bar's label: the configured one, else the busiest.
    pub fn label_gpu(&self) -> Option<&Gpu> {
        if let Some(index) = self.configured_gpu {
            return self.gpus.get(index);
        }
        let busy = |gpu: &Gpu| gpu.reading.busy_percent.known().unwrap_or(-1.0);
        self.gpus
            .iter()
            .reduce(|best, gpu| if busy(gpu) > busy(best) { gpu } else { best })
    }
}

mod clone;
#[cfg(test)]
mod tests;
