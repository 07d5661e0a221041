//! Writers that turn a [`Sample`](crate::sample::Sample) into text. Each section (CPU,
//! memory, IO, GPU, power, footer) has one file holding its one text writer, which
//! renders into a [`Sink`](crate::text::Sink): plain text for `--once` or Pango markup for tooltips, and its
//! JSON form, which `sinks::json` puts into the `--json` document. Nothing here reads a file or touches GTK.

pub mod apps;
pub mod cpu;
pub mod footer;
pub mod gpu;
pub mod history;
pub mod io;
pub mod memory;
pub mod net;
pub mod oom;
pub mod power;
pub mod report;
pub mod sparkline;
pub mod stuck;

use std::fmt::Write;

use crate::model::hardware::Value;
use crate::text::Sink;

/// A header word, bold in markup: `CPU`, `Memory`.
pub fn header(sink: &mut dyn Sink, title: &str) {
    sink.bold(true);
    sink.out().push_str(title);
    sink.bold(false);
    sink.out().push_str("  ");
}

/// Appends a kernel `comm` or an app's name: up to its NUL, invalid UTF-8 as U+FFFD,
/// control characters as `?` so a name can never break a line or a column.
pub fn name(sink: &mut dyn Sink, comm: &[u8]) {
    for_each_name_char(comm, |c| sink.untrusted_char(c));
}

/// A kernel `comm` as a String (JSON output).
pub fn name_string(comm: &[u8]) -> String {
    let mut out = String::new();
    for_each_name_char(comm, |c| out.push(c));
    out
}

fn for_each_name_char(comm: &[u8], mut f: impl FnMut(char)) {
    let len = comm.iter().position(|&b| b == 0).unwrap_or(comm.len());
    for chunk in comm[..len].utf8_chunks() {
        for c in crate::text::shown(chunk.valid(), '?') {
            f(c);
        }
        if !chunk.invalid().is_empty() {
            f(char::REPLACEMENT_CHARACTER);
        }
    }
}

/// Appends a byte count with a binary unit: `512B`, `980K`, `1.2G`, `412M`.
pub fn write_bytes(out: &mut String, bytes: f64) {
    const UNITS: [char; 6] = ['B', 'K', 'M', 'G', 'T', 'P'];
    let mut value = bytes.max(0.0);
    let mut unit = 0;
    while value >= 1023.95 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    // Writing to a String cannot fail.
    let _ = if unit > 0 && value < 9.95 {
        write!(out, "{value:.1}{}", UNITS[unit])
    } else {
        write!(out, "{value:.0}{}", UNITS[unit])
    };
}

pub fn write_rate(out: &mut String, bytes_per_second: f64) {
    write_bytes(out, bytes_per_second);
    out.push_str("/s");
}

pub fn write_percent(out: &mut String, percent: f64) {
    write_percent_to(out, percent, 1);
}

/// A percentage with `decimals` decimals (a label's setting).
pub fn write_percent_to(out: &mut String, percent: f64, decimals: usize) {
    let _ = write!(out, "{percent:.decimals$}%");
}

/// Appends `prefix`, the value and `unit`; `–` in place of the value for a sensor that
/// failed; nothing for one the machine does not have.
pub fn write_value<T: Copy>(
    out: &mut String,
    prefix: &str,
    value: Value<T>,
    unit: &str,
    write: impl FnOnce(&mut String, T),
) {
    match value {
        Value::Absent => return,
        Value::Failed => {
            out.push_str(prefix);
            out.push('–');
        }
        Value::Known(v) => {
            out.push_str(prefix);
            write(out, v);
        }
    }
    out.push_str(unit);
}

/// Writes a number with `decimals` digits after the point, for [`write_value`].
pub fn number(decimals: usize) -> impl Fn(&mut String, f64) {
    move |out, v| {
        let _ = write!(out, "{v:.decimals$}");
    }
}

/// Appends `text` right-aligned in `width` columns (one per character: `–` is one).
pub fn pad_left(out: &mut String, width: usize, text: impl FnOnce(&mut String)) {
    let start = out.len();
    text(out);
    let written = out[start..].chars().count();
    if written < width {
        out.insert_str(start, &"        "[..(width - written).min(8)]);
    }
}

/// Sets `key` in a JSON object: the value, `null` for a sensor that failed, nothing for
/// one the machine does not have.
pub fn json_value<T: Copy + Into<serde_json::Value>>(
    object: &mut serde_json::Value,
    key: &str,
    value: Value<T>,
) {
    match value {
        Value::Known(v) => object[key] = v.into(),
        Value::Failed => object[key] = serde_json::Value::Null,
        Value::Absent => {}
    }
}

/// Width of the value column of list rows.
pub const VALUE_WIDTH: usize = 7;

/// One list row: the value right-aligned, then the process name, then a newline.
pub fn row(sink: &mut dyn Sink, comm: &[u8], value: impl FnOnce(&mut String)) {
    sink.out().push_str("  ");
    pad_left(sink.out(), VALUE_WIDTH, value);
    sink.out().push_str("  ");
    name(sink, comm);
    sink.out().push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::record::COMM_LEN;
    use crate::text::{untrusted, Markup, Plain};

    fn plain_name(bytes: &[u8]) -> String {
        let mut c = [0u8; COMM_LEN];
        c[..bytes.len()].copy_from_slice(bytes);
        let mut out = String::new();
        name(&mut Plain(&mut out), &c);
        out
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(plain_name(b"sh"), "sh");
        assert_eq!(plain_name(b"a b (c) <d> &"), "a b (c) <d> &");
        assert_eq!(plain_name(b"tab\there\nnl"), "tab?here?nl");
        assert_eq!(plain_name(b"bad\xff\xfeutf"), "bad\u{fffd}\u{fffd}utf");
        assert_eq!(plain_name("caf\u{e9}".as_bytes()), "café");
        // All 16 bytes used, no NUL.
        assert_eq!(plain_name(&[b'x'; 16]), "x".repeat(16));
    }

    #[test]
    fn markup_escapes_what_plain_keeps() {
        let mut c = [0u8; COMM_LEN];
        c[..8].copy_from_slice(b"<b>&'\"x\n");
        let mut markup = String::new();
        name(&mut Markup(&mut markup), &c);
        assert_eq!(markup, "&lt;b&gt;&amp;&#39;&quot;x?");
        let mut text = String::new();
        untrusted(&mut Markup(&mut text), "a<b\tc");
        assert_eq!(text, "a&lt;b?c");
    }

    fn bytes(v: f64) -> String {
        let mut out = String::new();
        write_bytes(&mut out, v);
        out
    }

    #[test]
    fn sizes_use_binary_units() {
        assert_eq!(bytes(0.0), "0B");
        assert_eq!(bytes(512.0), "512B");
        assert_eq!(bytes(1023.0), "1023B");
        assert_eq!(bytes(1024.0), "1.0K");
        assert_eq!(bytes(980.0 * 1024.0), "980K");
        assert_eq!(bytes(412.0 * 1024.0 * 1024.0), "412M");
        assert_eq!(bytes(1.25 * 1024.0 * 1024.0 * 1024.0), "1.2G");
        assert_eq!(bytes(-5.0), "0B");
    }
}
