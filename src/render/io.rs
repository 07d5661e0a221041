//! The IO section: storage read and write rates, the top processes with their split, and
//! one row for the IO of processes /proc would not show the reader.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::{header, name, pad_left, write_rate};
use crate::sample::Sample;
use crate::text::Sink;

pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let s = &sample.processes;
    header(sink, "IO");
    let out = sink.out();
    out.push_str("read ");
    write_rate(out, s.per_second(s.read_bytes));
    out.push_str(" · write ");
    write_rate(out, s.per_second(s.write_bytes));
    // Not 0: /proc would not tell.
    if s.io_unknown > 0 {
        let _ = write!(out, " · n/a for {} processes of other users", s.io_unknown);
    }
    out.push('\n');
    for top in s.shown_io().rows() {
        let out = sink.out();
        out.push_str("  r ");
        pad_left(out, 8, |o| write_rate(o, s.per_second(top.read)));
        out.push_str("  w ");
        pad_left(out, 8, |o| write_rate(o, s.per_second(top.write)));
        out.push_str("  ");
        name(sink, top.name());
        sink.out().push('\n');
    }
    // IO /proc would not attribute for this reader: one row for all of it.
    let others = s.others_io;
    if others.processes > 0 {
        let out = sink.out();
        out.push_str("  r ");
        pad_left(out, 8, |o| write_rate(o, s.per_second(others.read)));
        out.push_str("  w ");
        pad_left(out, 8, |o| write_rate(o, s.per_second(others.write)));
        let _ = writeln!(out, "  other users ({})", others.processes);
    }
}

/// `"io"`: bytes per second.
pub fn json(sample: &Sample) -> Json {
    let s = &sample.processes;
    json!({
        "read_bytes_per_second": s.per_second(s.read_bytes),
        "write_bytes_per_second": s.per_second(s.write_bytes),
        "unknown_processes": s.io_unknown,
        "other_users": {
            "processes": s.others_io.processes,
            "read_bytes_per_second": s.per_second(s.others_io.read),
            "write_bytes_per_second": s.per_second(s.others_io.write),
        },
        "top": s.top_io.rows().iter().map(|row| json!({
            "pid": row.tgid,
            "name": super::name_string(row.name()),
            "read_bytes_per_second": s.per_second(row.read),
            "write_bytes_per_second": s.per_second(row.write),
        })).collect::<Vec<_>>(),
    })
}
