//! The tooltip as Pango markup: the same sections as the plain report, with every
//! process name and message escaped so no name can break or inject markup.

use std::fmt::Write;

use super::format::{
    for_each_name_char, number, pad_left, write_bytes, write_cpu_summary, write_io_summary,
    write_memory_summary, write_percent, write_rate, write_value, write_value_row,
};
use super::hardware::{Gpu, Hardware, Pressure, Stall, Value};
use super::record::COMM_LEN;
use super::snapshot::Snapshot;
use super::top::Row;

/// Appends `text` with Pango's five special characters escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    text.chars().for_each(|c| push_escaped_char(out, c));
}

fn push_escaped_char(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '\'' => out.push_str("&#39;"),
        '"' => out.push_str("&quot;"),
        c => out.push(c),
    }
}

fn push_name(out: &mut String, comm: &[u8; COMM_LEN]) {
    for_each_name_char(comm, |c| push_escaped_char(out, c));
}

fn push_row(out: &mut String, row: &Row, value: impl FnOnce(&mut String)) {
    write_value_row(out, 7, value, |o| push_name(o, &row.comm));
}

/// Something the user should know about the bar itself (a config error, the probe being
/// off), shown above the sections.
pub struct Notice<'a> {
    pub title: &'a str,
    pub detail: &'a str,
}

/// The whole tooltip: notices, CPU (D/Z rows first), Memory, IO, GPUs, pressure and
/// power profile where the machine has them, and the footer.
pub fn write_tooltip(
    out: &mut String,
    s: &Snapshot,
    hw: &Hardware,
    interval_ms: u32,
    notices: &[Notice<'_>],
) {
    for notice in notices {
        out.push_str("<b>⚠ ");
        push_escaped(out, notice.title);
        out.push_str("</b>  ");
        push_escaped(out, notice.detail);
        out.push('\n');
    }

    out.push_str("<b>CPU</b>  ");
    write_cpu_summary(out, s);
    let cpu = &hw.cpu;
    write_value(out, " · ", cpu.celsius, "°C", number(1));
    write_value(out, " · ", cpu.average_mhz, " MHz avg", number(0));
    write_value(out, ", ", cpu.highest_mhz, " max", number(0));
    if let (false, Some(max)) = (cpu.average_mhz.is_absent(), cpu.hardware_max_mhz) {
        let _ = write!(out, " of {max:.0}");
    }
    out.push('\n');
    for (state, row) in s.stuck.rows() {
        let _ = write!(out, "  <b>{:>7}</b>  ", state.letter());
        push_name(out, &row.comm);
        out.push('\n');
    }
    for row in s.top_cpu.rows() {
        push_row(out, row, |o| write_percent(o, s.core_percent(row.value)));
    }

    out.push_str("<b>Memory</b>  ");
    write_memory_summary(out, s, "");
    write_value(out, " · in ", hw.swap, "", |o, swap| {
        write_rate(o, swap.in_per_second);
        o.push_str(" out ");
        write_rate(o, swap.out_per_second);
    });
    out.push('\n');
    for row in s.top_memory.rows() {
        push_row(out, row, |o| write_bytes(o, row.value as f64));
    }

    out.push_str("<b>IO</b>  ");
    write_io_summary(out, s);
    out.push('\n');
    for row in s.top_io.rows() {
        out.push_str("  r ");
        pad_left(out, 8, |o| write_rate(o, s.per_second(row.read)));
        out.push_str("  w ");
        pad_left(out, 8, |o| write_rate(o, s.per_second(row.write)));
        out.push_str("  ");
        push_name(out, &row.comm);
        out.push('\n');
    }

    if !hw.gpus.is_empty() {
        out.push_str("<b>GPU</b>\n");
        for gpu in &hw.gpus {
            write_gpu_row(out, gpu);
        }
    }
    write_pressure_line(out, &hw.pressure);
    if !hw.power_profile_choices.is_empty() {
        out.push_str("<b>Power</b>  ");
        match hw.power_profile.as_str() {
            "" => out.push('–'),
            profile => push_escaped(out, profile),
        }
        out.push_str(" (");
        push_escaped(out, &hw.power_profile_choices);
        out.push_str(")\n");
    }

    out.push_str("<small>");
    super::format::write_footer(out, s, u64::from(interval_ms));
    out.push_str("</small>");
}

/// `  card0 i915  12.0% · 1100 / 1300 MHz · 61°C · VRAM 1.2G / 8.0G · throttled pl1`.
fn write_gpu_row(out: &mut String, gpu: &Gpu) {
    let r = &gpu.reading;
    out.push_str("  ");
    push_escaped(out, &gpu.card);
    out.push(' ');
    out.push_str(gpu.driver.name());
    if !gpu.model.is_empty() {
        out.push(' ');
        push_escaped(out, &gpu.model);
    }
    out.push_str("  ");
    match r.busy_percent.known() {
        Some(p) => write_percent(out, p),
        None => out.push('–'),
    }
    write_value(out, " · ", r.mhz, "", number(0));
    write_value(out, " / ", r.max_mhz, "", number(0));
    if !(r.mhz.is_absent() && r.max_mhz.is_absent()) {
        out.push_str(" MHz");
    }
    write_value(out, " · ", r.celsius, "°C", number(0));
    write_value(out, " · VRAM ", r.vram_used, "", |o, b| {
        write_bytes(o, b as f64)
    });
    write_value(out, " / ", r.vram_total, "", |o, b| {
        write_bytes(o, b as f64)
    });
    match r.throttle {
        Value::Known(t) if !t.is_empty() => {
            out.push_str(" · <b>throttled</b>");
            t.names().for_each(|name| {
                out.push(' ');
                out.push_str(name);
            });
        }
        Value::Failed => out.push_str(" · throttle –"),
        _ => {}
    }
    out.push('\n');
}

/// `Pressure  cpu 1.2% · mem 0.0% full 0.0% · io 3.1% full 1.0%`, where PSI exists.
fn write_pressure_line(out: &mut String, pressure: &Pressure) {
    let resources = pressure.resources();
    if resources.iter().all(|(_, stall)| stall.is_absent()) {
        return;
    }
    out.push_str("<b>Pressure</b>  ");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hardware::CpuReading;
    use crate::model::process::tests::{comm, thread};
    use crate::model::snapshot::Model;
    use crate::model::system::Memory;

    #[test]
    fn escapes_text() {
        let mut out = String::new();
        push_escaped(&mut out, "a<b>&'\"c");
        assert_eq!(out, "a&lt;b&gt;&amp;&#39;&quot;c");
    }

    #[test]
    fn tooltip_golden_markup_with_hostile_names() {
        let mut m = Model::new(4096, 2);
        let mut spin = thread(100, 100, 0, 0);
        spin.comm = comm("<b>&amp;");
        let mut bad = thread(200, 200, 1, 0);
        bad.comm[..5].copy_from_slice(b"x\xffy\"'");
        bad.rss_pages = 256;
        let mut zombie = thread(300, 300, 6, 0);
        zombie.comm = comm("z(1) </span>");
        m.update(1_000_000_000, &[spin, bad, zombie], &[], None, None);
        m.update(1_500_000_000, &[spin, bad, zombie], &[], None, None);
        spin.cpu_ns = 250_000_000;
        bad.read_bytes = 1024 * 1024;
        bad.write_bytes = 512 * 1024;
        let memory = Memory {
            total: 8 << 30,
            available: 6 << 30,
            swap_total: 1 << 30,
            swap_free: 1 << 29,
        };
        m.update(2_000_000_000, &[spin, bad, zombie], &[], Some(memory), None);
        m.rank(false);
        let mut out = String::new();
        let notices = [Notice {
            title: "config",
            detail: "c.toml:2: `a = <1>`: bad",
        }];
        let hw = Hardware {
            cpu: CpuReading {
                celsius: Value::Known(61.25),
                average_mhz: Value::Known(2000.0),
                highest_mhz: Value::Known(3000.0),
                hardware_max_mhz: Some(4700.0),
            },
            ..Hardware::default()
        };
        write_tooltip(&mut out, m.snapshot(), &hw, 1000, &notices);
        assert_eq!(
            out,
            "<b>⚠ config</b>  c.toml:2: `a = &lt;1&gt;`: bad\n\
             <b>CPU</b>  25.0% of 2 CPUs · 61.2°C · 2000 MHz avg, 3000 max of 4700\n\
             \x20 <b>      Z</b>  z(1) &lt;/span&gt;\n\
             \x20   50.0%  &lt;b&gt;&amp;amp;\n\
             <b>Memory</b>  2.0G / 8.0G · swap 512M / 1.0G\n\
             \x20    1.0M  x\u{fffd}y&quot;&#39;\n\
             <b>IO</b>  read 2.0M/s · write 1.0M/s\n\
             \x20 r   2.0M/s  w   1.0M/s  x\u{fffd}y&quot;&#39;\n\
             <small>sampled in 0 µs · every 1000 ms · kernel threads excluded</small>"
        );
    }
}
