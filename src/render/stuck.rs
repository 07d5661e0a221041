//! The D and Z rows under the CPU section: `D 12s  dd  folio_wait_bit_common` (how long
//! it has been stuck, the process, the wait channel) and `Z  defunct`.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::{name, pad_left, VALUE_WIDTH};
use crate::model::record::TaskState;
use crate::model::top::Row;
use crate::sample::Sample;
use crate::text::Sink;

/// Every stuck row of the sample, D rows first.
pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    for (state, row) in sample.processes.stuck.rows() {
        write_row(sink, state, row);
    }
}

fn write_row(sink: &mut dyn Sink, state: TaskState, row: &Row) {
    sink.out().push_str("  ");
    pad_left(sink.out(), VALUE_WIDTH, |out| {
        out.push(state.letter());
        if state == TaskState::DiskSleep {
            out.push(' ');
            write_duration(out, row.blocked_ns);
        }
    });
    sink.out().push_str("  ");
    name(sink, row.name());
    if !row.wchan.is_empty() {
        sink.out().push_str("  ");
        name(sink, row.wchan.as_bytes());
    }
    sink.out().push('\n');
}

/// At most 5 characters: `0.3s`, `12s`, `14m`, `5h`, `3d`.
pub fn write_duration(out: &mut String, ns: u64) {
    let seconds = ns as f64 / 1e9;
    let _ = match seconds {
        s if s < 10.0 => write!(out, "{s:.1}s"),
        s if s < 60.0 => write!(out, "{}s", s as u64),
        s if s < 3600.0 => write!(out, "{}m", (s / 60.0) as u64),
        s if s < 86_400.0 => write!(out, "{}h", (s / 3600.0) as u64),
        s => write!(out, "{}d", (s / 86_400.0) as u64),
    };
}

/// `"stuck"`: processes stuck in D (with `blocked_seconds` and `wchan`, null when /proc
/// does not name it) and zombies that outlived one sample.
pub fn json(sample: &Sample) -> Json {
    let rows = sample.processes.stuck.rows().map(|(state, row)| {
        let mut object = json!({
            "pid": row.tgid,
            "name": super::name_string(row.name()),
            "state": state.letter().to_string(),
        });
        if state == TaskState::DiskSleep {
            // Milliseconds are as precise as the kernel's figure is meaningful.
            object["blocked_seconds"] = json!((row.blocked_ns / 1_000_000) as f64 / 1000.0);
            object["wchan"] = match row.wchan.is_empty() {
                true => Json::Null,
                false => json!(super::name_string(row.wchan.as_bytes())),
            };
        }
        object
    });
    Json::Array(rows.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duration(ns: u64) -> String {
        let mut out = String::new();
        write_duration(&mut out, ns);
        out
    }

    #[test]
    fn durations_fit_the_value_column() {
        assert_eq!(duration(0), "0.0s");
        assert_eq!(duration(340_000_000), "0.3s");
        assert_eq!(duration(12_700_000_000), "12s");
        assert_eq!(duration(14 * 60 * 1_000_000_000 + 5), "14m");
        assert_eq!(duration(5 * 3600 * 1_000_000_000), "5h");
        assert_eq!(duration(400 * 86_400 * 1_000_000_000), "400d");
    }
}
