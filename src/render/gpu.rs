//! The GPU section: one row per GPU with busy share, frequencies, temperature, VRAM and
//! throttle reasons.

use serde_json::{json, Value as Json};

use super::{number, untrusted, write_bytes, write_percent, write_value, Sink};
use crate::model::{Gpu, Value};
use crate::sample::Sample;

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
    }
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
        object
    });
    Json::Array(gpus.collect())
}
