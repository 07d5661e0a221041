//! CPU temperature and frequency.
//!
//! The temperature sensor is found by hwmon *name* and label, never by `hwmonN` (the
//! numbering changes between boots): coretemp "Package id 0", k10temp "Tctl"/"Tdie",
//! zenpower, then the thermal zones `x86_pkg_temp` and `acpitz`.
//!
//! The frequencies are cpufreq's `scaling_cur_freq` of each online CPU, read each sample.
//! Where the kernel has no cpufreq (most virtual machines), they are /proc/cpuinfo's
//! `cpu MHz`, as Waybar reads them, read when the sensors are discovered (again each
//! minute): a virtual machine's is its fixed clock, so it fills Waybar's frequency fields
//! alone, and ringbar's own label and report leave it out.

use std::path::{Path, PathBuf};

use super::{read_integer, read_text, sorted_entries, SensorFile};
use crate::config::SensorName;
use crate::model::{CpuReading, Value};

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

/// Finds the sensor the config names under `sys`: the hwmon with that name, and the
/// input with that label (or its only input, `temp1`, when no label is given).
pub fn find_named_temperature(sys: &Path, wanted: &SensorName) -> Option<TempSource> {
    let labels: Vec<&str> = wanted.label.as_deref().into_iter().collect();
    sorted_entries(&sys.join("class/hwmon"))
        .iter()
        .filter(|dir| read_text(&dir.join("name")).as_deref() == Some(wanted.hwmon.as_str()))
        .find_map(|dir| hwmon_input(dir, &wanted.hwmon, &labels))
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
    if !labels.is_empty() && dir.join("temp1_label").exists() {
        return None;
    }
    // Unlabelled single-sensor drivers (old k10temp, zenpower): temp1.
    let input = dir.join("temp1_input");
    read_integer(&input).is_some().then(|| TempSource {
        description: name.to_owned(),
        input,
    })
}

/// The CPU sensors of one machine, files kept open.
pub struct CpuSensors {
    temperature: Option<(TempSource, SensorFile)>,
    frequencies: Vec<SensorFile>,
    /// Each CPU's `cpu MHz` in /proc/cpuinfo, where there is no cpufreq.
    cpuinfo_mhz: Vec<f64>,
    hardware_max_mhz: Option<f64>,
    /// Set when the config names a sensor that is not there.
    pub missing_named_sensor: bool,
}

impl CpuSensors {
    /// Finds the sensors under `sys` (and `proc`, for /proc/cpuinfo); `named` is the
    /// config's choice of temperature sensor, used when present (else automatic
    /// discovery).
    pub fn discover(sys: &Path, proc: &Path, named: Option<&SensorName>) -> CpuSensors {
        let named_source = named.and_then(|wanted| find_named_temperature(sys, wanted));
        let missing_named_sensor = named.is_some() && named_source.is_none();
        let temperature = named_source
            .or_else(|| find_temperature(sys))
            .map(|source| {
                let file = SensorFile::open(source.input.clone());
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
                frequencies.push(SensorFile::open(current));
            }
            if let Some(max) = read_integer(&cpu.join("cpufreq/cpuinfo_max_freq")) {
                hardware_max_khz = Some(hardware_max_khz.map_or(max, |m| m.max(max)));
            }
        }
        let cpuinfo_mhz = match frequencies.is_empty() {
            true => cpuinfo_mhz(proc),
            false => Vec::new(),
        };
        CpuSensors {
            temperature,
            frequencies,
            cpuinfo_mhz,
            hardware_max_mhz: hardware_max_khz.map(|khz| khz as f64 / 1000.0),
            missing_named_sensor,
        }
    }

    /// Whether the frequencies are /proc/cpuinfo's, read at discovery.
    pub fn reads_cpuinfo(&self) -> bool {
        !self.cpuinfo_mhz.is_empty()
    }

    pub fn temperature_source(&self) -> Option<&TempSource> {
        self.temperature.as_ref().map(|(source, _)| source)
    }

    pub fn read(&mut self) -> CpuReading {
        let celsius = match &mut self.temperature {
            None => Value::Absent,
            // Plausible die temperatures only: garbage shows as "–", not as 4000 °C.
            Some((_, file)) => Value::read(file.read_scaled(1000.0, -40.0..=150.0)),
        };
        let (mut sum, mut count) = (0.0, 0u32);
        let (mut highest, mut lowest) = (None::<f64>, None::<f64>);
        // 10 MHz to 20 GHz, in kHz.
        let files = self.frequencies.iter_mut();
        for mhz in files.filter_map(|file| file.read_scaled(1000.0, 10.0..=20_000.0)) {
            sum += mhz;
            count += 1;
            highest = Some(highest.map_or(mhz, |h| h.max(mhz)));
            lowest = Some(lowest.map_or(mhz, |l| l.min(mhz)));
        }
        let frequency = |value: Option<f64>| match self.frequencies.is_empty() {
            true => Value::Absent,
            false => Value::read(value),
        };
        let nominal = &self.cpuinfo_mhz;
        let nominal_mhz = (!nominal.is_empty()).then(|| {
            let average = nominal.iter().sum::<f64>() / nominal.len() as f64;
            let highest = nominal.iter().copied().fold(f64::MIN, f64::max);
            let lowest = nominal.iter().copied().fold(f64::MAX, f64::min);
            [average, highest, lowest]
        });
        CpuReading {
            celsius,
            average_mhz: frequency((count > 0).then(|| sum / f64::from(count))),
            highest_mhz: frequency(highest),
            lowest_mhz: frequency(lowest),
            hardware_max_mhz: self.hardware_max_mhz,
            nominal_mhz,
        }
    }
}

/// Each CPU's `cpu MHz` in `proc`/cpuinfo, where plausible (10 MHz to 20 GHz).
fn cpuinfo_mhz(proc: &Path) -> Vec<f64> {
    let Ok(text) = std::fs::read_to_string(proc.join("cpuinfo")) else {
        return Vec::new();
    };
    let mhz = |line: &str| {
        let (key, value) = line.split_once(':')?;
        let mhz: f64 = (key.trim() == "cpu MHz").then(|| value.trim().parse().ok())??;
        (10.0..=20_000.0).contains(&mhz).then_some(mhz)
    };
    text.lines().filter_map(mhz).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensors::fixtures::write;
    use std::fs;

    /// A procfs root without /proc/cpuinfo.
    const NO_PROC: &str = "/nonexistent-proc";

    #[test]
    fn intel_laptop_uses_coretemp_package_and_online_cpus() {
        let dir = tempfile::tempdir().expect("tempdir");
        crate::sensors::fixtures::intel_cpu(dir.path());
        let mut sensors = CpuSensors::discover(dir.path(), Path::new(NO_PROC), None);
        assert_eq!(
            sensors.temperature_source().map(|s| s.description.as_str()),
            Some("coretemp Package id 0")
        );
        let reading = sensors.read();
        assert_eq!(reading.celsius, Value::Known(54.0));
        assert_eq!(reading.average_mhz, Value::Known(2000.0));
        assert_eq!(reading.highest_mhz, Value::Known(3000.0));
        assert_eq!(reading.lowest_mhz, Value::Known(900.0));
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
        let mut sensors = CpuSensors::discover(root, Path::new(NO_PROC), None);
        assert_eq!(
            sensors.temperature_source().map(|s| s.description.as_str()),
            Some("k10temp Tctl")
        );
        assert_eq!(sensors.read().celsius, Value::Known(61.25));
        assert_eq!(sensors.read().average_mhz, Value::Absent);

        // The config can name another sensor; a name that is not there falls back.
        let ccd = SensorName {
            hwmon: "k10temp".to_owned(),
            label: Some("Tccd1".to_owned()),
        };
        let mut named = CpuSensors::discover(root, Path::new(NO_PROC), Some(&ccd));
        assert!(!named.missing_named_sensor);
        assert_eq!(named.read().celsius, Value::Known(58.0));
        let gpu_edge = SensorName {
            hwmon: "amdgpu".to_owned(),
            label: None,
        };
        let mut edge = CpuSensors::discover(root, Path::new(NO_PROC), Some(&gpu_edge));
        assert_eq!(edge.read().celsius, Value::Known(45.0), "no label: temp1");
        let typo = SensorName {
            hwmon: "k10temp".to_owned(),
            label: Some("Tccd9".to_owned()),
        };
        let fallback = CpuSensors::discover(root, Path::new(NO_PROC), Some(&typo));
        assert!(fallback.missing_named_sensor);
        assert_eq!(
            fallback
                .temperature_source()
                .map(|s| s.description.as_str()),
            Some("k10temp Tctl")
        );
    }

    #[test]
    fn thermal_zone_fallback_and_a_machine_with_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        assert_eq!(
            CpuSensors::discover(root, Path::new(NO_PROC), None).read(),
            CpuReading::default()
        );
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
        crate::sensors::fixtures::intel_cpu(dir.path());
        let mut sensors = CpuSensors::discover(dir.path(), Path::new(NO_PROC), None);
        let input = dir.path().join("class/hwmon/hwmon3/temp1_input");
        fs::write(&input, "garbage\n").expect("write");
        assert_eq!(sensors.read().celsius, Value::Failed);
        fs::write(&input, "4000000\n").expect("write");
        assert_eq!(
            sensors.read().celsius,
            Value::Failed,
            "absurd values are not shown"
        );
        let cpu1 = dir
            .path()
            .join("devices/system/cpu/cpu1/cpufreq/scaling_cur_freq");
        fs::write(&cpu1, "").expect("write");
        // cpu0 and cpu2 remain: (2100 + 3000) / 2.
        assert_eq!(sensors.read().average_mhz, Value::Known(2550.0));
        fs::write(&input, "55000\n").expect("write");
        assert_eq!(
            sensors.read().celsius,
            Value::Known(55.0),
            "recovers when the value does"
        );
    }

    #[test]
    fn without_cpufreq_the_frequencies_are_proc_cpuinfos() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (sys, proc) = (dir.path().join("sys"), dir.path().join("proc"));
        // Two CPUs without cpufreq, as in a virtual machine; cpuinfo in the kernel's
        // format (a tab before the colon), one line implausible.
        fs::create_dir_all(sys.join("devices/system/cpu/cpu0")).expect("mkdir");
        fs::create_dir_all(sys.join("devices/system/cpu/cpu1")).expect("mkdir");
        fs::create_dir_all(&proc).expect("mkdir");
        let cpu = |n: u32, mhz: &str| {
            format!("processor\t: {n}\nmodel name\t: Virtual CPU\ncpu MHz\t\t: {mhz}\nflags\t\t: fpu\n\n")
        };
        let text = [cpu(0, "2600.000"), cpu(1, "1800.500"), cpu(2, "0.001")].concat();
        fs::write(proc.join("cpuinfo"), text).expect("write");
        let mut sensors = CpuSensors::discover(&sys, &proc, None);
        assert!(sensors.reads_cpuinfo());
        let reading = sensors.read();
        assert_eq!(reading.nominal_mhz, Some([2200.25, 2600.0, 1800.5]));
        assert_eq!(reading.average_mhz, Value::Absent, "no live reading");
        assert_eq!(reading.hardware_max_mhz, None);
        // No cpuinfo either: no frequency at all.
        let mut none = CpuSensors::discover(&sys, Path::new(NO_PROC), None);
        assert!(!none.reads_cpuinfo());
        assert_eq!(none.read().nominal_mhz, None);
    }
}
