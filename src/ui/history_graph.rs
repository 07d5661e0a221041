//! The history in the bar's tooltip: a small graph per section (CPU, memory, IO, GPU)
//! drawn with cairo under the report, each with a caption naming its peak, its time and
//! its culprit (`peak 97.0% at 14:02:11, cargo`).
//!
//! Themable: a graph is a GtkDrawingArea with the classes `history-graph` and its metric
//! (`cpu`, `memory`, `io`, `gpu`) and is drawn in its CSS `color`; the caption has the
//! class `history-caption`, the whole box `history`.

use std::cell::RefCell;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::cairo;
use gtk4::prelude::*;

use crate::model::history::{Metric, SECONDS};
use crate::render::history::{scale_top, write_peak, write_span};
use crate::sample::Sample;
use crate::text::Plain;

/// Columns per graph: 5 s each over ten minutes.
pub(super) const COLUMNS: usize = 120;
const WIDTH: i32 = 240;
const HEIGHT: i32 = 28;

/// What a graph draws: the columns, their scale and where the peak is.
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    pub values: [Option<f32>; COLUMNS],
    pub used: usize,
    pub top: f32,
    pub peak: Option<usize>,
}

impl Columns {
    /// For the test hook: the columns' heights in eighths (`0`–`8`, `_` for a gap).
    #[cfg(feature = "test-support")]
    pub fn heights(&self) -> String {
        self.values[..self.used]
            .iter()
            .map(|v| match v {
                None => '_',
                Some(v) => {
                    let eighths = (v / self.top * 8.0).round().clamp(0.0, 8.0) as u32;
                    char::from_digit(eighths, 10).unwrap_or('?')
                }
            })
            .collect()
    }
}

impl Default for Columns {
    fn default() -> Self {
        Columns {
            values: [None; COLUMNS],
            used: 0,
            top: 100.0,
            peak: None,
        }
    }
}

struct Graph {
    metric: Metric,
    row: gtk::Box,
    area: gtk::DrawingArea,
    caption: gtk::Label,
    /// The caption's text, so an unchanged one is not set again.
    caption_text: RefCell<String>,
    columns: Rc<RefCell<Columns>>,
}

pub struct HistoryGraphs {
    pub widget: gtk::Box,
    graphs: Vec<Graph>,
}

fn title(metric: Metric) -> &'static str {
    match metric {
        Metric::Cpu => "CPU",
        Metric::Memory => "Memory",
        Metric::Io => "IO",
        Metric::Net => "Network",
        Metric::Gpu => "GPU",
    }
}

impl HistoryGraphs {
    pub fn new() -> HistoryGraphs {
        let widget = gtk::Box::new(gtk::Orientation::Vertical, 2);
        widget.add_css_class("history");
        let graphs = Metric::ALL
            .into_iter()
            .map(|metric| {
                let row = gtk::Box::new(gtk::Orientation::Vertical, 0);
                let caption = gtk::Label::new(None);
                caption.set_xalign(0.0);
                caption.add_css_class("history-caption");
                let area = gtk::DrawingArea::new();
                area.set_content_width(WIDTH);
                area.set_content_height(HEIGHT);
                area.add_css_class("history-graph");
                area.add_css_class(metric.name());
                let columns = Rc::new(RefCell::new(Columns::default()));
                let data = columns.clone();
                area.set_draw_func(move |area, cr, width, height| {
                    let color = area.style_context().color();
                    draw(cr, &data.borrow(), color, width, height);
                });
                row.append(&caption);
                row.append(&area);
                row.set_visible(false);
                widget.append(&row);
                Graph {
                    metric,
                    row,
                    area,
                    caption,
                    caption_text: RefCell::new(String::new()),
                    columns,
                }
            })
            .collect();
        HistoryGraphs { widget, graphs }
    }

    /// Shows the history of `sample`; a graph without values is hidden. `scratch` is a
    /// reused buffer.
    pub fn update(&self, sample: &Sample, scratch: &mut String) {
        let history = &sample.history;
        for graph in &self.graphs {
            let shown = history.has_values(graph.metric);
            if graph.row.is_visible() != shown {
                graph.row.set_visible(shown);
            }
            if !shown {
                continue;
            }
            {
                let mut columns = graph.columns.borrow_mut();
                let (used, span_s) =
                    history.downsample(graph.metric, SECONDS as u64, &mut columns.values);
                columns.used = used;
                columns.top = scale_top(graph.metric, &columns.values[..used]);
                let peak = history.peak(graph.metric);
                columns.peak = match (peak, history.oldest()) {
                    (Some(peak), Some(oldest)) if span_s > 0 => Some(
                        (((peak.unix_s - oldest) * used as u64 / span_s) as usize)
                            .min(used.saturating_sub(1)),
                    ),
                    _ => None,
                };
                scratch.clear();
                scratch.push_str(title(graph.metric));
                scratch.push_str("  last ");
                write_span(scratch, span_s);
                if let Some(peak) = &peak {
                    scratch.push_str(" · ");
                    write_peak(&mut Plain(scratch), history, graph.metric, peak);
                }
            }
            if *graph.caption_text.borrow() != *scratch {
                // Plain text: the culprit's name is never parsed as markup.
                graph.caption.set_text(scratch);
                graph.caption_text.replace(scratch.clone());
            }
            graph.area.queue_draw();
        }
    }

    /// For the test hook: per shown graph, `metric used=N top=… peak=COLUMN caption=…`,
    /// then the columns' heights in eighths (`0`–`8`, `_` for a gap), one line each.
    #[cfg(feature = "test-support")]
    pub fn describe(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for graph in self.graphs.iter().filter(|g| g.row.is_visible()) {
            let c = graph.columns.borrow();
            let _ = writeln!(
                out,
                "{} used={} top={} peak={} drawn={}x{} caption={}\n{}",
                graph.metric.name(),
                c.used,
                c.top,
                c.peak.map_or(-1, |p| p as i64),
                graph.area.width(),
                graph.area.height(),
                graph.caption.text(),
                c.heights()
            );
        }
        out
    }
}

/// The graph: the area under the line filled faintly, the line, and a dot on the peak.
/// A gap breaks the line.
pub(super) fn draw(
    cr: &cairo::Context,
    columns: &Columns,
    color: gtk::gdk::RGBA,
    width: i32,
    height: i32,
) {
    if columns.used == 0 || columns.top <= 0.0 {
        return;
    }
    let (w, h) = (f64::from(width), f64::from(height));
    let step = w / columns.used as f64;
    let x = |i: usize| (i as f64 + 0.5) * step;
    // On a pixel row's centre: a level run (a core busy at 100 %) is a crisp line, the
    // top one included, not a blur across two rows.
    let y = |v: f32| {
        let share = f64::from(v / columns.top).clamp(0.0, 1.0);
        ((h - 1.0) * (1.0 - share)).floor() + 0.5
    };
    let (r, g, b, a) = (
        f64::from(color.red()),
        f64::from(color.green()),
        f64::from(color.blue()),
        f64::from(color.alpha()),
    );
    let values = &columns.values[..columns.used];
    // Runs of values between gaps, each filled then stroked.
    let mut start = 0;
    while start < values.len() {
        if values[start].is_none() {
            start += 1;
            continue;
        }
        let end = values[start..]
            .iter()
            .position(Option::is_none)
            .map_or(values.len(), |n| start + n);
        let run = &values[start..end];
        cr.move_to(x(start) - step / 2.0, h);
        for (i, v) in run.iter().enumerate() {
            cr.line_to(x(start + i), y(v.unwrap_or(0.0)));
        }
        cr.line_to(x(end - 1) + step / 2.0, h);
        cr.close_path();
        cr.set_source_rgba(r, g, b, a * 0.3);
        let _ = cr.fill();
        for (i, v) in run.iter().enumerate() {
            cr.line_to(x(start + i), y(v.unwrap_or(0.0)));
        }
        cr.set_source_rgba(r, g, b, a);
        cr.set_line_width(1.5);
        let _ = cr.stroke();
        start = end;
    }
    let peak = columns
        .peak
        .and_then(|p| values.get(p).copied().flatten().map(|v| (p, v)));
    if let Some((column, value)) = peak {
        cr.arc(x(column), y(value), 2.5, 0.0, std::f64::consts::TAU);
        cr.set_source_rgba(r, g, b, a);
        let _ = cr.fill();
    }
}
