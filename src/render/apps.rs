//! `"apps"` in the JSON: the lists by app, whatever `group_by` shows (the process lists
//! stay under `cpu`, `memory` and `io`).

use serde_json::{json, Value as Json};

use crate::model::top::Row;
use crate::sample::Sample;

fn base(row: &Row) -> Json {
    json!({
        // The app's name, or the process's for a process outside any app.
        "name": super::name_string(row.name()),
        "app": row.app,
        "processes": row.count,
        // The lowest PID of the app's processes.
        "pid": row.tgid,
    })
}

pub fn json(sample: &Sample) -> Json {
    let s = &sample.processes;
    let apps = &s.apps;
    let cpu = apps.cpu.rows().iter().map(|row| {
        let mut o = base(row);
        o["core_percent"] = json!(s.core_percent(row.value));
        o
    });
    let memory = apps.memory.rows().iter().map(|row| {
        let mut o = base(row);
        o["rss_bytes"] = json!(row.value);
        o
    });
    let io = apps.io.rows().iter().map(|row| {
        let mut o = base(row);
        o["read_bytes_per_second"] = json!(s.per_second(row.read));
        o["write_bytes_per_second"] = json!(s.per_second(row.write));
        o
    });
    json!({
        "group_by": s.group_by.name(),
        "cpu": cpu.collect::<Vec<_>>(),
        "memory": memory.collect::<Vec<_>>(),
        "io": io.collect::<Vec<_>>(),
        "network": super::net::apps_json(sample),
    })
}
