//! The text on the bar itself and the CSS level of each label.

use std::fmt::Write;

use super::format::{number, write_bytes, write_percent, write_value};
use super::hardware::{CpuReading, Gpu, Pressure};
use super::snapshot::Snapshot;

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
/// and frequency appear only on machines that have the sensors (`–°C` when one fails).
pub fn write_cpu(out: &mut String, s: &Snapshot, sensors: &CpuReading) -> Option<f64> {
    out.push_str("CPU ");
    let percent = s.cpu_percent();
    match percent {
        Some(p) => write_percent(out, p),
        None => out.push('–'),
    }
    write_value(out, " ", sensors.celsius, "°C", number(0));
    write_value(out, " ", sensors.average_mhz, "GHz", |o, mhz| {
        number(1)(o, mhz / 1000.0);
    });
    percent
}

/// `GPU 37.0% 61°C` for the GPU the bar shows; returns its busy share.
pub fn write_gpu(out: &mut String, gpu: &Gpu) -> Option<f64> {
    out.push_str("GPU ");
    let busy = gpu.reading.busy_percent.known();
    match busy {
        Some(p) => write_percent(out, p),
        None => out.push('–'),
    }
    write_value(out, " ", gpu.reading.celsius, "°C", number(0));
    busy
}

/// `PSI mem 23% io 41%`: the resources whose "some" stall over the last 10 s reached
/// `threshold` percent. Returns the worst of them; `None` (nothing written past the
/// prefix) when every resource is below the threshold, and the label hides.
pub fn write_pressure(out: &mut String, pressure: &Pressure, threshold: f64) -> Option<f64> {
    out.push_str("PSI");
    let mut worst: Option<f64> = None;
    for (name, stall) in pressure.resources() {
        if let Some(stall) = stall.known().filter(|s| s.some >= threshold) {
            let _ = write!(out, " {name} {:.0}%", stall.some);
            worst = Some(worst.map_or(stall.some, |w| w.max(stall.some)));
        }
    }
    worst
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
    use crate::model::hardware::{GpuDriver, Stall, Value};
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
        let mut sensors = CpuReading {
            celsius: Value::Known(54.4),
            average_mhz: Value::Known(2050.0),
            highest_mhz: Value::Known(3000.0),
            hardware_max_mhz: Some(4700.0),
        };
        out.clear();
        write_cpu(&mut out, &s, &sensors);
        assert_eq!(out, "CPU 75.0% 54°C 2.0GHz");
        sensors.celsius = Value::Failed;
        sensors.average_mhz = Value::Failed;
        out.clear();
        write_cpu(&mut out, &s, &sensors);
        assert_eq!(out, "CPU 75.0% –°C –GHz", "a failed sensor shows as –");
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

    #[test]
    fn gpu_and_pressure_labels() {
        let mut gpu = Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0");
        let mut out = String::new();
        assert_eq!(write_gpu(&mut out, &gpu), None);
        assert_eq!(out, "GPU –");
        gpu.reading.busy_percent = Value::Known(37.0);
        gpu.reading.celsius = Value::Known(61.4);
        out.clear();
        assert_eq!(write_gpu(&mut out, &gpu), Some(37.0));
        assert_eq!(out, "GPU 37.0% 61°C");

        let calm = Stall {
            some: 2.0,
            full: Some(0.0),
        };
        let mut pressure = Pressure {
            cpu: Value::Known(calm),
            memory: Value::Known(calm),
            io: Value::Failed,
        };
        out.clear();
        assert_eq!(write_pressure(&mut out, &pressure, 10.0), None);
        pressure.memory = Value::Known(Stall {
            some: 23.4,
            full: Some(5.0),
        });
        pressure.io = Value::Known(Stall {
            some: 41.0,
            full: None,
        });
        out.clear();
        assert_eq!(write_pressure(&mut out, &pressure, 10.0), Some(41.0));
        assert_eq!(out, "PSI mem 23% io 41%");
    }
}
