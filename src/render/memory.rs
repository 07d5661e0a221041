//! The memory section: used and total, swap and its traffic, the top processes by RSS.

use serde_json::{json, Value as Json};

use super::{header, json_value, row, write_bytes, write_rate, write_value};
use crate::sample::Sample;
use crate::text::Sink;

pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let s = &sample.processes;
    header(sink, "Memory");
    let out = sink.out();
    match s.memory {
        Some(m) => {
            write_bytes(out, m.used() as f64);
            out.push_str(" / ");
            write_bytes(out, m.total as f64);
            out.push_str(" · swap ");
            write_bytes(out, m.swap_used() as f64);
            out.push_str(" / ");
            write_bytes(out, m.swap_total as f64);
        }
        None => out.push('–'),
    }
    write_value(out, " · in ", sample.hardware.swap, "", |o, swap| {
        write_rate(o, swap.in_per_second);
        o.push_str(" out ");
        write_rate(o, swap.out_per_second);
    });
    out.push('\n');
    for top in s.shown_memory().rows() {
        row(sink, top.name(), |o| write_bytes(o, top.value as f64));
    }
}

/// `"memory"`: bytes, and bytes per second for swap traffic.
pub fn json(sample: &Sample) -> Json {
    let s = &sample.processes;
    let mut object = match s.memory {
        Some(m) => json!({
            "total_bytes": m.total,
            "used_bytes": m.used(),
            "available_bytes": m.available,
            "swap_total_bytes": m.swap_total,
            "swap_used_bytes": m.swap_used(),
        }),
        None => json!({}),
    };
    let swap = sample.hardware.swap;
    json_value(
        &mut object,
        "swap_in_bytes_per_second",
        swap.map(|s| s.in_per_second),
    );
    json_value(
        &mut object,
        "swap_out_bytes_per_second",
        swap.map(|s| s.out_per_second),
    );
    object["top"] = s
        .top_memory
        .rows()
        .iter()
        .map(|row| {
            json!({
                "pid": row.tgid,
                "name": super::name_string(row.name()),
                "rss_bytes": row.value,
            })
        })
        .collect();
    object
}
