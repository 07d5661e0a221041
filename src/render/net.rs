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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::process::tests::{comm, thread};
    use crate::model::record::{TaskRecord, TASK_NET, TASK_PRIVATE};
    use crate::model::Model;
    use crate::text::{Markup, Plain};

    /// `<curl>` received 4 MiB/s and sent 1 MiB/s, another user's process sent 2 MiB/s,
    /// and a third talked only to the machine itself.
    fn sample(include_local: bool) -> Sample {
        let mut m = Model::new(4096, 2);
        m.set_net_include_local(include_local);
        let net = |tgid, name, flags, received: u64, sent: u64, local: u64| TaskRecord {
            comm: comm(name),
            flags: flags | TASK_NET,
            net_received_bytes: received,
            net_sent_bytes: sent,
            net_local_received_bytes: local,
            net_local_sent_bytes: local,
            ..thread(tgid, tgid, 1, 0)
        };
        let tasks = |scale: u64| {
            [
                net(10, "<curl>", 0, (2 * scale) << 20, scale << 19, 0),
                net(20, "secret", TASK_PRIVATE, 0, scale << 20, 0),
                net(30, "db", 0, scale << 20, scale << 20, scale << 20),
            ]
        };
        m.update(1_000_000_000, &tasks(0), &[], None, None);
        m.update(1_500_000_000, &tasks(1), &[], None, None);
        m.rank(false);
        Sample {
            processes: *m.snapshot(),
            ..Sample::default()
        }
    }

    #[test]
    fn the_top_processes_with_their_split_and_one_row_for_other_users() {
        let mut out = String::new();
        write(&mut Plain(&mut out), &sample(false));
        assert_eq!(
            out,
            "Processes  down 4.0M/s · up 3.0M/s\n\
             \x20 ↓   4.0M/s  ↑   1.0M/s  <curl>\n\
             \x20 ↓     0B/s  ↑   2.0M/s  other users (1)\n"
        );
        let mut markup = String::new();
        write(&mut Markup(&mut markup), &sample(false));
        assert!(markup.contains("&lt;curl&gt;"), "{markup}");
        // With the machine's own traffic, the database counts too.
        let mut out = String::new();
        write(&mut Plain(&mut out), &sample(true));
        assert!(out.starts_with("Processes  down 6.0M/s · up 5.0M/s · with loopback\n"));
        assert!(out.contains("  db\n"), "{out}");
        // Nothing on the network: no section.
        let mut out = String::new();
        write(&mut Plain(&mut out), &Sample::default());
        assert_eq!(out, "");
    }

    #[test]
    fn json_under_network_beside_the_modules_reading() {
        let mut document = Map::new();
        document.insert("network".into(), json!({"interface": "eth0"}));
        write_json(&sample(false), &mut document);
        let network = &document["network"];
        assert_eq!(network["interface"], "eth0", "the module's reading stays");
        assert_eq!(network["top"][0]["name"], "<curl>");
        assert_eq!(
            network["top"][0]["received_bytes_per_second"],
            4.0 * 1048576.0
        );
        assert_eq!(network["top"].as_array().map(Vec::len), Some(1));
        assert_eq!(network["other_users"]["processes"], 1);
        assert_eq!(
            network["other_users"]["sent_bytes_per_second"],
            2.0 * 1048576.0
        );
        assert_eq!(network["include_loopback"], false);
        assert_eq!(apps_json(&sample(false))[0]["name"], "<curl>");
    }
}
