//! System batteries under `class/power_supply`: `type` is `Battery` and `scope` is not
//! `Device` (a mouse's or a phone's battery). Energy in µWh and power in µW
//! (`energy_now`, `energy_full`, `energy_full_design`, `power_now`), or charge in µAh and
//! current in µA with `voltage_now` in µV, whichever the driver offers; `capacity` in %.
//!
//! The mains adapter's `online` (type `Mains`) says whether the machine is plugged in.
//!
//! The batteries are looked for again every minute (one may be inserted or removed), and
//! every 5 s while one fails to read; a tick only preads the files already open.

use std::path::{Path, PathBuf};

use super::reading::{Batteries, Battery, BatteryStatus};
use crate::model::Value;
use crate::records::sysfs::{read_text, sorted_entries, SensorFile};
use crate::sample::readings::{value_mut, Reader, Reading};

/// Look for batteries again this often when every one reads fine…
const REDISCOVER_NS: u64 = 60_000_000_000;
/// …and this often while one fails (a driver reload, a removed battery).
const REDISCOVER_FAILING_NS: u64 = 5_000_000_000;

/// The battery module's reader: every system battery under `sys`.
pub struct BatteryReader {
    /// Its module's name as listed.
    key: String,
    sys: PathBuf,
    /// Parallel to the reading's batteries.
    files: Vec<BatteryFiles>,
    /// The mains adapter's `online`, if there is one.
    adapter: Option<SensorFile>,
    /// When the batteries were last looked for; `None` before the first read.
    discovered_ns: Option<u64>,
}

impl BatteryReader {
    pub fn new(key: &str, sys: &Path) -> BatteryReader {
        BatteryReader {
            key: key.to_owned(),
            sys: sys.to_owned(),
            files: Vec::new(),
            adapter: None,
            discovered_ns: None,
        }
    }

    fn rediscover(&mut self, now_ns: u64, out: &mut Vec<Battery>) {
        self.discovered_ns = Some(now_ns);
        let (batteries, files): (Vec<_>, Vec<_>) = discover(&self.sys).into_iter().unzip();
        let names =
            |list: &[Battery]| -> Vec<String> { list.iter().map(|b| b.name.clone()).collect() };
        if names(&batteries) != names(out) {
            tracing::info!("batteries: {:?}", names(&batteries));
        }
        *out = batteries;
        self.files = files;
        self.adapter = sorted_entries(&self.sys.join("class/power_supply"))
            .into_iter()
            .find(|dir| read_text(&dir.join("type")).as_deref() == Some("Mains"))
            .and_then(|dir| SensorFile::existing(dir.join("online")));
    }
}

fn failed(battery: &Battery) -> bool {
    let failed = |value: Value<f64>| matches!(value, Value::Failed);
    failed(battery.capacity) || failed(battery.energy_now_wh) || failed(battery.power_w)
}

impl Reader for BatteryReader {
    fn key(&self) -> &str {
        &self.key
    }

    fn empty(&self) -> Box<dyn Reading> {
        Box::new(Batteries::default())
    }

    fn read(&mut self, now_ns: u64, out: &mut dyn Reading) {
        let Some(Batteries(batteries, adapter_online)) = value_mut::<Batteries>(out) else {
            return;
        };
        let wait = match batteries.iter().any(failed) {
            true => REDISCOVER_FAILING_NS,
            false => REDISCOVER_NS,
        };
        let due = self
            .discovered_ns
            .is_none_or(|then| now_ns.saturating_sub(then) >= wait);
        if due {
            self.rediscover(now_ns, batteries);
        }
        for (battery, files) in batteries.iter_mut().zip(&mut self.files) {
            files.read(battery);
        }
        *adapter_online = self
            .adapter
            .as_mut()
            .and_then(SensorFile::read_u64)
            .map(|online| online == 1);
    }
}

/// Wh and W are far below this on any laptop; a larger value is garbage.
const PLAUSIBLE: std::ops::RangeInclusive<f64> = -10_000.0..=10_000.0;

/// Cycle counts a battery can report (a driver without one says 0).
const CYCLES: std::ops::RangeInclusive<f64> = 0.0..=1_000_000.0;

/// One battery's files, kept open.
pub struct BatteryFiles {
    status: Option<SensorFile>,
    capacity: Option<SensorFile>,
    cycle_count: Option<SensorFile>,
    levels: Levels,
    /// Reused for the status line, so a tick allocates nothing.
    status_text: String,
}

/// How a driver reports how full the battery is and how fast that changes.
enum Levels {
    Energy {
        now: Option<SensorFile>,
        full: Option<SensorFile>,
        full_design: Option<SensorFile>,
        power: Option<SensorFile>,
    },
    Charge {
        now: Option<SensorFile>,
        full: Option<SensorFile>,
        full_design: Option<SensorFile>,
        current: Option<SensorFile>,
        voltage: Option<SensorFile>,
    },
}

/// The system batteries under `sys`, each with an empty reading named after it.
pub fn discover(sys: &Path) -> Vec<(Battery, BatteryFiles)> {
    sorted_entries(&sys.join("class/power_supply"))
        .into_iter()
        .filter(|dir| read_text(&dir.join("type")).as_deref() == Some("Battery"))
        .filter(|dir| read_text(&dir.join("scope")).as_deref() != Some("Device"))
        .filter(|dir| read_text(&dir.join("present")).as_deref() != Some("0"))
        .filter_map(|dir| {
            let name = dir.file_name()?.to_str()?.to_owned();
            let file = |name: &str| SensorFile::existing(dir.join(name));
            let levels = if dir.join("energy_now").exists() {
                Levels::Energy {
                    now: file("energy_now"),
                    full: file("energy_full"),
                    full_design: file("energy_full_design"),
                    power: file("power_now"),
                }
            } else {
                Levels::Charge {
                    now: file("charge_now"),
                    full: file("charge_full"),
                    full_design: file("charge_full_design"),
                    current: file("current_now"),
                    voltage: file("voltage_now"),
                }
            };
            let reader = BatteryFiles {
                status: file("status"),
                capacity: file("capacity"),
                cycle_count: file("cycle_count"),
                levels,
                status_text: String::with_capacity(32),
            };
            let battery = Battery {
                name,
                ..Battery::default()
            };
            Some((battery, reader))
        })
        .collect()
}

/// A file's value divided by `divisor`; `Absent` without the file.
fn value(file: &mut Option<SensorFile>, divisor: f64) -> Value<f64> {
    match file {
        None => Value::Absent,
        Some(file) => Value::read(file.read_scaled(divisor, PLAUSIBLE)),
    }
}

/// µAh × µV = 10⁻¹² Wh, µA × µV = 10⁻¹² W.
fn times_volts(value: Value<f64>, volts: Value<f64>) -> Value<f64> {
    match (value, volts) {
        (Value::Known(v), Value::Known(volts)) => Value::Known(v * volts),
        (Value::Absent, _) => Value::Absent,
        _ => Value::Failed,
    }
}

impl BatteryFiles {
    pub fn read(&mut self, out: &mut Battery) {
        let status_read = match &mut self.status {
            Some(file) => file.read_line(&mut self.status_text),
            None => false,
        };
        out.status = if status_read {
            BatteryStatus::parse(&self.status_text)
        } else {
            BatteryStatus::Unknown
        };
        out.capacity = value(&mut self.capacity, 1.0).map(|c| c.clamp(0.0, 100.0));
        out.cycles = match &mut self.cycle_count {
            None => Value::Absent,
            Some(file) => Value::read(file.read_scaled(1.0, CYCLES)),
        };
        match &mut self.levels {
            Levels::Energy {
                now,
                full,
                full_design,
                power,
            } => {
                out.energy_now_wh = value(now, 1e6);
                out.energy_full_wh = value(full, 1e6);
                out.energy_full_design_wh = value(full_design, 1e6);
                out.power_w = value(power, 1e6);
            }
            Levels::Charge {
                now,
                full,
                full_design,
                current,
                voltage,
            } => {
                let volts = value(voltage, 1e6);
                out.energy_now_wh = times_volts(value(now, 1e6), volts);
                out.energy_full_wh = times_volts(value(full, 1e6), volts);
                out.energy_full_design_wh = times_volts(value(full_design, 1e6), volts);
                out.power_w = times_volts(value(current, 1e6), volts);
            }
        }
        // Some drivers sign the rate by its direction; the status says which way it goes.
        out.power_w = out.power_w.map(f64::abs);
    }
}
