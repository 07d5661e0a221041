//! Pressure stall information, the pressure module's reading: for each resource
//! (`/proc/pressure/{cpu,memory,io}`), the share of the last 10 s in which some (or all)
//! runnable tasks were stalled on it. Its section of the monitor's report reads
//! `Pressure  cpu 1.2% · mem 0.0% full 0.0% · io 3.1% full 1.0%`.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use crate::model::Value;
use crate::render::{header, write_value};
use crate::sample::readings::{copy_same, Reading};
use crate::text::Sink;

/// `/proc/pressure/{cpu,memory,io}`: the share of the last 10 s in which some (or all)
/// runnable tasks were stalled on the resource, in percent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stall {
    pub some: f64,
    /// Absent in `/proc/pressure/cpu` before Linux 5.13.
    pub full: Option<f64>,
}

impl Stall {
    /// Parses `some avg10=1.00 avg60=… total=…` and the optional `full …` line.
    pub fn parse(text: &[u8]) -> Option<Stall> {
        let text = std::str::from_utf8(text).ok()?;
        let (mut some, mut full) = (None, None);
        for line in text.lines() {
            let mut words = line.split_ascii_whitespace();
            let slot = match words.next() {
                Some("some") => &mut some,
                Some("full") => &mut full,
                _ => continue,
            };
            *slot = words
                .find_map(|w| w.strip_prefix("avg10="))
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| (0.0..=100.0).contains(v));
        }
        Some(Stall { some: some?, full })
    }
}

/// Pressure stall information for the three resources.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pressure {
    pub cpu: Value<Stall>,
    pub memory: Value<Stall>,
    pub io: Value<Stall>,
}

impl Pressure {
    /// (short name, reading) in display order.
    pub fn resources(&self) -> [(&'static str, Value<Stall>); 3] {
        [("cpu", self.cpu), ("mem", self.memory), ("io", self.io)]
    }
}

impl Reading for Pressure {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(*self)
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    fn write_report(&self, sink: &mut dyn Sink) {
        let resources = self.resources();
        if resources.iter().all(|(_, stall)| stall.is_absent()) {
            return;
        }
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

    /// Per resource, the share of the last 10 s in percent.
    fn json(&self) -> Json {
        let mut object = json!({});
        for (name, stall) in self.resources() {
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
}
