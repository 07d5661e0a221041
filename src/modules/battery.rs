//! `battery`: `BAT 87% 2:35` (discharging, time left), `BAT 64% +0:40` (charging, time to
//! full), `BAT 100% full`; every system battery together. Hidden on a machine without one.
//! Its level rises as the charge falls: `.warning` at or below `warning` percent while
//! discharging, `.critical` at or below `critical`; `.charging` while charging.

use std::rc::Rc;

use super::thresholds::Thresholds;
use super::{Input, Level, Module, Status, Table};
use crate::model::battery::combine;
use crate::model::BatteryStatus;
use crate::render::battery::{write as write_section, write_duration};
use crate::text::Sink;

const DEFAULTS: Thresholds = Thresholds {
    warning: 30.0,
    critical: 15.0,
};

struct Battery {
    thresholds: Thresholds,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let thresholds = Thresholds::from_table(table, DEFAULTS)?;
    Ok(Rc::new(Battery { thresholds }))
}

impl Module for Battery {
    fn name(&self) -> &str {
        "battery"
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        let total = combine(&sample.hardware.batteries)?;
        let _ = std::fmt::Write::write_fmt(out, format_args!("BAT {:.0}%", total.capacity));
        match (total.status, total.seconds_left) {
            (BatteryStatus::Discharging, Some(seconds)) => {
                out.push(' ');
                write_duration(out, seconds);
            }
            (BatteryStatus::Charging, Some(seconds)) => {
                out.push_str(" +");
                write_duration(out, seconds);
            }
            (BatteryStatus::Charging, None) => out.push_str(" +"),
            (BatteryStatus::Full, _) => out.push_str(" full"),
            (BatteryStatus::NotCharging, _) => out.push_str(" not charging"),
            _ => {}
        }
        let t = self.thresholds;
        let level = match total.status {
            BatteryStatus::Discharging if total.capacity <= t.critical => Level::Critical,
            BatteryStatus::Discharging if total.capacity <= t.warning => Level::Warning,
            _ => Level::Normal,
        };
        Some(Status {
            level,
            percentage: Some(total.capacity),
            class: (total.status == BatteryStatus::Charging).then_some("charging"),
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        write_section(sink, input.sample);
    }

    /// Its tooltip is the battery alone.
    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, _button: super::Button) -> Option<super::Action> {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Battery, BatteryStatus, Value};
    use crate::modules::tests::{default_module, text_of};
    use crate::modules::{Button, Level};
    use crate::sample::Sample;
    use crate::text::Plain;

    fn sample(status: BatteryStatus, now: f64, power: f64) -> Sample {
        let mut sample = Sample::default();
        sample.hardware.batteries = vec![Battery {
            name: "BAT0".to_owned(),
            status,
            capacity: Value::Known(now / 50.0 * 100.0),
            energy_now_wh: Value::Known(now),
            energy_full_wh: Value::Known(50.0),
            energy_full_design_wh: Value::Known(62.5),
            power_w: Value::Known(power),
        }];
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
        assert_eq!((status.level, status.class), (Level::Normal, None));
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
}
