//! The CPU section: busy share, load, temperature and frequency, the D/Z rows, the top
//! processes by CPU.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::{header, json_value, number, row, write_percent, write_value};
use crate::sample::Sample;
use crate::text::Sink;

pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let s = &sample.processes;
    header(sink, "CPU");
    let out = sink.out();
    match s.cpu_percent() {
        Some(percent) => write_percent(out, percent),
        None => out.push('–'),
    }
    let _ = write!(out, " of {} CPUs", s.online_cpus);
    if let Some(load) = s.load {
        let [one, five, fifteen] = load.0;
        let _ = write!(out, " · load {one:.2} {five:.2} {fifteen:.2}");
    }
    out.push_str(" · per process, 100% = one core");
    let cpu = &sample.hardware.cpu;
    write_value(out, " · ", cpu.celsius, "°C", number(1));
    write_value(out, " · ", cpu.average_mhz, " MHz avg", number(0));
    write_value(out, ", ", cpu.highest_mhz, " max", number(0));
    if let (false, Some(max)) = (cpu.average_mhz.is_absent(), cpu.hardware_max_mhz) {
        let _ = write!(out, " of {max:.0}");
    }
    out.push('\n');
    super::stuck::write(sink, sample);
    for top in s.shown_cpu().rows() {
        row(sink, top.name(), |o| {
            write_percent(o, s.core_percent(top.value))
        });
    }
}

/// `"cpu"`: shares in percent (the total of all CPUs; per process, of one core).
pub fn json(sample: &Sample) -> Json {
    let s = &sample.processes;
    let cpu = &sample.hardware.cpu;
    let mut object = json!({
        "busy_percent": s.cpu_percent(),
        "online_cpus": s.online_cpus,
        // Two decimals, as the kernel computes them (f32 would print 1.9800000190734863).
        "load": s.load.map(|l| l.0.map(|v| (f64::from(v) * 100.0).round() / 100.0)),
        "top": s.top_cpu.rows().iter().map(|row| json!({
            "pid": row.tgid,
            "name": super::name_string(row.name()),
            "core_percent": s.core_percent(row.value),
        })).collect::<Vec<_>>(),
    });
    json_value(&mut object, "temperature_celsius", cpu.celsius);
    json_value(&mut object, "average_mhz", cpu.average_mhz);
    json_value(&mut object, "highest_mhz", cpu.highest_mhz);
    json_value(&mut object, "lowest_mhz", cpu.lowest_mhz);
    if let Some(max) = cpu.hardware_max_mhz {
        object["max_mhz"] = json!(max);
    }
    object
}
