//! The processes on the network: the top processes (or apps) by bytes received plus sent
//! in the interval, with the split, and one row for other users' processes, whose network
//! bytes /proc would not show the reader (it shows no process's at all).

use std::fmt::Write;

use serde_json::{json, Map, Value as Json};

use super::{header, name, pad_left, write_rate};
use crate::model::top::Row;
use crate::sample::Sample;
use crate::text::Sink;

pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let s = &sample.processes;
    let rows = s.shown_net().rows();
    let others = s.others_net;
    if rows.is_empty() && others.processes == 0 {
        return;
    }
    header(sink, "Processes");
    let (received, sent) = s.net_shown();
    let out = sink.out();
    out.push_str("down ");
    write_rate(out, s.per_second(received));
    out.push_str(" · up ");
    write_rate(out, s.per_second(sent));
    if s.net_include_local {
        out.push_str(" · with loopback");
    }
    out.push('\n');
    for row in rows {
        line(sink, s.per_second(row.read), s.per_second(row.write));
        name(sink, row.name());
        sink.out().push('\n');
    }
    if others.processes > 0 {
        line(sink, s.per_second(others.read), s.per_second(others.write));
        let _ = writeln!(sink.out(), "other users ({})", others.processes);
    }
}

fn line(sink: &mut dyn Sink, down: f64, up: f64) {
    let out = sink.out();
    out.push_str("  ↓ ");
    pad_left(out, 8, |o| write_rate(o, down));
    out.push_str("  ↑ ");
    pad_left(out, 8, |o| write_rate(o, up));
    out.push_str("  ");
}

fn row_json(sample: &Sample, row: &Row) -> Json {
    let s = &sample.processes;
    json!({
        "pid": row.tgid,
        "name": super::name_string(row.name()),
        "received_bytes_per_second": s.per_second(row.read),
        "sent_bytes_per_second": s.per_second(row.write),
    })
}

/// `network.top` (processes), `network.other_users` and `network.include_loopback`,
/// beside whatever the network module's reading put under `network`.
pub fn write_json(sample: &Sample, document: &mut Map<String, Json>) {
    let s = &sample.processes;
    let (received, sent) = s.net_shown();
    let entry = document
        .entry("network")
        .or_insert_with(|| Json::Object(Map::new()));
    let Some(network) = entry.as_object_mut() else {
        return;
    };
    let top = s.top_net.rows().iter().map(|row| row_json(sample, row));
    network.insert("top".into(), Json::Array(top.collect()));
    network.insert(
        "processes".into(),
        json!({
            "received_bytes_per_second": s.per_second(received),
            "sent_bytes_per_second": s.per_second(sent),
        }),
    );
    network.insert(
        "other_users".into(),
        json!({
            "processes": s.others_net.processes,
            "received_bytes_per_second": s.per_second(s.others_net.read),
            "sent_bytes_per_second": s.per_second(s.others_net.write),
        }),
    );
    network.insert("include_loopback".into(), json!(s.net_include_local));
}

/// `apps.network`: the lists by app.
pub fn apps_json(sample: &Sample) -> Json {
    let rows = sample.processes.apps.net.rows().iter();
    Json::Array(rows.map(|row| row_json(sample, row)).collect())
}
