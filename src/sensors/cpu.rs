//! CPU temperature and frequency.
//!
//! The temperature sensor is found by hwmon *name* and label, never by `hwmonN` (the
//! numbering changes between boots): coretemp "Package id 0", k10temp "Tctl"/"Tdie",
//! zenpower, then the thermal zones `x86_pkg_temp` and `acpitz`.

use std::path::{Path, PathBuf};

use super::{parse_integer, read_integer, read_text};
use crate::model::CpuReading;
use crate::procfs::ProcFile;

/// (hwmon name, preferred labels in order; an empty list means `temp1_input`).
const HWMON_SENSORS: [(&str, &[&str]); 3] = [
    ("coretemp", &["Package id 0"]),
    ("k10temp", &["Tctl", "Tdie"]),
    ("zenpower", &["Tctl", "Tdie"]),
];
const THERMAL_ZONES: [&str; 2] = ["x86_pkg_temp", "acpitz"];

/// Where the CPU temperature comes from, for the tooltip and the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TempSource {
    /// `coretemp Package id 0`, `thermal x86_pkg_temp`.
    pub description: String,
    pub input: PathBuf,
}

/// Finds the CPU temperature input under `sys` (normally `/sys`).
pub fn find_temperature(sys: &Path) -> Option<TempSource> {
    let hwmons = sorted_entries(&sys.join("class/hwmon"));
    for (name, labels) in HWMON_SENSORS {
        for dir in &hwmons {
            if read_text(&dir.join("name")).as_deref() != Some(name) {
                continue;
            }
            if let Some(source) = hwmon_input(dir, name, labels) {
                return Some(source);
            }
        }
    }
    let zones = sorted_entries(&sys.join("class/thermal"));
    for kind in THERMAL_ZONES {
        for dir in &zones {
            if read_text(&dir.join("type")).as_deref() == Some(kind) {
                let input = dir.join("temp");
                if read_integer(&input).is_some() {
                    return Some(TempSource {
                        description: format!("thermal {kind}"),
                        input,
                    });
                }
            }
        }
    }
    None
}

fn hwmon_input(dir: &Path, name: &str, labels: &[&str]) -> Option<TempSource> {
    for wanted in labels {
        for index in 1..=64 {
            let label = dir.join(format!("temp{index}_label"));
            if read_text(&label).as_deref() == Some(*wanted) {
                let input = dir.join(format!("temp{index}_input"));
                if read_integer(&input).is_some() {
                    return Some(TempSource {
                        description: format!("{name} {wanted}"),
                        input,
                    });
                }
            }
        }
    }
    // Unlabelled single-sensor drivers (old k10temp): temp1.
    let input = dir.join("temp1_input");
    (read_integer(&input).is_some() && !dir.join("temp1_label").exists()).then(|| TempSource {
        description: name.to_owned(),
        input,
    })
}

/// The entries of a directory, sorted so discovery is deterministic.
fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

/// The CPU sensors of one machine, files kept open.
pub struct CpuSensors {
    temperature: Option<(TempSource, ProcFile)>,
    frequencies: Vec<ProcFile>,
    hardware_max_mhz: Option<f64>,
    buf: [u8; 64],
}

impl CpuSensors {
    pub fn discover(sys: &Path) -> CpuSensors {
        let temperature = find_temperature(sys).map(|source| {
            let file = ProcFile::new(source.input.clone());
            (source, file)
        });
        let mut frequencies = Vec::new();
        let mut hardware_max_khz: Option<i64> = None;
        for cpu in sorted_entries(&sys.join("devices/system/cpu")) {
            let is_cpu = cpu
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix("cpu"))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            // cpu0 often has no `online` file: it cannot be taken offline.
            if !is_cpu || read_integer(&cpu.join("online")).is_some_and(|o| o == 0) {
                continue;
            }
            let current = cpu.join("cpufreq/scaling_cur_freq");
            if current.exists() {
                frequencies.push(ProcFile::new(current));
            }
            if let Some(max) = read_integer(&cpu.join("cpufreq/cpuinfo_max_freq")) {
                hardware_max_khz = Some(hardware_max_khz.map_or(max, |m| m.max(max)));
            }
        }
        CpuSensors {
            temperature,
            frequencies,
            hardware_max_mhz: hardware_max_khz.map(|khz| khz as f64 / 1000.0),
            buf: [0; 64],
        }
    }

    pub fn temperature_source(&self) -> Option<&TempSource> {
        self.temperature.as_ref().map(|(source, _)| source)
    }

    pub fn read(&mut self) -> CpuReading {
        let buf = &mut self.buf;
        let celsius = self.temperature.as_mut().and_then(|(_, file)| {
            let millidegrees = parse_integer(file.read(buf)?)?;
            // Plausible die temperatures only: garbage shows as "–", not as 4000 °C.
            let celsius = millidegrees as f64 / 1000.0;
            (-40.0..=150.0).contains(&celsius).then_some(celsius)
        });
        let (mut sum, mut count, mut highest) = (0.0, 0u32, None::<f64>);
        for file in &mut self.frequencies {
            let Some(khz) = file.read(buf).and_then(parse_integer).filter(|&k| k > 0) else {
                continue;
            };
            let mhz = khz as f64 / 1000.0;
            sum += mhz;
            count += 1;
            highest = Some(highest.map_or(mhz, |h| h.max(mhz)));
        }
        CpuReading {
            celsius,
            average_mhz: (count > 0).then(|| sum / f64::from(count)),
            highest_mhz: highest,
            hardware_max_mhz: self.hardware_max_mhz,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, text).expect("write");
    }

    /// An Intel laptop: coretemp on hwmon3 (after acpitz, nvme, BAT0), 4 CPUs, cpu3 offline.
    fn intel_laptop(root: &Path) {
        write(root, "class/hwmon/hwmon0/name", "acpitz\n");
        write(root, "class/hwmon/hwmon0/temp1_input", "27800\n");
        write(root, "class/hwmon/hwmon1/name", "nvme\n");
        write(root, "class/hwmon/hwmon1/temp1_label", "Composite\n");
        write(root, "class/hwmon/hwmon1/temp1_input", "33850\n");
        write(root, "class/hwmon/hwmon3/name", "coretemp\n");
        write(root, "class/hwmon/hwmon3/temp1_label", "Package id 0\n");
        write(root, "class/hwmon/hwmon3/temp1_input", "54000\n");
        write(root, "class/hwmon/hwmon3/temp2_label", "Core 0\n");
        write(root, "class/hwmon/hwmon3/temp2_input", "51000\n");
        write(root, "class/thermal/thermal_zone0/type", "acpitz\n");
        write(root, "class/thermal/thermal_zone0/temp", "27800\n");
        for (cpu, khz) in [(0, 2_100_000), (1, 900_000), (2, 3_000_000), (3, 400_000)] {
            let base = format!("devices/system/cpu/cpu{cpu}");
            if cpu > 0 {
                write(
                    root,
                    &format!("{base}/online"),
                    if cpu == 3 { "0\n" } else { "1\n" },
                );
            }
            write(
                root,
                &format!("{base}/cpufreq/scaling_cur_freq"),
                &format!("{khz}\n"),
            );
            write(
                root,
                &format!("{base}/cpufreq/cpuinfo_max_freq"),
                "4700000\n",
            );
        }
        write(root, "devices/system/cpu/cpufreq/boost", "1\n"); // not a CPU
    }

    #[test]
    fn intel_laptop_uses_coretemp_package_and_online_cpus() {
        let dir = tempfile::tempdir().expect("tempdir");
        intel_laptop(dir.path());
        let mut sensors = CpuSensors::discover(dir.path());
        assert_eq!(
            sensors.temperature_source().map(|s| s.description.as_str()),
            Some("coretemp Package id 0")
        );
        let reading = sensors.read();
        assert_eq!(reading.celsius, Some(54.0));
        assert_eq!(reading.average_mhz, Some(2000.0));
        assert_eq!(reading.highest_mhz, Some(3000.0));
        assert_eq!(reading.hardware_max_mhz, Some(4700.0));
    }

    #[test]
    fn amd_desktop_uses_k10temp_tctl() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(root, "class/hwmon/hwmon1/name", "amdgpu\n");
        write(root, "class/hwmon/hwmon1/temp1_label", "edge\n");
        write(root, "class/hwmon/hwmon1/temp1_input", "45000\n");
        write(root, "class/hwmon/hwmon2/name", "k10temp\n");
        write(root, "class/hwmon/hwmon2/temp1_label", "Tctl\n");
        write(root, "class/hwmon/hwmon2/temp1_input", "61250\n");
        write(root, "class/hwmon/hwmon2/temp3_label", "Tccd1\n");
        write(root, "class/hwmon/hwmon2/temp3_input", "58000\n");
        let mut sensors = CpuSensors::discover(root);
        assert_eq!(
            sensors.temperature_source().map(|s| s.description.as_str()),
            Some("k10temp Tctl")
        );
        assert_eq!(sensors.read().celsius, Some(61.25));
        assert_eq!(sensors.read().average_mhz, None);
    }

    #[test]
    fn thermal_zone_fallback_and_a_machine_with_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        assert_eq!(CpuSensors::discover(root).read(), CpuReading::default());
        write(root, "class/thermal/thermal_zone0/type", "acpitz\n");
        write(root, "class/thermal/thermal_zone0/temp", "40000\n");
        write(root, "class/thermal/thermal_zone1/type", "x86_pkg_temp\n");
        write(root, "class/thermal/thermal_zone1/temp", "47000\n");
        let source = find_temperature(root).expect("a thermal zone");
        assert_eq!(source.description, "thermal x86_pkg_temp");
    }

    #[test]
    fn garbage_empty_and_absurd_values_read_as_none_and_recover() {
        let dir = tempfile::tempdir().expect("tempdir");
        intel_laptop(dir.path());
        let mut sensors = CpuSensors::discover(dir.path());
        let input = dir.path().join("class/hwmon/hwmon3/temp1_input");
        fs::write(&input, "garbage\n").expect("write");
        assert_eq!(sensors.read().celsius, None);
        fs::write(&input, "4000000\n").expect("write");
        assert_eq!(sensors.read().celsius, None, "absurd values are not shown");
        let cpu1 = dir
            .path()
            .join("devices/system/cpu/cpu1/cpufreq/scaling_cur_freq");
        fs::write(&cpu1, "").expect("write");
        // cpu0 and cpu2 remain: (2100 + 3000) / 2.
        assert_eq!(sensors.read().average_mhz, Some(2550.0));
        fs::write(&input, "55000\n").expect("write");
        assert_eq!(
            sensors.read().celsius,
            Some(55.0),
            "recovers when the value does"
        );
    }
}
