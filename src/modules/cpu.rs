//! `cpu`: `CPU 12% 54°C 2.1GHz`, the busy share of all CPUs (in whole percents unless
//! `decimals` says), then temperature and average frequency where the machine has the
//! sensors (`–` when one fails).

use std::rc::Rc;

use super::import::{self, Waybar};
use super::thresholds::Thresholds;
use super::ModuleKind;
use super::{Input, Module, Status, Table};
use crate::render::{number, write_percent_to, write_value};

const DEFAULTS: Thresholds = Thresholds {
    warning: 70.0,
    critical: 90.0,
};

struct Cpu {
    thresholds: Thresholds,
    decimals: usize,
}

/// The `cpu` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "cpu",
    make,
    waybar: Some(Waybar {
        convert: import::sampled,
        ..Waybar::named(&["cpu"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let (thresholds, decimals) = Thresholds::with_decimals(table, DEFAULTS)?;
    Ok(Rc::new(Cpu {
        thresholds,
        decimals,
    }))
}

impl Module for Cpu {
    fn name(&self) -> &str {
        "cpu"
    }

    /// `CPU –` until there is an interval to measure.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        out.push_str("CPU ");
        let percent = sample.processes.cpu_percent();
        match percent {
            Some(p) => write_percent_to(out, p, self.decimals),
            None => out.push('–'),
        }
        let sensors = &sample.hardware.cpu;
        write_value(out, " ", sensors.celsius, "°C", number(0));
        write_value(out, " ", sensors.average_mhz, "GHz", |o, mhz| {
            number(1)(o, mhz / 1000.0);
        });
        let t = self.thresholds;
        Some(Status::of(percent, t.warning, t.critical))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{CpuReading, Value};
    use crate::modules::tests::text_of;
    use crate::modules::Level;
    use crate::sample::Sample;

    #[test]
    fn text_and_level() {
        let mut sample = Sample::default();
        let (text, status) = text_of("cpu", &sample);
        assert_eq!(text, "CPU –");
        assert_eq!(status.map(|s| s.percentage), Some(None));
        let s = &mut sample.processes;
        s.interval_ns = 1_000_000_000;
        s.online_cpus = 2;
        s.cpu_busy_ns = 1_500_000_000;
        let (text, status) = text_of("cpu", &sample);
        assert_eq!(text, "CPU 75%");
        let status = status.expect("shown");
        assert_eq!(
            (status.level, status.percentage),
            (Level::Warning, Some(75.0))
        );
        sample.hardware.cpu = CpuReading {
            celsius: Value::Known(54.4),
            average_mhz: Value::Known(2050.0),
            highest_mhz: Value::Known(3000.0),
            hardware_max_mhz: Some(4700.0),
        };
        assert_eq!(text_of("cpu", &sample).0, "CPU 75% 54°C 2.0GHz");
        sample.hardware.cpu.celsius = Value::Failed;
        sample.hardware.cpu.average_mhz = Value::Failed;
        assert_eq!(
            text_of("cpu", &sample).0,
            "CPU 75% –°C –GHz",
            "a failed sensor shows as –"
        );
    }

    #[test]
    fn decimals_from_the_table() {
        let mut sample = Sample::default();
        let s = &mut sample.processes;
        s.interval_ns = 1_000_000_000;
        s.online_cpus = 2;
        s.cpu_busy_ns = 247_000_000;
        let make = |table: &str| {
            let table = toml::de::ValueDeserializer::parse(table).expect("toml");
            crate::modules::make("cpu", Some(table)).expect("registered")
        };
        let text = |table: &str| {
            let module = make(table).expect("valid");
            let mut out = String::new();
            module.text(&crate::modules::tests::input(&sample), &mut out);
            out
        };
        assert_eq!(text("{}"), "CPU 12%");
        assert_eq!(text("{ decimals = 1 }"), "CPU 12.3%");
        assert_eq!(text("{ decimals = 2, warning = 5 }"), "CPU 12.35%");
        for wrong in [
            "{ decimals = 3 }",
            "{ decimals = -1 }",
            "{ decimals = \"one\" }",
        ] {
            assert!(make(wrong).is_err(), "{wrong}");
        }
    }
}
