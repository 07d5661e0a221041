//! System batteries under `class/power_supply`: `type` is `Battery` and `scope` is not
//! `Device` (a mouse's or a phone's battery). Energy in µWh and power in µW
//! (`energy_now`, `energy_full`, `energy_full_design`, `power_now`), or charge in µAh and
//! current in µA with `voltage_now` in µV, whichever the driver offers; `capacity` in %.

use std::path::Path;

use super::{read_text, sorted_entries, SensorFile};
use crate::model::{Battery, BatteryStatus, Value};

/// Wh and W are far below this on any laptop; a larger value is garbage.
const PLAUSIBLE: std::ops::RangeInclusive<f64> = -10_000.0..=10_000.0;

pub struct BatteryReader {
    status: Option<SensorFile>,
    capacity: Option<SensorFile>,
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
pub fn discover(sys: &Path) -> Vec<(Battery, BatteryReader)> {
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
            let reader = BatteryReader {
                status: file("status"),
                capacity: file("capacity"),
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

impl BatteryReader {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::battery::combine;
    use crate::sensors::fixtures;

    fn read_all(sys: &Path) -> Vec<Battery> {
        discover(sys)
            .into_iter()
            .map(|(mut battery, mut reader)| {
                reader.read(&mut battery);
                battery
            })
            .collect()
    }

    #[test]
    fn one_battery_beside_a_charger_and_a_mouse() {
        let dir = tempfile::tempdir().expect("tempdir");
        fixtures::battery(
            dir.path(),
            "BAT0",
            "Discharging",
            30_000_000,
            60_000_000,
            12_000_000,
        );
        fixtures::charger_and_mouse(dir.path(), false);
        let batteries = read_all(dir.path());
        assert_eq!(
            batteries.len(),
            1,
            "the mouse and the charger are not system batteries"
        );
        let b = &batteries[0];
        assert_eq!(b.name, "BAT0");
        assert_eq!(b.status, BatteryStatus::Discharging);
        assert_eq!(b.capacity, Value::Known(50.0));
        assert_eq!(b.energy_now_wh, Value::Known(30.0));
        assert_eq!(b.power_w, Value::Known(12.0));
        let total = combine(&batteries).expect("total");
        assert_eq!(total.seconds_left, Some(9000));
    }

    #[test]
    fn two_batteries_one_reporting_charge() {
        let dir = tempfile::tempdir().expect("tempdir");
        fixtures::battery(dir.path(), "BAT0", "Full", 20_000_000, 20_000_000, 0);
        // 2 Ah at 11.1 V is 22.2 Wh; a negative current (some drivers) while discharging.
        fixtures::charge_battery(
            dir.path(),
            "BAT1",
            "Discharging",
            2_000_000,
            4_000_000,
            -1_000_000,
        );
        let batteries = read_all(dir.path());
        assert_eq!(batteries.len(), 2);
        let charge = &batteries[1];
        assert!((charge.energy_now_wh.known().expect("energy") - 22.2).abs() < 1e-9);
        assert!((charge.power_w.known().expect("power") - 11.1).abs() < 1e-9);
        let total = combine(&batteries).expect("total");
        assert_eq!(total.status, BatteryStatus::Discharging);
        // (20 + 22.2) Wh at 11.1 W.
        assert_eq!(total.seconds_left, Some((42.2 / 11.1 * 3600.0) as u64));
    }

    #[test]
    fn charging_full_and_missing_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        fixtures::battery(
            dir.path(),
            "BAT0",
            "Charging",
            45_000_000,
            60_000_000,
            15_000_000,
        );
        let total = combine(&read_all(dir.path())).expect("total");
        assert_eq!(
            (total.status, total.seconds_left),
            (BatteryStatus::Charging, Some(3600))
        );

        fixtures::write(dir.path(), "class/power_supply/BAT0/status", "Full\n");
        let total = combine(&read_all(dir.path())).expect("total");
        assert_eq!(
            (total.status, total.seconds_left),
            (BatteryStatus::Full, None)
        );

        // Files that go empty or hold garbage: `–`, never a panic; no rate, no time.
        let mut found = discover(dir.path());
        fixtures::write(dir.path(), "class/power_supply/BAT0/power_now", "lots\n");
        fixtures::write(dir.path(), "class/power_supply/BAT0/energy_now", "");
        let (battery, reader) = &mut found[0];
        reader.read(battery);
        assert_eq!(battery.power_w, Value::Failed);
        assert_eq!(battery.energy_now_wh, Value::Failed);
        let total = combine(std::slice::from_ref(battery)).expect("capacity still known");
        assert_eq!(total.seconds_left, None);
    }

    #[test]
    fn a_battery_without_level_files_is_still_listed() {
        let dir = tempfile::tempdir().expect("tempdir");
        fixtures::write(dir.path(), "class/power_supply/BAT0/type", "Battery\n");
        fixtures::write(dir.path(), "class/power_supply/BAT0/capacity", "64\n");
        let batteries = read_all(dir.path());
        assert_eq!(
            batteries[0].status,
            BatteryStatus::Unknown,
            "no status file"
        );
        assert_eq!(batteries[0].energy_now_wh, Value::Absent);
        let total = combine(&batteries).expect("capacity");
        assert_eq!((total.capacity, total.seconds_left), (64.0, None));
    }

    #[test]
    fn a_desktop_has_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        fixtures::charger_and_mouse(dir.path(), true);
        assert!(discover(dir.path()).is_empty());
        assert!(discover(Path::new("/nonexistent")).is_empty());
    }
}
