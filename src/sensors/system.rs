//! System-wide readings that are not per device: swap traffic (`/proc/vmstat`) and the
//! ACPI platform profile, both shown only in the monitor's tooltip.

use crate::model::hardware::SwapCounters;
use crate::model::{Hardware, Value};
use crate::records::procfs::ProcFile;

use super::{read_text, Roots, SensorFile};

/// /proc/vmstat is about 5 KiB on current kernels.
const VMSTAT_BUFFER: usize = 16 * 1024;

pub use crate::sample::Wanted;

pub struct SystemSensors {
    vmstat: Option<ProcFile>,
    last_swap: Option<(u64, SwapCounters)>,
    platform_profile: Option<SensorFile>,
    profile_choices: String,
    page_size: u64,
    buf: Box<[u8]>,
}

impl SystemSensors {
    pub fn discover(roots: &Roots, page_size: u64) -> SystemSensors {
        let vmstat = roots.proc.join("vmstat");
        let profile = roots.sys.join("firmware/acpi/platform_profile");
        let choices = read_text(&roots.sys.join("firmware/acpi/platform_profile_choices"));
        SystemSensors {
            vmstat: vmstat.exists().then(|| ProcFile::new(vmstat)),
            last_swap: None,
            platform_profile: choices.is_some().then(|| SensorFile::open(profile)),
            profile_choices: choices.unwrap_or_default(),
            page_size,
            buf: vec![0; VMSTAT_BUFFER].into_boxed_slice(),
        }
    }

    /// Reads what is `wanted`. What is not keeps its last reading, except the swap
    /// traffic: it becomes unknown, and the next reading starts a new interval, so a rate
    /// never spans the time it was not read.
    pub fn read(&mut self, now_ns: u64, hw: &mut Hardware, wanted: Wanted) {
        if wanted.tooltip {
            self.read_swap_and_profile(now_ns, hw);
        } else {
            self.last_swap = None;
            hw.swap = Value::Absent;
        }
    }

    fn read_swap_and_profile(&mut self, now_ns: u64, hw: &mut Hardware) {
        hw.swap = match &mut self.vmstat {
            None => Value::Absent,
            Some(file) => match file.read(&mut self.buf).and_then(SwapCounters::parse) {
                None => Value::Failed,
                Some(counters) => {
                    let previous = self.last_swap.replace((now_ns, counters));
                    previous
                        .and_then(|(then, before)| {
                            before.rates(counters, now_ns.saturating_sub(then), self.page_size)
                        })
                        .map_or(Value::Absent, Value::Known)
                }
            },
        };

        if hw.power_profile_choices != self.profile_choices {
            hw.power_profile_choices.clone_from(&self.profile_choices);
        }
        match &mut self.platform_profile {
            None => hw.power_profile.clear(),
            Some(file) => {
                file.read_line(&mut hw.power_profile);
            }
        }
    }

    /// Whether something that exists failed to read in `hw`.
    pub fn failed(&self, hw: &Hardware) -> bool {
        matches!(hw.swap, Value::Failed)
            || (self.platform_profile.is_some() && hw.power_profile.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hardware::SwapActivity;
    use crate::sensors::fixtures::write;
    use std::path::Path;

    fn roots(dir: &Path) -> Roots {
        Roots {
            sys: dir.join("sys"),
            proc: dir.join("proc"),
        }
    }

    #[test]
    fn swap_and_profile_from_a_fake_tree() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(
            root,
            "proc/vmstat",
            "nr_free_pages 1\npswpin 100\npswpout 200\n",
        );
        write(root, "sys/firmware/acpi/platform_profile", "balanced\n");
        write(
            root,
            "sys/firmware/acpi/platform_profile_choices",
            "low-power balanced performance\n",
        );
        let mut sensors = SystemSensors::discover(&roots(root), 4096);
        let mut hw = Hardware::default();
        sensors.read(1_000_000_000, &mut hw, Wanted::ALL);
        assert_eq!(hw.swap, Value::Absent, "a rate needs two readings");
        assert_eq!(hw.power_profile, "balanced");
        assert_eq!(hw.power_profile_choices, "low-power balanced performance");
        assert!(!sensors.failed(&hw));

        write(
            root,
            "proc/vmstat",
            "nr_free_pages 1\npswpin 110\npswpout 200\n",
        );
        write(root, "sys/firmware/acpi/platform_profile", "performance\n");
        sensors.read(3_000_000_000, &mut hw, Wanted::ALL);
        assert_eq!(
            hw.swap,
            Value::Known(SwapActivity {
                in_per_second: 5.0 * 4096.0,
                out_per_second: 0.0
            })
        );
        assert_eq!(hw.power_profile, "performance");

        write(root, "proc/vmstat", "");
        write(root, "sys/firmware/acpi/platform_profile", "\n");
        sensors.read(4_000_000_000, &mut hw, Wanted::ALL);
        assert_eq!(hw.swap, Value::Failed);
        assert_eq!(hw.power_profile, "");
        assert!(sensors.failed(&hw));
    }

    #[test]
    fn only_what_is_wanted_is_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(root, "proc/vmstat", "pswpin 100\npswpout 200\n");
        let mut sensors = SystemSensors::discover(&roots(root), 4096);
        let mut hw = Hardware::default();
        let labels_only = Wanted { tooltip: false };
        sensors.read(1_000_000_000, &mut hw, Wanted::ALL);
        write(root, "proc/vmstat", "pswpin 110\npswpout 200\n");
        sensors.read(2_000_000_000, &mut hw, labels_only);
        assert_eq!(hw.swap, Value::Absent, "not read");

        // Wanted again: swap traffic from the next reading on, over its own interval
        // (10 pages in 1 s), not since the reading before the gap.
        sensors.read(3_000_000_000, &mut hw, Wanted::ALL);
        assert_eq!(hw.swap, Value::Absent, "a rate needs two readings");
        write(root, "proc/vmstat", "pswpin 120\npswpout 200\n");
        sensors.read(4_000_000_000, &mut hw, Wanted::ALL);
        assert_eq!(
            hw.swap.known().map(|s| s.in_per_second),
            Some(10.0 * 4096.0)
        );
    }

    #[test]
    fn a_machine_without_vmstat_or_profile() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut sensors = SystemSensors::discover(&roots(dir.path()), 4096);
        let mut hw = Hardware::default();
        sensors.read(1, &mut hw, Wanted::ALL);
        assert_eq!(hw, Hardware::default());
        assert!(!sensors.failed(&hw));
    }

    #[test]
    fn this_machine_has_vmstat() {
        let mut sensors = SystemSensors::discover(&Roots::system(), 4096);
        let mut hw = Hardware::default();
        sensors.read(1_000_000_000, &mut hw, Wanted::ALL);
        sensors.read(2_000_000_000, &mut hw, Wanted::ALL);
        assert!(matches!(hw.swap, Value::Known(_)), "{:?}", hw.swap);
        assert!(!sensors.failed(&hw));
    }
}
