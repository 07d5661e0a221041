//! One fake battery and one CPU temperature, the same for both bars: this VM has neither.
//!
//! The tree follows the kernel's documented sysfs layouts
//! (Documentation/ABI/testing/sysfs-class-power, sysfs-class-hwmon and the thermal
//! sysfs API): `power_supply/BAT0` discharging at 12 W from 30 of 60 Wh, its charger
//! `power_supply/AC` offline, `hwmon/hwmon0` a coretemp `Package id 0` and
//! `thermal/thermal_zone0` an `x86_pkg_temp` zone, both at 54 °C.
//!
//! A bar runs in a private mount namespace where /sys/class is a tmpfs holding the real
//! classes (bind mounts, so their links into /sys/devices still resolve) and these three
//! in place of the real ones. The rest of /sys stays the machine's: GTK, the probe's BTF
//! and the cgroups are what they are outside.

use std::path::{Path, PathBuf};
use std::process::Command;

use ringbar::sensors::fixtures::write;

/// What both bars must show: the battery's charge and time left, and the temperature.
pub const CAPACITY: &str = "50%";
pub const TIME_LEFT: &str = "2:30";
pub const CELSIUS: &str = "54";

/// The classes replaced by the fixture.
const CLASSES: [&str; 3] = ["power_supply", "hwmon", "thermal"];

/// Writes the fixture's classes under `dir` (world-readable, as sysfs is).
pub fn build(dir: &Path) {
    let battery = [
        ("type", "Battery"),
        ("present", "1"),
        ("status", "Discharging"),
        ("technology", "Li-ion"),
        ("capacity", "50"),
        ("capacity_level", "Normal"),
        ("energy_now", "30000000"),
        ("energy_full", "60000000"),
        ("energy_full_design", "66000000"),
        ("power_now", "12000000"),
        ("voltage_now", "12000000"),
        ("voltage_min_design", "11400000"),
        ("manufacturer", "Bench"),
        ("model_name", "Fixture"),
    ];
    write_supply(dir, "BAT0", &battery);
    write_supply(dir, "AC", &[("type", "Mains"), ("online", "0")]);
    write(dir, "hwmon/hwmon0/name", "coretemp\n");
    write(dir, "hwmon/hwmon0/temp1_label", "Package id 0\n");
    write(dir, "hwmon/hwmon0/temp1_input", "54000\n");
    write(dir, "hwmon/hwmon0/temp1_crit", "100000\n");
    write(dir, "thermal/thermal_zone0/type", "x86_pkg_temp\n");
    write(dir, "thermal/thermal_zone0/temp", "54000\n");
    write(dir, "thermal/thermal_zone0/mode", "enabled\n");
    write(dir, "thermal/thermal_zone0/policy", "step_wise\n");
}

/// One supply's attribute files, and its `uevent` listing them as `POWER_SUPPLY_*`.
fn write_supply(dir: &Path, name: &str, attributes: &[(&str, &str)]) {
    let mut uevent = format!("POWER_SUPPLY_NAME={name}\n");
    for (file, value) in attributes {
        write(
            dir,
            &format!("power_supply/{name}/{file}"),
            &format!("{value}\n"),
        );
        if *file != "type" {
            uevent.push_str(&format!(
                "POWER_SUPPLY_{}={value}\n",
                file.to_ascii_uppercase()
            ));
        }
    }
    uevent.push_str(&format!("POWER_SUPPLY_TYPE={}\n", attributes[0].1));
    write(dir, &format!("power_supply/{name}/uevent"), &uevent);
}

/// `command` run in a new mount namespace over the fixture at `dir`, after the shell
/// that becomes it has joined the cgroups whose `cgroup.procs` files are given (so every
/// thread and child it ever has is counted).
pub fn wrap(command: &Command, dir: &Path, cgroup_procs: &[PathBuf]) -> Command {
    let quote = |path: &Path| {
        let text = path.display().to_string();
        assert!(!text.contains('\''), "a plain path: {text}");
        format!("'{text}'")
    };
    let mut script = String::from("set -e\n");
    for procs in cgroup_procs {
        script.push_str(&format!("echo $$ > {}\n", quote(procs)));
    }
    let replaced = CLASSES.join("|");
    script.push_str(&format!(
        "real=$(mktemp -d)\n\
         mount --bind /sys/class \"$real\"\n\
         mount -t tmpfs -o mode=0755 ringbar-bench /sys/class\n\
         for entry in \"$real\"/*; do\n\
         \x20   name=${{entry##*/}}\n\
         \x20   case $name in {replaced}) continue ;; esac\n\
         \x20   mkdir \"/sys/class/$name\"\n\
         \x20   mount --bind \"$entry\" \"/sys/class/$name\"\n\
         done\n\
         for name in {classes}; do\n\
         \x20   mkdir \"/sys/class/$name\"\n\
         \x20   mount --bind {fixture}/\"$name\" \"/sys/class/$name\"\n\
         done\n\
         umount \"$real\"\n\
         rmdir \"$real\"\n\
         exec \"$@\"\n",
        classes = CLASSES.join(" "),
        fixture = quote(dir),
    ));
    let mut wrapped = Command::new("unshare");
    wrapped
        .args(["--mount", "--propagation", "private", "--", "sh", "-c"])
        .arg(script)
        .arg("ringbar-bench-sys")
        .arg(command.get_program())
        .args(command.get_args());
    wrapped
}

/// The fixture as process `pid` sees it (through its root, so in its mount namespace):
/// its battery's capacity and its thermal zone, or what went wrong.
pub fn seen_by(pid: u32) -> Result<(), String> {
    let root = PathBuf::from(format!("/proc/{pid}/root/sys/class"));
    let read = |file: &str| {
        std::fs::read_to_string(root.join(file))
            .map(|t| t.trim().to_owned())
            .map_err(|e| format!("{file}: {e}"))
    };
    let capacity = read("power_supply/BAT0/capacity")?;
    let temp = read("thermal/thermal_zone0/temp")?;
    if format!("{capacity}%") == CAPACITY && temp == format!("{CELSIUS}000") {
        Ok(())
    } else {
        Err(format!("capacity {capacity}, temp {temp}"))
    }
}
