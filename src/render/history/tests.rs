use super::*;
use crate::model::history::{Culprit, Point};
use crate::text::{Markup, Plain};

const S: u64 = 1_000_000_000;
/// 2026-11-23 14:00:00 UTC, in ms.
const T0: u64 = 1_795_442_400_000;

fn culprit(pid: u32, name: &[u8]) -> Culprit {
    Culprit {
        pid,
        name: crate::model::app::Label::new(name),
    }
}

/// A sample whose history has `cpu` per second and a peak by `<cargo>`.
fn sample(cpu: &[f32]) -> Sample {
    let mut sample = Sample::default();
    for (i, &value) in cpu.iter().enumerate() {
        let mut point = Point::empty();
        point.values[0] = value;
        point.culprits[0] = culprit(4242, if value >= 90.0 { b"<cargo>" } else { b"sh" });
        point.values[2] = value * 1024.0 * 1024.0;
        point.culprits[2] = point.culprits[0];
        sample.history.record(T0 + 1000 * i as u64, S, &point);
    }
    sample.history.utc_offset_s = 3600;
    sample
}

fn plain(sample: &Sample, metric: Metric) -> String {
    let mut out = String::new();
    write(&mut Plain(&mut out), sample, metric);
    out
}

#[test]
fn a_sparkline_line_with_the_peak_its_local_time_and_culprit() {
    let sample = sample(&[0.0, 50.0, 97.0, 25.0]);
    assert_eq!(
        plain(&sample, Metric::Cpu),
        "  ▁▄█▂  last 4 s · peak 97.0% at 15:00:02, <cargo>\n"
    );
    let mut markup = String::new();
    write(&mut Markup(&mut markup), &sample, Metric::Cpu);
    assert!(markup.ends_with(", &lt;cargo&gt;\n"), "{markup}");
    // IO scales to its own highest value and shows a rate; no memory or GPU values.
    assert_eq!(
        plain(&sample, Metric::Io),
        "  ▁▅█▃  last 4 s · peak 97M/s at 15:00:02, <cargo>\n"
    );
    assert_eq!(plain(&sample, Metric::Memory), "");
    assert_eq!(plain(&sample, Metric::Gpu), "");
}

#[test]
fn ten_minutes_fit_in_thirty_blocks_and_the_graphed_tooltip_has_none() {
    let values: Vec<f32> = (0..900)
        .map(|i| if i == 700 { 99.0 } else { 10.0 })
        .collect();
    let sample = sample(&values);
    let line = plain(&sample, Metric::Cpu);
    let spark: String = line
        .trim_start()
        .chars()
        .take_while(|c| *c != ' ')
        .collect();
    assert_eq!(spark.chars().count(), SPARK_COLUMNS, "{line}");
    assert_eq!(spark.chars().filter(|&c| c == '█').count(), 1, "{line}");
    assert!(
        line.contains("last 10 min · peak 99.0% at 15:11:40, <cargo>"),
        "{line}"
    );
    let mut graphed = String::new();
    write(&mut GraphedMarkup(&mut graphed), &sample, Metric::Cpu);
    assert_eq!(graphed, "");
}

#[test]
fn an_empty_history_writes_nothing() {
    assert_eq!(plain(&Sample::default(), Metric::Cpu), "");
}

#[test]
fn times_of_day_and_spans() {
    let mut out = String::new();
    write_time_of_day(&mut out, T0 / 1000 + 2 * 3600 + 62, -3 * 3600);
    out.push(' ');
    write_time_of_day(&mut out, 30, -60);
    out.push(' ');
    for span in [45, 600, 125] {
        write_span(&mut out, span);
        out.push('|');
    }
    assert_eq!(out, "13:01:02 23:59:30 45 s|10 min|2 min 5 s|");
}

#[test]
fn json_has_a_value_per_second_and_the_peak_with_its_culprit() {
    let mut sample = sample(&[10.0, 97.0]);
    // A gap of one second, then a third value.
    let mut point = Point::empty();
    point.values[0] = 33.333;
    sample.history.record(T0 + 3000, S, &point);
    let doc = json(&sample);
    assert_eq!(doc["bucket_ms"], 1000);
    assert_eq!(doc["capacity"], 600);
    assert_eq!(doc["start_unix_ms"], T0);
    assert_eq!(doc["end_unix_ms"], T0 + 3000);
    assert_eq!(doc["cpu"]["unit"], "percent");
    assert_eq!(doc["cpu"]["values"], json!([10.0, 97.0, null, 33.33]));
    assert_eq!(
        doc["cpu"]["peak"],
        json!({"value": 97.0, "time_unix_ms": T0 + 1000, "pid": 4242, "name": "<cargo>"})
    );
    assert_eq!(doc["io"]["unit"], "bytes_per_second");
    assert_eq!(doc["io"]["peak"]["value"], 97.0 * 1024.0 * 1024.0);
    assert_eq!(doc["gpu"]["values"], json!([null, null, null, null]));
    assert_eq!(doc["gpu"]["peak"], Json::Null);
    let empty = json(&Sample::default());
    assert_eq!(empty["start_unix_ms"], Json::Null);
    assert_eq!(empty["cpu"]["values"], json!([]));
}
