//! The history in text: a sparkline line closing each section of the report (`--once`,
//! the `--waybar` tooltip), the peak with its time and culprit, and the `"history"` JSON.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::{name, name_string, sparkline, write_percent, write_rate};
use crate::model::history::{History, Metric, Peak, SECONDS};
use crate::sample::Sample;
use crate::text::Sink;

/// Blocks per sparkline: 20 s each over ten minutes.
pub const SPARK_COLUMNS: usize = 30;

/// The lowest top of an IO sparkline, bytes per second: idle disks draw flat.
const IO_FLOOR: f32 = 64.0 * 1024.0;

/// Appends `  ▁▂▃▅▇█  last 10 min · peak 97.0% at 14:02:11, cargo` for `metric`, or
/// nothing while the history has no value of it or the sink draws graphs instead.
pub fn write(sink: &mut dyn Sink, sample: &Sample, metric: Metric) {
    let history = &sample.history;
    if !sink.sparklines() || !history.has_values(metric) {
        return;
    }
    let mut columns = [None; SPARK_COLUMNS];
    let (used, span_s) = history.downsample(metric, SECONDS as u64, &mut columns);
    let columns = &columns[..used];
    let out = sink.out();
    out.push_str("  ");
    sparkline::write(out, columns, scale_top(metric, columns));
    out.push_str("  last ");
    write_span(out, span_s);
    if let Some(peak) = history.peak(metric) {
        out.push_str(" · ");
        write_peak(sink, history, metric, &peak);
    }
    sink.out().push('\n');
}

/// The top of `metric`'s scale: 100 for shares, the highest value for rates.
pub fn scale_top(metric: Metric, columns: &[Option<f32>]) -> f32 {
    if metric.is_percent() {
        100.0
    } else {
        sparkline::top(columns, IO_FLOOR)
    }
}

/// `10 min`, `45 s`, `2 min 5 s`.
pub fn write_span(out: &mut String, seconds: u64) {
    let (minutes, seconds) = (seconds / 60, seconds % 60);
    let _ = match (minutes, seconds) {
        (0, s) => write!(out, "{s} s"),
        (m, 0) => write!(out, "{m} min"),
        (m, s) => write!(out, "{m} min {s} s"),
    };
}

/// `peak 97.0% at 14:02:11, cargo`: the value, the local time of its second and the
/// process that used the most of it (left out when there was none, as for the GPU).
pub fn write_peak(sink: &mut dyn Sink, history: &History, metric: Metric, peak: &Peak) {
    let out = sink.out();
    out.push_str("peak ");
    write_value(out, metric, peak.value);
    out.push_str(" at ");
    write_time_of_day(out, peak.unix_s, history.utc_offset_s);
    if !peak.culprit.is_none() {
        sink.out().push_str(", ");
        name(sink, peak.culprit.name.as_bytes());
    }
}

fn write_value(out: &mut String, metric: Metric, value: f32) {
    if metric.is_percent() {
        write_percent(out, f64::from(value));
    } else {
        write_rate(out, f64::from(value));
    }
}

/// `HH:MM:SS` of a Unix second in a zone `utc_offset_s` from UTC.
pub fn write_time_of_day(out: &mut String, unix_s: u64, utc_offset_s: i32) {
    let local = i64::try_from(unix_s).unwrap_or(0) + i64::from(utc_offset_s);
    let of_day = local.rem_euclid(86_400);
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    );
}

/// `"history"`: per metric, a value per second from the oldest sample to the newest
/// (`null` for a gap, at most ten minutes) and the peak with its culprit.
pub fn json(sample: &Sample) -> Json {
    let history = &sample.history;
    let mut object = json!({
        "bucket_ms": 1000,
        "capacity": SECONDS,
        "start_unix_ms": history.oldest().map(|s| s * 1000),
        "end_unix_ms": history.latest().map(|s| s * 1000),
    });
    for metric in Metric::ALL {
        let skip = history.oldest().unwrap_or(0) - history.first_second().unwrap_or(0);
        let values: Vec<Option<f64>> = history
            .values(metric)
            .skip(skip as usize)
            .map(|v| v.map(|v| json_number(metric, v)))
            .collect();
        let peak = history.peak(metric).map(|peak| {
            let mut object = json!({
                "value": json_number(metric, peak.value),
                "time_unix_ms": peak.unix_s * 1000,
            });
            if !peak.culprit.is_none() {
                object["pid"] = json!(peak.culprit.pid);
                object["name"] = json!(name_string(peak.culprit.name.as_bytes()));
            }
            object
        });
        object[metric.name()] = json!({
            "unit": if metric.is_percent() { "percent" } else { "bytes_per_second" },
            "values": values,
            "peak": peak,
        });
    }
    object
}

/// Two decimals for shares, whole bytes for rates: an f32 widened prints its noise.
fn json_number(metric: Metric, value: f32) -> f64 {
    if metric.is_percent() {
        (f64::from(value) * 100.0).round() / 100.0
    } else {
        f64::from(value).round()
    }
}

/// Pango markup without the sparklines: for the bar's tooltip, which draws the history
/// as graphs.
pub struct GraphedMarkup<'a>(pub &'a mut String);

impl Sink for GraphedMarkup<'_> {
    fn out(&mut self) -> &mut String {
        self.0
    }

    fn untrusted_char(&mut self, c: char) {
        crate::text::push_escaped_char(self.0, c);
    }

    fn bold(&mut self, on: bool) {
        crate::text::Markup(self.0).bold(on);
    }

    fn small(&mut self, on: bool) {
        crate::text::Markup(self.0).small(on);
    }

    fn sparklines(&self) -> bool {
        false
    }

    fn checked_markup(&mut self, markup: &str) {
        crate::text::Markup(self.0).checked_markup(markup);
    }

    fn gap(&mut self, pixels: u16) {
        crate::text::Markup(self.0).gap(pixels);
    }
}

#[cfg(test)]
mod tests;
