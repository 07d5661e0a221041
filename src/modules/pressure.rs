//! `pressure`: `PSI mem 23% io 41%`, the resources whose "some" stall over the last 10 s
//! reached `warning` percent; hidden while every resource is below it.

use std::fmt::Write;
use std::rc::Rc;

use super::thresholds::Thresholds;
use super::{Input, Module, Status, Table};

const DEFAULTS: Thresholds = Thresholds {
    warning: 10.0,
    critical: 40.0,
};

struct Pressure {
    thresholds: Thresholds,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let thresholds = Thresholds::from_table(table, DEFAULTS)?;
    Ok(Rc::new(Pressure { thresholds }))
}

impl Module for Pressure {
    fn name(&self) -> &str {
        "pressure"
    }

    fn readings(&self) -> crate::sample::Wanted {
        crate::sample::Wanted {
            pressure: true,
            tooltip: false,
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        let t = self.thresholds;
        let mut worst: Option<f64> = None;
        out.push_str("PSI");
        for (name, stall) in sample.hardware.pressure.resources() {
            if let Some(stall) = stall.known().filter(|s| s.some >= t.warning) {
                let _ = write!(out, " {name} {:.0}%", stall.some);
                worst = Some(worst.map_or(stall.some, |w| w.max(stall.some)));
            }
        }
        worst?;
        Some(Status::of(worst, t.warning, t.critical))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Pressure, Stall, Value};
    use crate::modules::tests::text_of;
    use crate::modules::Level;
    use crate::sample::Sample;

    #[test]
    fn shown_only_past_the_threshold() {
        let calm = Stall {
            some: 2.0,
            full: Some(0.0),
        };
        let mut sample = Sample::default();
        sample.hardware.pressure = Pressure {
            cpu: Value::Known(calm),
            memory: Value::Known(calm),
            io: Value::Failed,
        };
        assert_eq!(text_of("pressure", &sample).1, None);
        sample.hardware.pressure.memory = Value::Known(Stall {
            some: 23.4,
            full: Some(5.0),
        });
        sample.hardware.pressure.io = Value::Known(Stall {
            some: 41.0,
            full: None,
        });
        let (text, status) = text_of("pressure", &sample);
        assert_eq!(text, "PSI mem 23% io 41%");
        let status = status.expect("shown");
        assert_eq!(
            (status.level, status.percentage),
            (Level::Critical, Some(41.0))
        );
    }
}
