//! Human-readable text: process names, sizes, rates and the plain-text snapshot that
//! `ringbar --once` prints (the same content as the bar's tooltip).

use std::fmt::Write;

use super::hardware::Value;
use super::record::COMM_LEN;
use super::snapshot::Snapshot;
use super::top::Row;

/// Appends a kernel `comm`: up to its NUL, invalid UTF-8 as U+FFFD, control characters as
/// `?` so a name can never break a line or a column.
pub fn write_name(out: &mut String, comm: &[u8; COMM_LEN]) {
    for_each_name_char(comm, |c| out.push(c));
}

/// The characters [`write_name`] writes, one by one.
pub fn for_each_name_char(comm: &[u8; COMM_LEN], mut f: impl FnMut(char)) {
    let len = comm.iter().position(|&b| b == 0).unwrap_or(COMM_LEN);
    for chunk in comm[..len].utf8_chunks() {
        for c in chunk.valid().chars() {
            f(if c.is_control() { '?' } else { c });
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
    let _ = write!(out, "{percent:.1}%");
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

/// Appends `text` right-aligned in `width` columns (ASCII text).
pub(crate) fn pad_left(out: &mut String, width: usize, text: impl FnOnce(&mut String)) {
    let start = out.len();
    text(out);
    let written = out.len() - start;
    if written < width {
        out.insert_str(start, &"        "[..(width - written).min(8)]);
    }
}

fn write_row(out: &mut String, row: &Row, value: impl FnOnce(&mut String)) {
    write_value_row(out, 6, value, |o| write_name(o, &row.comm));
}

/// One list row: the value right-aligned in `width` columns, then the name, then a newline.
pub(crate) fn write_value_row(
    out: &mut String,
    width: usize,
    value: impl FnOnce(&mut String),
    name: impl FnOnce(&mut String),
) {
    out.push_str("  ");
    pad_left(out, width, value);
    out.push_str("  ");
    name(out);
    out.push('\n');
}

/// `50.0% of 2 CPUs · load 1.00 0.50 0.25`: the CPU section's header.
pub(crate) fn write_cpu_summary(out: &mut String, s: &Snapshot) {
    match s.cpu_percent() {
        Some(percent) => write_percent(out, percent),
        None => out.push('–'),
    }
    let _ = write!(out, " of {} CPUs", s.online_cpus);
    if let Some(load) = s.load {
        let [one, five, fifteen] = load.0;
        let _ = write!(out, " · load {one:.2} {five:.2} {fifteen:.2}");
    }
}

/// `2.0G / 8.0G{after_total} · swap 0B / 0B`: the Memory section's header.
pub(crate) fn write_memory_summary(out: &mut String, s: &Snapshot, after_total: &str) {
    match s.memory {
        Some(m) => {
            write_bytes(out, m.used() as f64);
            out.push_str(" / ");
            write_bytes(out, m.total as f64);
            out.push_str(after_total);
            out.push_str(" · swap ");
            write_bytes(out, m.swap_used() as f64);
            out.push_str(" / ");
            write_bytes(out, m.swap_total as f64);
        }
        None => out.push('–'),
    }
}

/// `read 0B/s · write 6.0M/s`: the IO section's header, and how many processes' IO is
/// not known (n/a, not 0) when /proc would not tell.
pub(crate) fn write_io_summary(out: &mut String, s: &Snapshot) {
    out.push_str("read ");
    write_rate(out, s.per_second(s.read_bytes));
    out.push_str(" · write ");
    write_rate(out, s.per_second(s.write_bytes));
    if s.io_unknown > 0 {
        let _ = write!(out, " · n/a for {} processes of other users", s.io_unknown);
    }
}

/// The plain-text snapshot: CPU, Memory and IO sections, one process per row, the name
/// always last.
pub fn write_report(out: &mut String, s: &Snapshot) {
    out.push_str("CPU  ");
    write_cpu_summary(out, s);
    out.push_str(" · per process, 100% = one core\n");
    for (state, row) in s.stuck.rows() {
        out.push_str("  ");
        out.push(state.letter());
        out.push_str("  ");
        write_name(out, &row.comm);
        out.push('\n');
    }
    for row in s.top_cpu.rows() {
        write_row(out, row, |o| write_percent(o, s.core_percent(row.value)));
    }

    out.push_str("Memory  ");
    write_memory_summary(out, s, " used");
    out.push('\n');
    for row in s.top_memory.rows() {
        write_row(out, row, |o| write_bytes(o, row.value as f64));
    }

    out.push_str("IO  ");
    write_io_summary(out, s);
    out.push('\n');
    for row in s.top_io.rows() {
        write_row(out, row, |o| write_rate(o, s.per_second(row.value)));
    }
}

/// The footer line: how the sample was taken.
pub fn write_footer(out: &mut String, s: &Snapshot, interval_ms: u64) {
    let _ = write!(
        out,
        "sampled in {} µs · every {} ms · kernel threads {}",
        s.sample_us,
        interval_ms,
        if s.kernel_threads {
            "included"
        } else {
            "excluded"
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::process::tests::{comm, thread};
    use crate::model::snapshot::Model;
    use crate::model::system::{LoadAverage, Memory};

    fn name(bytes: &[u8]) -> String {
        let mut c = [0u8; COMM_LEN];
        c[..bytes.len()].copy_from_slice(bytes);
        let mut out = String::new();
        write_name(&mut out, &c);
        out
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(name(b"sh"), "sh");
        assert_eq!(name(b"a b (c) <d> &"), "a b (c) <d> &");
        assert_eq!(name(b"tab\there\nnl"), "tab?here?nl");
        assert_eq!(name(b"bad\xff\xfeutf"), "bad\u{fffd}\u{fffd}utf");
        assert_eq!(name("caf\u{e9}".as_bytes()), "café");
        // All 16 bytes used, no NUL.
        assert_eq!(name(&[b'x'; 16]), "x".repeat(16));
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

    #[test]
    fn report_golden_text() {
        let mut m = Model::new(4096, 2);
        let mut spin = thread(100, 100, 0, 0);
        spin.comm = comm("rb-spin");
        let mut hog = thread(200, 200, 1, 0);
        hog.comm = comm("big <hog>");
        hog.rss_pages = 100 * 256; // 100 MiB
        let mut stuck = thread(300, 300, 2, 0);
        stuck.comm = comm("stuck");
        m.update(1_000_000_000, &[spin, hog, stuck], &[], None, None);
        spin.cpu_ns = 500_000_000;
        hog.write_bytes = 3 * 1024 * 1024;
        let memory = Memory {
            total: 8 << 30,
            available: 6 << 30,
            swap_total: 0,
            swap_free: 0,
        };
        m.update(
            1_500_000_000,
            &[spin, hog, stuck],
            &[],
            Some(memory),
            Some(LoadAverage([1.0, 0.5, 0.25])),
        );
        m.rank(false);
        let mut out = String::new();
        write_report(&mut out, m.snapshot());
        assert_eq!(
            out,
            "CPU  50.0% of 2 CPUs · load 1.00 0.50 0.25 · per process, 100% = one core\n\
             \x20 D  stuck\n\
             \x20 100.0%  rb-spin\n\
             Memory  2.0G / 8.0G used · swap 0B / 0B\n\
             \x20   100M  big <hog>\n\
             IO  read 0B/s · write 6.0M/s\n\
             \x20 6.0M/s  big <hog>\n"
        );
        let mut footer = String::new();
        write_footer(&mut footer, m.snapshot(), 500);
        assert_eq!(
            footer,
            "sampled in 0 µs · every 500 ms · kernel threads excluded"
        );
    }
}
