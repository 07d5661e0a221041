//! The battery module's Waybar formats from the real binary on fake laptops (this machine
//! has no battery): a battery and a mains adapter in the kernel's power_supply layout,
//! mounted over /sys. Discharging on battery, and held at a charge threshold on mains,
//! which Waybar calls plugged.

mod common;

use std::path::Path;

use common::fake_sys::once_json_with;
use common::require_root;
use ringbar::sensors::fixtures;
use serde_json::Value as Json;

const CONFIG: &str = "modules_left = []\nmodules_center = []\nmodules_right = [\"battery\"]\n\
    [battery]\nformat = \"{capacity}% {icon} {time}\"\n\
    format-plugged = \"{capacity}% plugged\"\nformat-time = \"{H}h{m}\"\n\
    format-icons = [\"empty\", \"half\", \"full\"]\n\
    tooltip-format = \"{timeTo} at {power:.1f} W\"\n";

/// BAT0 as `status` says, at 30 of 60 Wh and 12 W.
fn bat0(sys: &Path, status: &str) {
    fixtures::battery(sys, "BAT0", status, 30_000_000, 60_000_000, 12_000_000);
}

/// The battery entry of `--once --json` with `config`, and the whole document.
fn battery_entry(build: impl FnOnce(&Path), config: &str) -> (Json, Json) {
    let doc = once_json_with(build, config);
    let battery = doc["modules"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == "battery"))
        .cloned()
        .unwrap_or_else(|| panic!("{doc}"));
    (battery, doc)
}

/// The battery entry on a laptop whose BAT0 says `status`, with its mains adapter
/// `online` or not.
fn battery_on(status: &'static str, online: bool) -> Json {
    let build = move |sys: &Path| {
        bat0(sys, status);
        fixtures::charger_and_mouse(sys, online);
    };
    battery_entry(build, CONFIG).0
}

#[test]
fn discharging_and_plugged_take_their_formats_and_classes() {
    require_root();
    // 30 of 60 Wh at 12 W: 50 %, 2.5 h left; the middle icon of three.
    let discharging = battery_on("Discharging", false);
    assert_eq!(discharging["text"], "50% half 2h30", "{discharging}");
    assert_eq!(discharging["class"], "discharging");
    // Held at a threshold on mains: the kernel says "Not charging", Waybar "plugged".
    let plugged = battery_on("Not charging", true);
    assert_eq!(plugged["text"], "50% plugged", "{plugged}");
    assert_eq!(plugged["class"], "plugged");
}

/// Waybar's `states` by any names: the lowest the charge is at or below is a class and
/// chooses its formats.
#[test]
fn a_state_of_any_name_is_a_class_with_its_formats() {
    require_root();
    let build = |sys: &Path| {
        bat0(sys, "Discharging");
        fixtures::charger_and_mouse(sys, false);
    };
    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"battery\"]\n\
        [battery]\nstates = { good = 95, half = 50, warning = 30 }\nformat = \"{capacity}%\"\n\
        format-good = \"good {capacity}%\"\nformat-discharging-half = \"half {capacity}%\"\n";
    let (battery, _) = battery_entry(build, config);
    // 50 %: at or below 50 and 95, half is the lowest.
    assert_eq!(battery["text"], "half 50%", "{battery}");
    assert_eq!(battery["class"], "discharging", "{battery}");
    assert_eq!(battery["classes"], serde_json::json!(["half"]), "{battery}");
    assert_eq!(battery["level"], "normal", "{battery}");
}

/// `{cycles}` from the kernel's `cycle_count`, in the label, the tooltip's battery rows
/// and the JSON document.
#[test]
fn the_cycle_count_is_read_from_sysfs() {
    require_root();
    let build = |sys: &Path| {
        bat0(sys, "Discharging");
        fixtures::write(sys, "class/power_supply/BAT0/cycle_count", "312\n");
    };
    let config = "modules_left = []\nmodules_center = []\nmodules_right = [\"battery\"]\n\
        [battery]\nformat = \"{capacity}% {cycles} cycles, health {health}%\"\n";
    let (battery, doc) = battery_entry(build, config);
    // 60 Wh full of a 66.7 Wh design (the fixture's), to 3 significant digits as Waybar.
    assert_eq!(battery["text"], "50% 312 cycles, health 90%", "{battery}");
    assert_eq!(doc["batteries"][0]["cycles"], 312.0, "{doc}");
}
