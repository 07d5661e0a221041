//! `pressure`: `PSI mem 23% io 41%`, the resources whose "some" stall over the last 10 s
//! reached `warning` percent; hidden while every resource is below it. Its tooltip is
//! the monitor's report, with a section for the three resources.

// The reader: the edge, with the application.
#[cfg(feature = "app")]
mod reader;
#[cfg(all(test, feature = "app"))]
mod reader_tests;
mod reading;
#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use super::thresholds::Thresholds;
use super::ModuleKind;
use super::{Input, Module, Status, Table};
use crate::sample::readings::{Reader, Roots};
pub use reading::{Pressure, Stall};

const DEFAULTS: Thresholds = Thresholds {
    warning: 10.0,
    critical: 40.0,
};

struct PressureModule {
    /// As listed (`pressure`, `pressure#io`): the key of its reading.
    key: String,
    thresholds: Thresholds,
}

/// The `pressure` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "pressure",
    make,
    waybar: None,
};

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let thresholds = Thresholds::from_table(table, DEFAULTS)?;
    Ok(Rc::new(PressureModule {
        key: name.to_owned(),
        thresholds,
    }))
}

impl Module for PressureModule {
    fn name(&self) -> &str {
        "pressure"
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        #[cfg(feature = "app")]
        return Some(Box::new(reader::PressureReader::new(&self.key, roots)));
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
        let pressure = input.sample.readings.get::<Pressure>(&self.key)?;
        let t = self.thresholds;
        let mut worst: Option<f64> = None;
        out.push_str("PSI");
        for (name, stall) in pressure.resources() {
            if let Some(stall) = stall.known().filter(|s| s.some >= t.warning) {
                let _ = write!(out, " {name} {:.0}%", stall.some);
                worst = Some(worst.map_or(stall.some, |w| w.max(stall.some)));
            }
        }
        worst?;
        Some(Status::of(worst, t.warning, t.critical))
    }
}
