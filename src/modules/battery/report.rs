//! The battery section: all batteries together (charge, status, power, time left), then
//! one row per battery with its energy and wear. Nothing on a machine without one.

use std::fmt::Write;

use serde_json::{json, Map, Value as Json};

use super::reading::{combine, Batteries, Battery, BatteryStatus};
use crate::render::{header, json_value, number, write_value};
use crate::sample::readings::{copy_same, Reading};
use crate::text::{untrusted, Sink};

/// `2:35`, hours and minutes.
pub fn write_duration(out: &mut String, seconds: u64) {
    let minutes = seconds / 60;
    let _ = write!(out, "{}:{:02}", minutes / 60, minutes % 60);
}

pub fn write(sink: &mut dyn Sink, batteries: &[Battery]) {
    let Some(total) = combine(batteries) else {
        return;
    };
    header(sink, "Battery");
    let out = sink.out();
    let _ = write!(out, "{:.0}% · {}", total.capacity, total.status.name());
    if let Some(watts) = total.power_w {
        let _ = write!(out, " · {watts:.1} W");
    }
    if let Some(seconds) = total.seconds_left {
        out.push_str(" · ");
        write_duration(out, seconds);
        out.push_str(match total.status {
            BatteryStatus::Charging => " to full",
            _ => " left",
        });
    }
    out.push('\n');
    for battery in batteries {
        sink.out().push_str("  ");
        untrusted(sink, &battery.name);
        let out = sink.out();
        write_value(out, "  ", battery.capacity, "%", number(0));
        write_value(out, " · ", battery.energy_now_wh, "", number(1));
        write_value(out, " / ", battery.energy_full_wh, " Wh", number(1));
        if let (Some(full), Some(design)) = (
            battery.energy_full_wh.known(),
            battery.energy_full_design_wh.known(),
        ) {
            if design > 0.0 {
                let _ = write!(out, " · health {:.0}%", full / design * 100.0);
            }
        }
        if let Some(cycles) = battery.cycles.known() {
            let _ = write!(out, " · {cycles:.0} cycles");
        }
        out.push('\n');
    }
}

/// Each battery, for the JSON document's `"batteries"`.
pub fn each_json(batteries: &[Battery]) -> Json {
    let each = batteries
        .iter()
        .map(|b| {
            let mut object = json!({ "name": b.name, "status": b.status.name() });
            json_value(&mut object, "capacity_percent", b.capacity);
            json_value(&mut object, "energy_now_wh", b.energy_now_wh);
            json_value(&mut object, "energy_full_wh", b.energy_full_wh);
            json_value(
                &mut object,
                "energy_full_design_wh",
                b.energy_full_design_wh,
            );
            json_value(&mut object, "power_w", b.power_w);
            json_value(&mut object, "cycles", b.cycles);
            object
        })
        .collect();
    Json::Array(each)
}

/// Them all together, for the JSON document's `"battery"`; `null` without any.
pub fn total_json(batteries: &[Battery]) -> Json {
    combine(batteries).map_or(Json::Null, |t| {
        json!({
            "capacity_percent": t.capacity,
            "status": t.status.name(),
            "power_w": t.power_w,
            "seconds_left": t.seconds_left,
        })
    })
}

impl Reading for Batteries {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(self.clone())
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    fn write_report(&self, sink: &mut dyn Sink) {
        write(sink, &self.0);
    }

    fn json(&self) -> Json {
        total_json(&self.0)
    }

    /// `"battery"`: them all together (`null` without any), and `"batteries"`: each.
    fn write_json(&self, key: &str, document: &mut Map<String, Json>) {
        document.insert(key.to_owned(), self.json());
        document.insert("batteries".to_owned(), each_json(&self.0));
    }
}
