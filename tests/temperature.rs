//! The temperature module from the real binary on a fake machine (this one has no
//! thermal sensor): thermal zones and hwmon files in the kernel's documented layout
//! (millidegrees Celsius), mounted over /sys, each way Waybar's keys find a sensor.

mod common;

use std::path::Path;

use common::fake_sys::once_json_with;
use common::require_root;
use ringbar::sensors::fixtures::write;
use serde_json::Value as Json;

fn sensors(sys: &Path) {
    write(sys, "class/thermal/thermal_zone0/type", "acpitz\n");
    write(sys, "class/thermal/thermal_zone0/temp", "27800\n");
    write(sys, "class/thermal/thermal_zone1/type", "x86_pkg_temp\n");
    write(sys, "class/thermal/thermal_zone1/temp", "81000\n");
    write(sys, "class/hwmon/hwmon3/name", "nvme\n");
    write(sys, "class/hwmon/hwmon3/temp1_input", "41850\n");
    write(
        sys,
        "devices/platform/coretemp.0/hwmon/hwmon5/temp1_input",
        "63000\n",
    );
}

const CONFIG: &str = "modules_left = []\nmodules_center = []\n\
    modules_right = [\"temperature\", \"temperature#hot\", \"temperature#nvme\", \
    \"temperature#pkg\", \"temperature#gone\"]\n\
    [\"temperature#hot\"]\nthermal-zone = 1\ncritical-threshold = 80\n\
    format-critical = \"HOT {temperatureC}°C\"\n\
    [\"temperature#nvme\"]\nhwmon-name = \"nvme\"\ninput-filename = \"temp1_input\"\n\
    format = \"{temperatureF}°F\"\n\
    [\"temperature#pkg\"]\nhwmon-path-abs = \"/sys/devices/platform/coretemp.0/hwmon\"\n\
    input-filename = \"temp1_input\"\nformat = \"{temperatureK}K\"\n\
    [\"temperature#gone\"]\nthermal-zone = 9\n";

#[test]
fn each_way_to_name_a_sensor_reads_it_and_a_missing_one_hides() {
    require_root();
    let doc = once_json_with(sensors, CONFIG);
    let modules = doc["modules"].as_array().expect("modules");
    let shown = |name: &str| modules.iter().find(|m| m["name"] == name).cloned();
    let text = |name: &str| shown(name).map(|m| m["text"].as_str().unwrap_or("").to_owned());
    assert_eq!(text("temperature").as_deref(), Some("28°C"), "{doc}");
    assert_eq!(text("temperature#hot").as_deref(), Some("HOT 81°C"));
    let hot = shown("temperature#hot").expect("hot");
    assert_eq!(hot["level"], "critical", "{hot}");
    // 41.85 °C is 107.33 °F; 63 °C is 336.15 K.
    assert_eq!(text("temperature#nvme").as_deref(), Some("107°F"));
    assert_eq!(text("temperature#pkg").as_deref(), Some("336K"));
    let gone = shown("temperature#gone").expect("listed");
    assert_eq!(
        (&gone["visible"], &gone["text"]),
        (&Json::Bool(false), &Json::Null)
    );
    // The readings, in °C as the files hold them.
    assert_eq!(doc["temperature"]["celsius"], 27.8, "{doc}");
    assert_eq!(doc["temperature#nvme"]["celsius"], 41.85);
    assert!(doc["temperature#gone"].is_null(), "{doc}");
}
