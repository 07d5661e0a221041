//! The battery module: what several batteries add up to, and the text, levels and
//! tooltip.

use super::*;
use crate::model::Value;
use crate::modules::tests::{default_module, text_of};
use crate::modules::{Button, Level};
use crate::sample::Sample;
use crate::text::Plain;

fn battery(status: BatteryStatus, now: f64, full: f64, power: f64) -> Battery {
    Battery {
        name: "BAT0".to_owned(),
        status,
        capacity: Value::Known(now / full * 100.0),
        energy_now_wh: Value::Known(now),
        energy_full_wh: Value::Known(full),
        energy_full_design_wh: Value::Known(full),
        power_w: Value::Known(power),
        cycles: Value::Absent,
    }
}

#[test]
fn one_battery_discharging_and_charging() {
    let total =
        combine(&[battery(BatteryStatus::Discharging, 30.0, 60.0, 12.0)]).expect("a battery");
    assert_eq!(total.capacity, 50.0);
    assert_eq!(total.seconds_left, Some(9000), "30 Wh at 12 W: 2.5 h");
    let total = combine(&[battery(BatteryStatus::Charging, 30.0, 60.0, 20.0)]).expect("a battery");
    assert_eq!(total.seconds_left, Some(5400), "30 Wh to go at 20 W: 1.5 h");
    assert_eq!(combine(&[]), None);
    assert_eq!(
        BatteryStatus::parse("Not charging\n"),
        BatteryStatus::NotCharging
    );
    assert_eq!(BatteryStatus::parse("weird"), BatteryStatus::Unknown);
}

#[test]
fn two_batteries_add_up_by_energy() {
    // A ThinkPad's internal and external battery: one idle and full, one discharging.
    let total = combine(&[
        battery(BatteryStatus::Full, 20.0, 20.0, 0.0),
        battery(BatteryStatus::Discharging, 10.0, 60.0, 10.0),
    ])
    .expect("batteries");
    assert_eq!(total.status, BatteryStatus::Discharging);
    assert_eq!(total.capacity, 30.0 / 80.0 * 100.0);
    assert_eq!(total.seconds_left, Some(3 * 3600), "30 Wh at 10 W");
    let all_full = combine(&[
        battery(BatteryStatus::Full, 20.0, 20.0, 0.0),
        battery(BatteryStatus::Full, 60.0, 60.0, 0.0),
    ])
    .expect("batteries");
    assert_eq!(
        (all_full.status, all_full.seconds_left),
        (BatteryStatus::Full, None)
    );
}

#[test]
fn missing_energies_fall_back_to_capacity_and_no_time() {
    let mut b = battery(BatteryStatus::Discharging, 30.0, 60.0, 12.0);
    b.energy_now_wh = Value::Failed;
    b.capacity = Value::Known(47.0);
    let total = combine(&[b.clone()]).expect("a battery");
    assert_eq!((total.capacity, total.seconds_left), (47.0, None));
    b.capacity = Value::Absent;
    assert_eq!(combine(&[b]), None, "nothing known to show");
}

fn sample(status: BatteryStatus, now: f64, power: f64) -> Sample {
    let mut sample = Sample::default();
    let batteries = Batteries(
        vec![Battery {
            name: "BAT0".to_owned(),
            status,
            capacity: Value::Known(now / 50.0 * 100.0),
            energy_now_wh: Value::Known(now),
            energy_full_wh: Value::Known(50.0),
            energy_full_design_wh: Value::Known(62.5),
            power_w: Value::Known(power),
            cycles: Value::Absent,
        }],
        None,
    );
    sample.readings.insert("battery", Box::new(batteries));
    sample
}

#[test]
fn text_levels_and_classes() {
    assert_eq!(
        text_of("battery", &Sample::default()),
        (String::new(), None)
    );
    let (text, status) = text_of("battery", &sample(BatteryStatus::Discharging, 40.0, 10.0));
    assert_eq!(text, "BAT 80% 4:00");
    let status = status.expect("shown");
    assert_eq!(
        (status.level, status.class),
        (Level::Normal, Some("discharging"))
    );
    let (text, status) = text_of("battery", &sample(BatteryStatus::Discharging, 12.5, 10.0));
    assert_eq!(text, "BAT 25% 1:15");
    assert_eq!(status.map(|s| s.level), Some(Level::Warning));
    let (_, status) = text_of("battery", &sample(BatteryStatus::Discharging, 5.0, 10.0));
    assert_eq!(status.map(|s| s.level), Some(Level::Critical));
    let (text, status) = text_of("battery", &sample(BatteryStatus::Charging, 5.0, 45.0));
    assert_eq!(text, "BAT 10% +1:00");
    let status = status.expect("shown");
    assert_eq!(
        (status.level, status.class),
        (Level::Normal, Some("charging"))
    );
    assert_eq!(
        text_of("battery", &sample(BatteryStatus::Full, 50.0, 0.0)).0,
        "BAT 100% full"
    );
    assert_eq!(default_module("battery").action(Button::Left), None);
}

#[test]
fn the_tooltip_is_the_battery_section() {
    let sample = sample(BatteryStatus::Discharging, 40.0, 10.0);
    let mut out = String::new();
    let input = crate::modules::tests::input(&sample);
    default_module("battery").tooltip(&mut Plain(&mut out), &input);
    assert_eq!(
        out,
        "Battery  80% · discharging · 10.0 W · 4:00 left\n  BAT0  80% · 40.0 / 50.0 Wh · health 80%\n"
    );
}

#[test]
fn the_tooltip_shows_a_batterys_cycles_where_its_driver_counts_them() {
    let mut sample = Sample::default();
    let battery = Battery {
        cycles: Value::Known(312.0),
        ..battery(BatteryStatus::Discharging, 40.0, 50.0, 10.0)
    };
    let reading = Batteries(vec![battery], None);
    sample.readings.insert("battery", Box::new(reading));
    let mut out = String::new();
    let input = crate::modules::tests::input(&sample);
    default_module("battery").tooltip(&mut Plain(&mut out), &input);
    assert!(
        out.ends_with("\n  BAT0  80% · 40.0 / 50.0 Wh · health 100% · 312 cycles\n"),
        "{out}"
    );
}

#[test]
fn bat_picks_one_battery_and_format_alt_is_a_click_away() {
    let mut second = battery(BatteryStatus::Charging, 15.0, 60.0, 20.0);
    second.name = "BAT1".to_owned();
    let first = battery(BatteryStatus::Discharging, 40.0, 50.0, 10.0);
    let mut sample = Sample::default();
    let batteries = Batteries(vec![first, second], None);
    sample.readings.insert("battery", Box::new(batteries));
    let config = crate::config::parse(
        "modules_right = [\"battery\"]\n[battery]\nbat = \"BAT1\"\nformat = \"{capacity}%\"\n\
         format-alt = \"{time} left\"\nformat-time = \"{H}:{M}\"\n",
        std::path::Path::new("c.toml"),
    )
    .expect("valid");
    let module = &config.modules.right[0];
    let input = crate::modules::tests::input(&sample);
    let text = |module: &Rc<dyn Module>| {
        let mut out = String::new();
        let status = module.text(&input, &mut out);
        (out, status.and_then(|s| s.class))
    };
    assert_eq!(
        text(module),
        ("25%".to_owned(), Some("charging")),
        "BAT1 alone"
    );
    assert_eq!(
        module.action(Button::Left),
        Some(crate::modules::Action::Redraw)
    );
    assert_eq!(text(module).0, "2:15 left", "45 Wh to go at 20 W");
    module.action(Button::Left);
    assert_eq!(text(module).0, "25%");
    let gone = crate::config::parse(
        "modules_right = [\"battery\"]\n[battery]\nbat = \"BAT9\"\n",
        std::path::Path::new("c.toml"),
    )
    .expect("valid");
    let mut out = String::new();
    assert_eq!(
        gone.modules.right[0].text(&input, &mut out),
        None,
        "no such battery"
    );
}

#[test]
fn full_at_and_the_design_capacity_rescale_the_charge() {
    // 40 of 50 Wh, the design 62.5 Wh: 80 % of the last full charge, 64 % of the design.
    let eighty = sample(BatteryStatus::Discharging, 40.0, 10.0);
    let text = |toml: &str| {
        let text =
            format!("modules_right = [\"battery\"]\n[battery]\nformat = \"{{capacity}}\"\n{toml}");
        let config = crate::config::parse(&text, std::path::Path::new("c.toml")).expect(toml);
        let mut out = String::new();
        let input = crate::modules::tests::input(&eighty);
        let status = config.modules.right[0].text(&input, &mut out);
        (out, status.map(|s| s.level))
    };
    assert_eq!(text("").0, "80");
    assert_eq!(text("design-capacity = true").0, "64");
    assert_eq!(text("full-at = 90").0, "89", "80 % of 90 %");
    assert_eq!(text("full-at = 80").0, "100");
    assert_eq!(text("full-at = 50").0, "100", "never above 100");
    assert_eq!(text("design-capacity = true\nfull-at = 80").0, "80");
    // The levels follow the charge shown: 16 % of 80 is 20 %, a warning.
    let low = sample(BatteryStatus::Discharging, 8.0, 10.0);
    let config = crate::config::parse(
        "modules_right = [\"battery\"]\n[battery]\nfull-at = 80\n",
        std::path::Path::new("c.toml"),
    )
    .expect("valid");
    let mut out = String::new();
    let status = config.modules.right[0].text(&crate::modules::tests::input(&low), &mut out);
    assert_eq!(out, "BAT 20% 0:48");
    assert_eq!(status.map(|s| s.level), Some(Level::Warning));
    for bad in ["full-at = 0", "full-at = 101", "full-at = \"80\""] {
        let text = format!("modules_right = [\"battery\"]\n[battery]\n{bad}\n");
        assert!(
            crate::config::parse(&text, std::path::Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}
