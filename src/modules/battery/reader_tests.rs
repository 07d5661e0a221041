//! The battery reader on fake sysfs trees in real drivers' layouts: energy and charge
//! reporting, chargers and a mouse's battery left out, bad files, and batteries that come
//! and go.

use std::path::Path;

use super::reader::{discover, BatteryReader};
use super::*;
use crate::model::Value;
use crate::sample::readings::Reader;
use crate::sensors::fixtures;

/// One read through the module's reader, as the sampler makes it.
fn read_all(sys: &Path) -> Vec<Battery> {
    let mut reader = BatteryReader::new("battery", sys);
    let mut reading = reader.empty();
    reader.read(1, reading.as_mut());
    let batteries = crate::sample::readings::value_mut::<Batteries>(reading.as_mut());
    batteries.expect("its own reading").0.clone()
}

#[test]
fn batteries_are_looked_for_again_every_minute_and_sooner_while_one_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    fixtures::battery(dir.path(), "BAT0", "Full", 20_000_000, 20_000_000, 0);
    let mut reader = BatteryReader::new("battery#laptop", dir.path());
    assert_eq!(reader.key(), "battery#laptop");
    let mut reading = reader.empty();
    let names = |reading: &dyn crate::sample::readings::Reading| -> Vec<String> {
        let any = reading as &dyn std::any::Any;
        let batteries = any.downcast_ref::<Batteries>().expect("batteries");
        batteries.0.iter().map(|b| b.name.clone()).collect()
    };
    reader.read(0, reading.as_mut());
    assert_eq!(names(reading.as_ref()), ["BAT0"]);
    fixtures::battery(dir.path(), "BAT1", "Full", 20_000_000, 20_000_000, 0);
    reader.read(59_000_000_000, reading.as_mut());
    assert_eq!(names(reading.as_ref()), ["BAT0"], "not yet looked for");
    reader.read(60_000_000_000, reading.as_mut());
    assert_eq!(names(reading.as_ref()), ["BAT0", "BAT1"]);
    // A battery whose file goes bad is looked for again after 5 s.
    fixtures::write(dir.path(), "class/power_supply/BAT1/capacity", "junk\n");
    reader.read(61_000_000_000, reading.as_mut());
    std::fs::remove_dir_all(dir.path().join("class/power_supply/BAT1")).expect("removed");
    reader.read(64_000_000_000, reading.as_mut());
    assert_eq!(names(reading.as_ref()).len(), 2, "4 s after the failure");
    reader.read(66_000_000_000, reading.as_mut());
    assert_eq!(names(reading.as_ref()), ["BAT0"], "gone");
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

#[test]
fn the_mains_adapter_says_whether_the_machine_is_plugged_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    fixtures::battery(
        dir.path(),
        "BAT0",
        "Not charging",
        30_000_000,
        60_000_000,
        0,
    );
    let online = |sys: &Path| {
        let mut reader = BatteryReader::new("battery", sys);
        let mut reading = reader.empty();
        reader.read(1, reading.as_mut());
        crate::sample::readings::value_mut::<Batteries>(reading.as_mut())
            .expect("its own reading")
            .1
    };
    assert_eq!(online(dir.path()), None, "no adapter");
    fixtures::charger_and_mouse(dir.path(), true);
    assert_eq!(online(dir.path()), Some(true));
    fixtures::charger_and_mouse(dir.path(), false);
    assert_eq!(online(dir.path()), Some(false));
}
