//! The GPU section: one row per GPU with busy share, frequencies, temperature, VRAM and
//! throttle reasons, and under it the processes using it most (busy share, memory).

use serde_json::{json, Value as Json};

use super::{
    name, name_string, number, pad_left, write_bytes, write_percent, write_value, VALUE_WIDTH,
};
use crate::model::gpu_users::GpuProcess;
use crate::model::{Gpu, Value};
use crate::sample::Sample;
use crate::text::{untrusted, Sink};

/// Nothing on a machine without a GPU.
pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let gpus = &sample.hardware.gpus;
    if gpus.is_empty() {
        return;
    }
    sink.bold(true);
    sink.out().push_str("GPU");
    sink.bold(false);
    sink.out().push('\n');
    for gpu in gpus {
        write_row(sink, gpu);
        for process in gpu.processes.rows() {
            write_process(sink, process);
        }
    }
}

/// `    12.0%   512M  firefox`: `–` for a share not known yet (one read) or memory the
/// driver does not report.
fn write_process(sink: &mut dyn Sink, process: &GpuProcess) {
    let out = sink.out();
    out.push_str("  ");
    match process.busy_percent {
        Some(p) => pad_left(out, VALUE_WIDTH, |out| write_percent(out, p)),
        None => dash(out, VALUE_WIDTH),
    }
    out.push_str("  ");
    match process.memory_bytes {
        Some(bytes) => pad_left(out, 5, |out| write_bytes(out, bytes as f64)),
        None => dash(out, 5),
    }
    out.push_str("  ");
    name(sink, process.name());
    sink.out().push('\n');
}

/// `  card0 i915  12.0% · 1100 / 1300 MHz · 61°C · VRAM 1.2G / 8.0G · throttled pl1`.
fn write_row(sink: &mut dyn Sink, gpu: &Gpu) {
    let r = &gpu.reading;
    sink.out().push_str("  ");
    untrusted(sink, &gpu.card);
    sink.out().push(' ');
    sink.out().push_str(gpu.driver.name());
    if !gpu.model.is_empty() {
        sink.out().push(' ');
        untrusted(sink, &gpu.model);
    }
    let out = sink.out();
    out.push_str("  ");
    match r.busy_percent.known() {
        Some(p) => write_percent(out, p),
        None => out.push('–'),
    }
    if r.asleep {
        out.push_str(" asleep");
    }
    write_value(out, " · ", r.mhz, "", number(0));
    write_value(out, " / ", r.max_mhz, "", number(0));
    if !(r.mhz.is_absent() && r.max_mhz.is_absent()) {
        out.push_str(" MHz");
    }
    write_value(out, " · ", r.celsius, "°C", number(0));
    write_value(out, " · VRAM ", r.vram_used, "", |o, b| {
        write_bytes(o, b as f64)
    });
    write_value(out, " / ", r.vram_total, "", |o, b| {
        write_bytes(o, b as f64)
    });
    match r.throttle {
        Value::Known(t) if !t.is_empty() => {
            sink.out().push_str(" · ");
            sink.bold(true);
            sink.out().push_str("throttled");
            sink.bold(false);
            t.names().for_each(|name| {
                sink.out().push(' ');
                sink.out().push_str(name);
            });
        }
        Value::Failed => sink.out().push_str(" · throttle –"),
        _ => {}
    }
    sink.out().push('\n');
}

/// `–` right-aligned in `width` columns (`pad_left` counts bytes, and it has three).
fn dash(out: &mut String, width: usize) {
    (1..width).for_each(|_| out.push(' '));
    out.push('–');
}

/// `"gpus"`: every GPU; a sensor that failed is `null`, one the GPU lacks is left out.
pub fn json(sample: &Sample) -> Json {
    let gpus = sample.hardware.gpus.iter().map(|gpu| {
        let r = &gpu.reading;
        let mut object = json!({
            "card": gpu.card,
            "driver": gpu.driver.name(),
            "pci_slot": gpu.pci_slot,
            "model": gpu.model,
            "asleep": r.asleep,
        });
        super::json_value(&mut object, "busy_percent", r.busy_percent);
        super::json_value(&mut object, "mhz", r.mhz);
        super::json_value(&mut object, "max_mhz", r.max_mhz);
        super::json_value(&mut object, "temperature_celsius", r.celsius);
        super::json_value(&mut object, "vram_used_bytes", r.vram_used);
        super::json_value(&mut object, "vram_total_bytes", r.vram_total);
        match r.throttle {
            Value::Known(t) => object["throttle"] = t.names().collect::<Vec<_>>().into(),
            Value::Failed => object["throttle"] = Json::Null,
            Value::Absent => {}
        }
        let processes = gpu.processes.rows().iter().map(|p| {
            json!({
                "pid": p.pid,
                "name": name_string(p.name()),
                "busy_percent": p.busy_percent,
                "memory_bytes": p.memory_bytes,
            })
        });
        object["processes"] = Json::Array(processes.collect());
        object
    });
    Json::Array(gpus.collect())
}
