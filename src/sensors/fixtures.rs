//! Fake sysfs trees for tests (here and in `tests/`), laid out like real machines: PCI devices under
//! `devices/`, `class/drm/cardN` and `class/hwmon/hwmonN` as symlinks into them, and
//! the connector, render-node and `version` entries a scanner has to skip.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use crate::model::Throttle;

pub const I915_RC6: &str = "class/drm/card0/gt/gt0/rc6_residency_ms";
pub const I915_GT0_THROTTLE_PL1: &str = "class/drm/card0/gt/gt0/throttle_reason_pl1";
pub const XE_IDLE: &str = "class/drm/card0/device/tile0/gt0/gtidle/idle_residency_ms";
pub const AMD_BUSY: &str = "class/drm/card1/device/gpu_busy_percent";
pub const AMD_VRAM_USED: &str = "class/drm/card1/device/mem_info_vram_used";
pub const AMD_RUNTIME_STATUS: &str = "class/drm/card1/device/power/runtime_status";
pub const AMD_CARD: &str = "devices/pci0000:00/0000:00:03.1/0000:03:00.0";

pub fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

fn link(root: &Path, target: &str, link: &str) {
    let link = root.join(link);
    fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
    // A device that comes back replaces the dangling links it left.
    let _ = fs::remove_file(&link);
    symlink(target, link).expect("symlink");
}

/// A PCI GPU at `device` (under `sys`) bound to `driver`, with DRM card `card`, its
/// render node and one connector, all linked from `class/drm`.
fn pci_gpu(sys: &Path, device: &str, driver: &str, card: &str) {
    fs::create_dir_all(sys.join(format!("bus/pci/drivers/{driver}"))).expect("mkdir");
    let depth = device.matches('/').count() + 1;
    let up = "../".repeat(depth);
    link(
        sys,
        &format!("{up}bus/pci/drivers/{driver}"),
        &format!("{device}/driver"),
    );
    write(sys, &format!("{device}/power/runtime_status"), "active\n");
    let slot = device.rsplit('/').next().expect("slot");
    let card_dir = format!("{device}/drm/{card}");
    link(
        sys,
        &format!("../../../{slot}"),
        &format!("{card_dir}/device"),
    );
    fs::create_dir_all(sys.join(format!("{card_dir}/{card}-DP-1"))).expect("mkdir");
    let render = format!("renderD{}", 128 + card[4..].parse::<u32>().expect("cardN"));
    fs::create_dir_all(sys.join(format!("{device}/drm/{render}"))).expect("mkdir");
    for entry in [card.to_owned(), format!("{card}/{card}-DP-1"), render] {
        let name = entry.rsplit('/').next().expect("name");
        link(
            sys,
            &format!("../../{device}/drm/{entry}"),
            &format!("class/drm/{name}"),
        );
    }
    write(sys, "class/drm/version", "drm 1.1.0 20060810\n");
}

/// A hwmon directory of a device, linked from `class/hwmon/{name}`.
fn device_hwmon(sys: &Path, device: &str, hwmon: &str, files: &[(&str, &str)]) {
    for (file, text) in files {
        write(sys, &format!("{device}/hwmon/{hwmon}/{file}"), text);
    }
    link(
        sys,
        &format!("../../{device}/hwmon/{hwmon}"),
        &format!("class/hwmon/{hwmon}"),
    );
}

/// An Intel CPU: coretemp on hwmon3 (after acpitz and nvme), 4 CPUs with cpu3 offline.
pub fn intel_cpu(sys: &Path) {
    write(sys, "class/hwmon/hwmon0/name", "acpitz\n");
    write(sys, "class/hwmon/hwmon0/temp1_input", "27800\n");
    write(sys, "class/hwmon/hwmon1/name", "nvme\n");
    write(sys, "class/hwmon/hwmon1/temp1_label", "Composite\n");
    write(sys, "class/hwmon/hwmon1/temp1_input", "33850\n");
    write(sys, "class/hwmon/hwmon3/name", "coretemp\n");
    write(sys, "class/hwmon/hwmon3/temp1_label", "Package id 0\n");
    write(sys, "class/hwmon/hwmon3/temp1_input", "54000\n");
    write(sys, "class/hwmon/hwmon3/temp2_label", "Core 0\n");
    write(sys, "class/hwmon/hwmon3/temp2_input", "51000\n");
    write(sys, "class/thermal/thermal_zone0/type", "acpitz\n");
    write(sys, "class/thermal/thermal_zone0/temp", "27800\n");
    for (cpu, khz) in [(0, 2_100_000), (1, 900_000), (2, 3_000_000), (3, 400_000)] {
        let base = format!("devices/system/cpu/cpu{cpu}");
        if cpu > 0 {
            let online = if cpu == 3 { "0\n" } else { "1\n" };
            write(sys, &format!("{base}/online"), online);
        }
        write(
            sys,
            &format!("{base}/cpufreq/scaling_cur_freq"),
            &format!("{khz}\n"),
        );
        write(
            sys,
            &format!("{base}/cpufreq/cpuinfo_max_freq"),
            "4700000\n",
        );
    }
    write(sys, "devices/system/cpu/cpufreq/boost", "1\n"); // not a CPU
}

/// An Intel laptop: the CPU above, i915 on 0000:00:02.0 with per-gt files (Linux 5.19+),
/// and an ACPI platform profile.
pub fn intel_i915_laptop(sys: &Path) {
    intel_cpu(sys);
    pci_gpu(sys, "devices/pci0000:00/0000:00:02.0", "i915", "card0");
    let card = "class/drm/card0";
    write(sys, &format!("{card}/power/rc6_residency_ms"), "119000\n");
    write(sys, &format!("{card}/gt_act_freq_mhz"), "350\n");
    write(sys, &format!("{card}/gt_max_freq_mhz"), "1300\n");
    write(sys, &format!("{card}/gt_RP0_freq_mhz"), "1300\n");
    write(sys, I915_RC6, "119000\n");
    write(sys, &format!("{card}/gt/gt0/rc6_enable"), "0x1\n");
    write(sys, &format!("{card}/gt/gt0/rps_act_freq_mhz"), "350\n");
    write(sys, &format!("{card}/gt/gt0/rps_cur_freq_mhz"), "350\n");
    write(sys, &format!("{card}/gt/gt0/rps_max_freq_mhz"), "1300\n");
    write(sys, &format!("{card}/gt/gt0/rps_RP0_freq_mhz"), "1300\n");
    write(sys, &format!("{card}/gt/gt0/throttle_reason_status"), "0\n");
    for reason in Throttle::REASONS {
        write(
            sys,
            &format!("{card}/gt/gt0/throttle_reason_{reason}"),
            "0\n",
        );
    }
    write(sys, "firmware/acpi/platform_profile", "balanced\n");
    write(
        sys,
        "firmware/acpi/platform_profile_choices",
        "low-power balanced performance\n",
    );
}

/// i915 on a kernel before 5.19: card-level files only, no throttle reasons.
pub fn intel_i915_legacy(sys: &Path) {
    pci_gpu(sys, "devices/pci0000:00/0000:00:02.0", "i915", "card0");
    write(sys, "class/drm/card0/power/rc6_residency_ms", "50000\n");
    write(sys, "class/drm/card0/gt_act_freq_mhz", "300\n");
    write(sys, "class/drm/card0/gt_max_freq_mhz", "1100\n");
}

/// An Intel desktop with a discrete xe GPU (Battlemage) on 0000:03:00.0.
pub fn intel_xe(sys: &Path) {
    intel_cpu(sys);
    let device = "devices/pci0000:00/0000:00:01.0/0000:03:00.0";
    pci_gpu(sys, device, "xe", "card0");
    let gt = "class/drm/card0/device/tile0/gt0";
    write(sys, &format!("{gt}/gtidle/name"), "gt0-rc\n");
    write(sys, &format!("{gt}/gtidle/idle_status"), "gt-c0\n");
    write(sys, XE_IDLE, "200000\n");
    for (file, mhz) in [
        ("act_freq", 1950),
        ("cur_freq", 2000),
        ("max_freq", 2450),
        ("min_freq", 400),
        ("rp0_freq", 2850),
    ] {
        write(sys, &format!("{gt}/freq0/{file}"), &format!("{mhz}\n"));
    }
    write(sys, &format!("{gt}/freq0/throttle/status"), "0\n");
    for reason in Throttle::REASONS {
        write(sys, &format!("{gt}/freq0/throttle/reason_{reason}"), "0\n");
    }
    device_hwmon(
        sys,
        device,
        "hwmon4",
        &[
            ("name", "xe\n"),
            ("temp2_label", "pkg\n"),
            ("temp2_input", "48000\n"),
            ("temp3_label", "vram\n"),
            ("temp3_input", "52000\n"),
        ],
    );
}

/// An AMD desktop: k10temp Tctl and amdgpu on 0000:03:00.0 as card1.
pub fn amd_desktop(sys: &Path) {
    write(sys, "class/hwmon/hwmon2/name", "k10temp\n");
    write(sys, "class/hwmon/hwmon2/temp1_label", "Tctl\n");
    write(sys, "class/hwmon/hwmon2/temp1_input", "61250\n");
    write(sys, "class/hwmon/hwmon2/temp3_label", "Tccd1\n");
    write(sys, "class/hwmon/hwmon2/temp3_input", "58000\n");
    amd_desktop_gpu(sys);
}

/// The amdgpu card of [`amd_desktop`], on its own: plugged in again.
pub fn amd_desktop_gpu(sys: &Path) {
    pci_gpu(sys, AMD_CARD, "amdgpu", "card1");
    write(sys, AMD_BUSY, "37\n");
    write(sys, AMD_VRAM_USED, "1288490188\n");
    write(
        sys,
        "class/drm/card1/device/mem_info_vram_total",
        "8573157376\n",
    );
    device_hwmon(
        sys,
        AMD_CARD,
        "hwmon5",
        &[
            ("name", "amdgpu\n"),
            ("temp1_label", "edge\n"),
            ("temp1_input", "61000\n"),
            ("temp2_label", "junction\n"),
            ("temp2_input", "65000\n"),
            ("temp3_label", "mem\n"),
            ("temp3_input", "58000\n"),
            ("freq1_label", "sclk\n"),
            ("freq1_input", "1800000000\n"),
            ("freq2_label", "mclk\n"),
            ("freq2_input", "1000000000\n"),
        ],
    );
}

/// A VM's virtio-gpu: a DRM card with no sensors.
pub fn virtual_gpu(sys: &Path) {
    pci_gpu(
        sys,
        "devices/pci0000:00/0000:00:01.0",
        "virtio-pci",
        "card0",
    );
}

/// A battery as the kernel's power_supply class shows it, reporting energy (µWh) and power
/// (µW): `class/power_supply/NAME` linked into an ACPI device.
pub fn battery(
    sys: &Path,
    name: &str,
    status: &str,
    energy_now: u64,
    energy_full: u64,
    power: u64,
) {
    let device = format!("devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/{name}");
    for (file, value) in [
        ("type", "Battery".to_owned()),
        ("present", "1".to_owned()),
        ("status", status.to_owned()),
        ("capacity", (energy_now * 100 / energy_full).to_string()),
        ("energy_now", energy_now.to_string()),
        ("energy_full", energy_full.to_string()),
        ("energy_full_design", (energy_full * 10 / 9).to_string()),
        ("power_now", power.to_string()),
        ("voltage_now", "12000000".to_owned()),
    ] {
        write(sys, &format!("{device}/{file}"), &format!("{value}\n"));
    }
    link(
        sys,
        &format!("../../{device}"),
        &format!("class/power_supply/{name}"),
    );
}

/// A battery reporting charge (µAh) and current (µA) instead, as some drivers do.
pub fn charge_battery(
    sys: &Path,
    name: &str,
    status: &str,
    charge_now: u64,
    charge_full: u64,
    current: i64,
) {
    let dir = format!("class/power_supply/{name}");
    for (file, value) in [
        ("type", "Battery".to_owned()),
        ("status", status.to_owned()),
        ("capacity", (charge_now * 100 / charge_full).to_string()),
        ("charge_now", charge_now.to_string()),
        ("charge_full", charge_full.to_string()),
        ("current_now", current.to_string()),
        ("voltage_now", "11100000".to_owned()),
    ] {
        write(sys, &format!("{dir}/{file}"), &format!("{value}\n"));
    }
}

/// What a laptop has besides its battery: the charger, and a wireless mouse's battery
/// (scope Device), neither of which is a system battery.
pub fn charger_and_mouse(sys: &Path, online: bool) {
    write(sys, "class/power_supply/AC/type", "Mains\n");
    write(
        sys,
        "class/power_supply/AC/online",
        if online { "1\n" } else { "0\n" },
    );
    let mouse = "class/power_supply/hidpp_battery_0";
    write(sys, &format!("{mouse}/type"), "Battery\n");
    write(sys, &format!("{mouse}/scope"), "Device\n");
    write(sys, &format!("{mouse}/capacity"), "5\n");
    write(sys, &format!("{mouse}/status"), "Discharging\n");
}

/// Fake `/proc/PID/fd` and `fdinfo` of processes holding DRM devices open.
pub mod drm;
