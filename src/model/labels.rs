//! The text on the bar itself and the CSS level of each label.

use std::fmt::Write;

use super::format::{write_bytes, write_percent};
use super::snapshot::Snapshot;
use super::system::CpuReading;

/// How alarming a value is; becomes the `.warning` or `.critical` CSS class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Normal,
    Warning,
    Critical,
}

impl Level {
    pub fn of(percent: f64, warning: f64, critical: f64) -> Level {
        if percent >= critical {
            Level::Critical
        } else if percent >= warning {
            Level::Warning
        } else {
            Level::Normal
        }
    }

    pub fn css_class(self) -> Option<&'static str> {
        match self {
            Level::Normal => None,
            Level::Warning => Some("warning"),
            Level::Critical => Some("critical"),
        }
    }
}

/// `CPU 12.3% 54°C 2.1GHz`; `CPU –` until there is an interval to measure. Temperature
/// and frequency appear only on machines that have the sensors.
pub fn write_cpu(out: &mut String, s: &Snapshot, sensors: &CpuReading) -> Option<f64> {
    out.push_str("CPU ");
    let percent = s.cpu_percent();
    match percent {
        Some(p) => write_percent(out, p),
        None => out.push('–'),
    }
    if let Some(celsius) = sensors.celsius {
        let _ = write!(out, " {celsius:.0}°C");
    }
    if let Some(mhz) = sensors.average_mhz {
        let _ = write!(out, " {:.1}GHz", mhz / 1000.0);
    }
    percent
}

/// `MEM 2.0G/7.8G`; returns the used share in percent.
pub fn write_memory(out: &mut String, s: &Snapshot) -> Option<f64> {
    out.push_str("MEM ");
    match s.memory {
        Some(m) if m.total > 0 => {
            write_bytes(out, m.used() as f64);
            out.push('/');
            write_bytes(out, m.total as f64);
            Some(m.used() as f64 / m.total as f64 * 100.0)
        }
        _ => {
            out.push('–');
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::system::Memory;

    #[test]
    fn labels_and_levels() {
        let mut s = Snapshot::default();
        let none = CpuReading::default();
        let mut out = String::new();
        assert_eq!(write_cpu(&mut out, &s, &none), None);
        assert_eq!(out, "CPU –");
        s.interval_ns = 1_000_000_000;
        s.online_cpus = 2;
        s.cpu_busy_ns = 1_500_000_000;
        out.clear();
        assert_eq!(write_cpu(&mut out, &s, &none), Some(75.0));
        assert_eq!(out, "CPU 75.0%");
        let sensors = CpuReading {
            celsius: Some(54.4),
            average_mhz: Some(2050.0),
            highest_mhz: Some(3000.0),
            hardware_max_mhz: Some(4700.0),
        };
        out.clear();
        write_cpu(&mut out, &s, &sensors);
        assert_eq!(out, "CPU 75.0% 54°C 2.0GHz");
        assert_eq!(Level::of(75.0, 70.0, 90.0), Level::Warning);
        assert_eq!(Level::of(90.0, 70.0, 90.0), Level::Critical);
        assert_eq!(Level::of(10.0, 70.0, 90.0).css_class(), None);

        out.clear();
        assert_eq!(write_memory(&mut out, &s), None);
        assert_eq!(out, "MEM –");
        s.memory = Some(Memory {
            total: 8 << 30,
            available: 2 << 30,
            swap_total: 0,
            swap_free: 0,
        });
        out.clear();
        assert_eq!(write_memory(&mut out, &s), Some(75.0));
        assert_eq!(out, "MEM 6.0G/8.0G");
    }
}
