//! `ringbar --once --json`: one JSON object for one sample, numbers as numbers. Shares
//! are in percent, sizes in bytes, rates per second; each key names its unit. A sensor
//! that failed is `null`, one the machine does not have is left out.

use std::rc::Rc;

use serde_json::{json, Value as Json};

use crate::modules::{Input, Module};
use crate::render::{apps, cpu, gpu, history, io, memory, net, oom, power, stuck};

/// Bumped when a key changes meaning or goes away; new keys may appear at any time.
pub const SCHEMA_VERSION: u32 = 1;

pub fn document(input: &Input<'_>, modules: &[Rc<dyn Module>]) -> Json {
    let sample = input.sample;
    let mut text = String::new();
    let modules: Vec<Json> = modules
        .iter()
        .map(|module| {
            text.clear();
            let status = module.text(input, &mut text);
            json!({
                "name": module.name(),
                "visible": status.is_some(),
                "text": status.as_ref().map(|_| text.as_str()),
                "level": status.as_ref().and_then(|s| s.level.css_class()).unwrap_or("normal"),
                "class": status.as_ref().and_then(|s| s.class),
                "classes": status.as_ref().map_or(Vec::new(), |s| {
                    s.state.as_deref().into_iter().chain(s.classes.iter().map(String::as_str)).collect()
                }),
                "markup": status.as_ref().is_some_and(|s| s.markup),
                "percentage": status.as_ref().and_then(|s| s.percentage),
            })
        })
        .collect();
    let mut document = json!({
        "version": SCHEMA_VERSION,
        "time_unix_ms": sample.unix_ms,
        "source": sample.source.name(),
        "interval_ms": sample.interval_ms,
        "kernel_threads": sample.kernel_threads(),
        "sample_us": sample.sample_us,
        "tasks": sample.processes.tasks,
        "processes": sample.processes.processes,
        "modules": modules,
        "cpu": cpu::json(sample),
        "memory": memory::json(sample),
        "io": io::json(sample),
        "stuck": stuck::json(sample),
        "apps": apps::json(sample),
        "oom_kills": oom::json(sample),
        "gpus": gpu::json(sample),
        "power_profile": power::json(sample),
        "history": history::json(sample),
        "notices": sample.notices.iter().map(|n| json!({
            "title": n.title,
            "detail": n.detail,
        })).collect::<Vec<_>>(),
    });
    // The modules' own readings, each under its module's name.
    if let Some(document) = document.as_object_mut() {
        for (key, reading) in sample.readings.iter() {
            reading.write_json(key, document);
        }
        net::write_json(sample, document);
    }
    document
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::model::{Gpu, GpuDriver, Value};
    use crate::modules::battery::Batteries;
    use crate::modules::pressure::Pressure;

    #[test]
    fn numbers_are_numbers_and_sensors_carry_their_units() {
        let mut sample = crate::render::report::tests::sample();
        let mut gpu = Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0");
        gpu.reading.busy_percent = Value::Known(37.0);
        gpu.reading.celsius = Value::Failed;
        gpu.reading.vram_total = Value::Known(8 << 30);
        sample.hardware.gpus.push(gpu);
        let modules: Vec<_> = Config::default().modules.right;
        // The modules' own readings, on a machine without PSI or batteries.
        let readings = &mut sample.readings;
        readings.insert("pressure", Box::new(Pressure::default()));
        readings.insert("battery", Box::new(Batteries::default()));
        let input = crate::modules::tests::input(&sample);
        let text = document(&input, &modules).to_string();
        let doc: Json = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["source"], "proc");
        assert_eq!(doc["interval_ms"], 500);
        assert_eq!(doc["kernel_threads"], false);
        assert_eq!(doc["cpu"]["busy_percent"], 50.0);
        assert_eq!(doc["cpu"]["load"], json!([1.0, 0.5, 0.25]));
        assert_eq!(doc["cpu"]["temperature_celsius"], 61.25);
        assert_eq!(doc["cpu"]["max_mhz"], 4700.0);
        assert_eq!(doc["cpu"]["top"][0]["core_percent"], 100.0);
        assert_eq!(
            doc["cpu"]["top"][0]["name"], "<b>&amp;",
            "raw names: JSON escapes them"
        );
        assert_eq!(doc["memory"]["used_bytes"], 2u64 << 30);
        assert_eq!(doc["memory"]["top"][0]["rss_bytes"], 100u64 << 20);
        assert!(
            doc["memory"].get("swap_in_bytes_per_second").is_none(),
            "absent sensor"
        );
        assert_eq!(doc["io"]["write_bytes_per_second"], 6.0 * 1024.0 * 1024.0);
        assert_eq!(
            doc["io"]["top"][0]["read_bytes_per_second"],
            2.0 * 1024.0 * 1024.0
        );
        assert_eq!(
            doc["stuck"][0],
            json!({"pid": 300, "name": "stuck", "state": "D", "blocked_seconds": 12.7,
                   "wchan": "folio_wait_bit_common"})
        );
        assert_eq!(doc["stuck"][1]["state"], "Z");
        assert_eq!(doc["gpus"][0]["busy_percent"], 37.0);
        assert!(
            doc["gpus"][0]["temperature_celsius"].is_null(),
            "failed sensor"
        );
        assert!(doc["gpus"][0].get("mhz").is_none(), "absent sensor");
        assert_eq!(doc["gpus"][0]["vram_total_bytes"], 8u64 << 30);
        assert_eq!(doc["power_profile"], Json::Null);
        assert_eq!(doc["notices"][0]["title"], "config");
        let names: Vec<&str> = doc["modules"]
            .as_array()
            .expect("modules")
            .iter()
            .map(|m| m["name"].as_str().expect("name"))
            .collect();
        assert_eq!(
            names,
            ["audio", "network", "cpu", "memory", "gpu", "pressure", "oom", "battery"]
        );
        // Without their event sources (no sound server, rtnetlink not asked): hidden.
        assert_eq!(doc["modules"][0]["visible"], false);
        assert_eq!(doc["modules"][1]["visible"], false);
        assert_eq!(doc["time_unix_ms"], 0, "the sample's own time");
        assert_eq!(doc["batteries"], json!([]));
        assert_eq!(doc["battery"], Json::Null);
        assert_eq!(doc["modules"][2]["text"], "CPU 50% 61°C 2.0GHz");
        assert_eq!(doc["modules"][4]["text"], "GPU 37% –°C");
        assert_eq!(doc["modules"][5]["visible"], false);
        assert_eq!(doc["modules"][5]["text"], Json::Null);
    }
}
