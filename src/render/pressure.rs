//! Pressure stall information (`Pressure  cpu 1.2% · mem 0.0% full 0.0% · io 3.1% full
//! 1.0%`) and the platform power profile, where the machine has them.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::{header, write_value};
use crate::model::{Stall, Value};
use crate::sample::Sample;
use crate::text::{untrusted, Sink};

pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let resources = sample.hardware.pressure.resources();
    if !resources.iter().all(|(_, stall)| stall.is_absent()) {
        header(sink, "Pressure");
        let out = sink.out();
        let mut first = true;
        for (name, stall) in resources {
            if stall.is_absent() {
                continue;
            }
            if !first {
                out.push_str(" · ");
            }
            first = false;
            out.push_str(name);
            write_value(out, " ", stall, "", |o, stall: Stall| {
                let _ = write!(o, "{:.1}%", stall.some);
                // A system-wide "full" for cpu is always 0 and only noise.
                if let (Some(full), false) = (stall.full, name == "cpu") {
                    let _ = write!(o, " full {full:.1}%");
                }
            });
        }
        out.push('\n');
    }
    let hw = &sample.hardware;
    if !hw.power_profile_choices.is_empty() {
        header(sink, "Power");
        match hw.power_profile.as_str() {
            "" => sink.out().push('–'),
            profile => untrusted(sink, profile),
        }
        sink.out().push_str(" (");
        untrusted(sink, &hw.power_profile_choices);
        sink.out().push_str(")\n");
    }
}

/// `"pressure"`: per resource, the share of the last 10 s in percent.
pub fn json(sample: &Sample) -> Json {
    let mut object = json!({});
    for (name, stall) in sample.hardware.pressure.resources() {
        let key = if name == "mem" { "memory" } else { name };
        match stall {
            Value::Known(stall) => {
                object[key] = json!({ "some_percent": stall.some, "full_percent": stall.full });
            }
            Value::Failed => object[key] = Json::Null,
            Value::Absent => {}
        }
    }
    object
}

/// `"power_profile"`: `null` where the firmware has none.
pub fn power_json(sample: &Sample) -> Json {
    let hw = &sample.hardware;
    if hw.power_profile_choices.is_empty() {
        return Json::Null;
    }
    json!({
        "current": (!hw.power_profile.is_empty()).then_some(&hw.power_profile),
        "choices": hw.power_profile_choices.split_whitespace().collect::<Vec<_>>(),
    })
}
