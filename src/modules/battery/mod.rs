//! `battery`: `BAT 87% 2:35` (discharging, time left), `BAT 64% +0:40` (charging, time to
//! full), `BAT 100% full`; every system battery together. Hidden on a machine without one.
//! Its level rises as the charge falls: `.warning` at or below `warning` percent while
//! discharging, `.critical` at or below `critical`; `.charging` while charging. Its
//! tooltip, and its section of the monitor's report, has the batteries one by one.

// The reader: the edge, with the application.
#[cfg(feature = "app")]
mod reader;
#[cfg(all(test, feature = "app"))]
mod reader_tests;
mod reading;
mod report;
#[cfg(test)]
mod tests;

use std::rc::Rc;

use super::import::{self, Waybar};
use super::thresholds::Thresholds;
use super::ModuleKind;
use super::{Input, Level, Module, Status, Table};
use crate::sample::readings::{Reader, Reading, Roots};
use crate::text::Sink;
pub use reading::{combine, Batteries, Battery, BatteryStatus, BatteryTotal};
use report::write_duration;

const DEFAULTS: Thresholds = Thresholds {
    warning: 30.0,
    critical: 15.0,
};

struct BatteryModule {
    /// As listed (`battery`, `battery#bat2`): the key of its reading.
    key: String,
    thresholds: Thresholds,
}

/// The `battery` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "battery",
    make,
    waybar: Some(Waybar {
        convert: import::sampled,
        ..Waybar::named(&["battery"])
    }),
};

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let thresholds = Thresholds::from_table(table, DEFAULTS)?;
    Ok(Rc::new(BatteryModule {
        key: name.to_owned(),
        thresholds,
    }))
}

impl BatteryModule {
    fn batteries<'a>(&self, input: &Input<'a>) -> &'a [Battery] {
        let reading = input.sample.readings.get::<Batteries>(&self.key);
        reading.map_or(&[], |batteries| &batteries.0)
    }
}

impl Module for BatteryModule {
    fn name(&self) -> &str {
        "battery"
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        #[cfg(feature = "app")]
        return Some(Box::new(reader::BatteryReader::new(&self.key, &roots.sys)));
        #[cfg(not(feature = "app"))]
        {
            let _ = roots;
            None
        }
    }

    fn reading_in_report(&self) -> bool {
        true
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let total = combine(self.batteries(input))?;
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
        if let Some(reading) = input.sample.readings.get::<Batteries>(&self.key) {
            reading.write_report(sink);
        }
    }

    /// Its tooltip is the battery alone.
    fn history_graphs(&self) -> bool {
        false
    }

    fn action(&self, _button: super::Button) -> Option<super::Action> {
        None
    }
}
