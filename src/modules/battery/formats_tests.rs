//! Waybar's battery formats: the status and state choose the format and the icons.

use super::*;
use crate::model::Value;
use crate::modules::tests::{configured, input};
use crate::sample::Sample;
use crate::text::Plain;

/// A sample with one battery at `now` of 50 Wh (design 62.5 Wh), its status, its power,
/// and the mains adapter `online`.
fn sample(status: BatteryStatus, now: f64, power: f64, online: Option<bool>) -> Sample {
    let mut sample = Sample::default();
    let battery = Battery {
        name: "BAT0".to_owned(),
        status,
        capacity: Value::Known(now / 50.0 * 100.0),
        energy_now_wh: Value::Known(now),
        energy_full_wh: Value::Known(50.0),
        energy_full_design_wh: Value::Known(62.5),
        power_w: Value::Known(power),
        cycles: Value::Known(312.0),
    };
    sample
        .readings
        .insert("battery", Box::new(Batteries(vec![battery], online)));
    sample
}

const CONFIG: &str = "format = \"{capacity}% {icon}\"\n\
    format-charging = \"{capacity}% C {time}\"\n\
    format-plugged = \"{capacity}% P\"\n\
    format-discharging-critical = \"LOW {capacity}%\"\n\
    format-time = \"{H}:{m}\"\n\
    format-icons = [\"e\", \"q\", \"h\", \"t\", \"f\"]\n\
    tooltip-format = \"{timeTo}, {power:.1f} W, health {health}%\"\n";

fn shown(sample: &Sample) -> (String, Option<Status>) {
    let module = configured("battery", CONFIG);
    let mut out = String::new();
    let status = module.text(&input(sample), &mut out);
    (out, status)
}

#[test]
fn the_status_chooses_the_format_and_is_the_class() {
    // 40 of 50 Wh at 10 W: 80 %, four hours left.
    let (text, status) = shown(&sample(BatteryStatus::Discharging, 40.0, 10.0, Some(false)));
    assert_eq!(text, "80% f");
    let status = status.expect("shown");
    assert_eq!(
        (status.level, status.class),
        (Level::Normal, Some("discharging"))
    );
    // Charging, 10 Wh to go at 20 W: half an hour, in format-time.
    let (text, status) = shown(&sample(BatteryStatus::Charging, 40.0, 20.0, Some(true)));
    assert_eq!(text, "80% C 0:30");
    assert_eq!(status.expect("shown").class, Some("charging"));
    // On mains without charging (a charge threshold): plugged, as Waybar names it.
    let (text, status) = shown(&sample(BatteryStatus::NotCharging, 40.0, 0.0, Some(true)));
    assert_eq!(text, "80% P");
    assert_eq!(status.expect("shown").class, Some("plugged"));
    let (text, _) = shown(&sample(BatteryStatus::NotCharging, 40.0, 0.0, None));
    assert_eq!(text, "80% f", "no adapter: not plugged");
    // At or below `critical` while discharging: its own format, and the level.
    let (text, status) = shown(&sample(BatteryStatus::Discharging, 5.0, 10.0, Some(false)));
    assert_eq!(text, "LOW 10%");
    assert_eq!(status.expect("shown").level, Level::Critical);
    // Full at 100 % though the kernel still says charging.
    let (_, status) = shown(&sample(BatteryStatus::Charging, 50.0, 1.0, Some(true)));
    assert_eq!(status.expect("shown").class, Some("full"));
}

#[test]
fn the_tooltip_format_has_time_to_power_and_health() {
    let module = configured("battery", CONFIG);
    let tooltip = |sample: &Sample| {
        let mut text = String::new();
        module.tooltip(&mut Plain(&mut text), &input(sample));
        text
    };
    assert_eq!(
        tooltip(&sample(
            BatteryStatus::Discharging,
            40.0,
            12.34,
            Some(false)
        )),
        "Empty in 3:14, 12.3 W, health 80%"
    );
    assert_eq!(
        tooltip(&sample(BatteryStatus::NotCharging, 40.0, 0.0, Some(true))),
        "Plugged, 0.0 W, health 80%"
    );
}

#[test]
fn without_a_format_the_label_is_ringbars_and_keys_are_checked() {
    let plain = configured("battery", "warning = 40\n");
    let mut out = String::new();
    let sample = sample(BatteryStatus::Discharging, 17.5, 10.0, Some(false));
    let status = plain.text(&input(&sample), &mut out).expect("shown");
    assert_eq!(out, "BAT 35% 1:45");
    assert_eq!(
        (status.level, status.class),
        (Level::Warning, Some("discharging"))
    );
    for (table, problem) in [
        ("format = \"{cycle}\"\n", "no {cycle} in a format here"),
        ("format-time = \"{h}\"\n", "no {h} in a format here"),
        (
            "format-charging-good = \"x\"\n",
            "unknown field `format-charging-good`",
        ),
        ("formatt = \"x\"\n", "unknown field `formatt`"),
        (
            "states = { good = 95 }\nformat-good = \"{cycle}\"\n",
            "format-good: no {cycle} in a format here",
        ),
    ] {
        let text = format!("modules_right = [\"battery\"]\n[battery]\n{table}");
        let err = crate::config::parse(&text, std::path::Path::new("c.toml")).expect_err(table);
        assert!(err.message.contains(problem), "{table}: {}", err.message);
    }
}

#[test]
fn cycles_are_the_largest_batterys_as_waybar_counts_them() {
    let module = configured(
        "battery",
        "format = \"{cycles} cycles {health}%\"\ntooltip-format = \"{cycles:>5}\"\n",
    );
    let text = |batteries: &[Battery]| {
        let mut sample = Sample::default();
        let reading = Batteries(batteries.to_vec(), Some(false));
        sample.readings.insert("battery", Box::new(reading));
        let mut out = String::new();
        module.text(&input(&sample), &mut out).expect("shown");
        let mut tooltip = String::new();
        module.tooltip(&mut Plain(&mut tooltip), &input(&sample));
        (out, tooltip)
    };
    let main = Battery {
        name: "BAT0".to_owned(),
        status: BatteryStatus::Discharging,
        capacity: Value::Known(80.0),
        energy_now_wh: Value::Known(40.0),
        energy_full_wh: Value::Known(50.0),
        energy_full_design_wh: Value::Known(62.5),
        power_w: Value::Known(10.0),
        cycles: Value::Known(312.0),
    };
    assert_eq!(
        text(std::slice::from_ref(&main)),
        ("312 cycles 80%".to_owned(), "  312".to_owned()),
        "a number spec pads it"
    );
    // A second, smaller battery with more cycles: the main one's count is shown, and
    // the health of both together (70 of 87.5 Wh).
    let second = Battery {
        name: "BAT1".to_owned(),
        energy_now_wh: Value::Known(10.0),
        energy_full_wh: Value::Known(20.0),
        energy_full_design_wh: Value::Known(25.0),
        cycles: Value::Known(900.0),
        ..main.clone()
    };
    assert_eq!(text(&[second.clone(), main.clone()]).0, "312 cycles 80%");
    // A driver without `cycle_count` gives 0, as Waybar shows it.
    let unknown = |b: &Battery| Battery {
        cycles: Value::Absent,
        ..b.clone()
    };
    assert_eq!(text(&[unknown(&main), unknown(&second)]).0, "0 cycles 80%");
}

#[test]
fn any_states_name_the_class_and_choose_the_formats_and_icons() {
    let module = configured(
        "battery",
        "states = { good = 95, warning = 30, critical = 15 }\n\
         format = \"{capacity}%\"\n\
         format-good = \"G {capacity}%\"\n\
         format-charging-good = \"CG {icon}\"\n\
         format-icons = { charging-good = \"+\", good = \"g\" }\n",
    );
    let text = |sample: &Sample| {
        let mut out = String::new();
        let status = module.text(&input(sample), &mut out).expect("shown");
        let classes: Vec<String> = status.css_classes().map(str::to_owned).collect();
        (out, status.level, classes)
    };
    // 40 of 50 Wh: 80 %, at or below 95: good.
    let (out, level, classes) = text(&sample(BatteryStatus::Discharging, 40.0, 10.0, Some(false)));
    assert_eq!((out.as_str(), level), ("G 80%", Level::Normal));
    assert_eq!(classes, ["discharging", "good"]);
    let (out, _, classes) = text(&sample(BatteryStatus::Charging, 40.0, 20.0, Some(true)));
    assert_eq!(out, "CG +");
    assert_eq!(classes, ["charging", "good"]);
    // 49 of 50: 98 %, above every state.
    let (out, _, classes) = text(&sample(BatteryStatus::Discharging, 49.0, 10.0, Some(false)));
    assert_eq!(out, "98%");
    assert_eq!(classes, ["discharging"]);
    // 10 %: critical, its level's class (once).
    let (out, level, classes) = text(&sample(BatteryStatus::Discharging, 5.0, 10.0, Some(false)));
    assert_eq!((out.as_str(), level), ("10%", Level::Critical));
    assert_eq!(classes, ["critical", "discharging"]);
}

#[test]
fn waybars_states_and_state_formats_carry_over() {
    let waybar = serde_json::json!({
        "modules-right": ["battery"],
        "battery": {"states": {"good": 95, "warning": 30, "critical": 15},
                    "format": "{capacity}% {icon}", "format-good": "{icon}",
                    "format-charging-good": "C", "format-discharging-warning": "W {capacity}%",
                    "tooltip-format-discharging": "{timeTo}", "tooltip-format-good": "ok",
                    "format-icons": ["a", "b"]}
    });
    let import = crate::config::import::convert(&waybar);
    let config =
        crate::config::parse(&import.toml, std::path::Path::new("c.toml")).expect(&import.toml);
    assert!(import.notes.is_empty(), "{:?}", import.notes);
    let module = config.modules.right[0].clone();
    let mut out = String::new();
    let sample = sample(BatteryStatus::Discharging, 12.5, 10.0, Some(false));
    let status = module.text(&input(&sample), &mut out).expect("shown");
    assert_eq!((out.as_str(), status.level), ("W 25%", Level::Warning));
    let mut tooltip = String::new();
    module.tooltip(&mut Plain(&mut tooltip), &input(&sample));
    assert_eq!(tooltip, "Empty in 1 h 15 min");
}

#[test]
fn the_tooltip_has_formats_by_status_and_state_in_waybars_order() {
    let module = configured(
        "battery",
        "states = { good = 95, warning = 30 }\n\
         tooltip-format = \"any {capacity}%\"\n\
         tooltip-format-charging = \"charging {timeTo}\"\n\
         tooltip-format-warning = \"low {capacity}%\"\n\
         tooltip-format-discharging-good = \"fine {capacity}%\"\n",
    );
    let tooltip = |status, now| {
        let mut text = String::new();
        let sample = sample(status, now, 10.0, Some(false));
        module.tooltip(&mut Plain(&mut text), &input(&sample));
        text
    };
    // 80 % discharging: good, its status and state's own.
    assert_eq!(tooltip(BatteryStatus::Discharging, 40.0), "fine 80%");
    // 20 % charging: the status's before the state's.
    assert_eq!(
        tooltip(BatteryStatus::Charging, 10.0),
        "charging Full in 4 h 0 min"
    );
    // 20 % discharging: the state's.
    assert_eq!(tooltip(BatteryStatus::Discharging, 10.0), "low 20%");
    // 98 %: no state, the plain one.
    assert_eq!(tooltip(BatteryStatus::Discharging, 49.0), "any 98%");
    // The label keeps ringbar's own: no label format is set.
    let mut out = String::new();
    let sample = sample(BatteryStatus::Discharging, 40.0, 10.0, Some(false));
    module.text(&input(&sample), &mut out);
    assert_eq!(out, "BAT 80% 4:00");
    for bad in [
        "tooltip-format-half = \"x\"",
        "tooltip-format-weird-good = \"x\"",
    ] {
        let text = format!("modules_right = [\"battery\"]\n[battery]\n{bad}\n");
        let err = crate::config::parse(&text, std::path::Path::new("c.toml")).expect_err(bad);
        assert!(
            err.message.contains("unknown field"),
            "{bad}: {}",
            err.message
        );
    }
}
