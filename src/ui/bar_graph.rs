//! A graph module's widget (`cpu_graph`, `memory_graph`): the module's label, kept empty
//! and as wide as the graph so that its clicks and tooltip work as on any module, under a
//! GtkDrawingArea that draws the last seconds of the history in its CSS `color` (classes
//! `bar-graph` and the metric, `cpu` or `memory`).

use std::cell::RefCell;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;

use super::history_graph::{draw, Columns, COLUMNS};
use crate::modules::BarGraph;
use crate::render::history::scale_top;
use crate::sample::Sample;

pub struct BarGraphView {
    pub widget: gtk::Overlay,
    area: gtk::DrawingArea,
    graph: BarGraph,
    columns: Rc<RefCell<Columns>>,
}

impl BarGraphView {
    /// Wraps the module's `label`, which takes the clicks and the tooltip.
    pub fn new(label: &gtk::Label, graph: BarGraph) -> BarGraphView {
        let width = graph.settings.width as i32;
        label.set_size_request(width, -1);
        let area = gtk::DrawingArea::new();
        area.add_css_class("bar-graph");
        area.add_css_class(graph.metric.name());
        // The label under it takes the pointer.
        area.set_can_target(false);
        let columns = Rc::new(RefCell::new(Columns::default()));
        let data = columns.clone();
        area.set_draw_func(move |area, cr, width, height| {
            let color = area.style_context().color();
            draw(cr, &data.borrow(), color, width, height);
        });
        let widget = gtk::Overlay::new();
        widget.set_child(Some(label));
        widget.add_overlay(&area);
        BarGraphView {
            widget,
            area,
            graph,
            columns,
        }
    }

    /// Draws the history of `sample`: a column per two pixels, at most [`COLUMNS`].
    pub fn update(&self, sample: &Sample) {
        let mut columns = self.columns.borrow_mut();
        let wanted = (self.graph.settings.width as usize / 2).clamp(1, COLUMNS);
        let within = u64::from(self.graph.settings.seconds);
        let metric = self.graph.metric;
        let (used, _) = sample
            .history
            .downsample(metric, within, &mut columns.values[..wanted]);
        columns.used = used;
        columns.top = scale_top(metric, &columns.values[..used]);
        columns.peak = None;
        drop(columns);
        self.area.queue_draw();
    }

    /// For the test hook: `used=N drawn=WxH`, then the columns' heights in eighths.
    #[cfg(feature = "test-support")]
    pub fn describe(&self) -> String {
        let c = self.columns.borrow();
        format!(
            "used={} drawn={}x{} heights={}",
            c.used,
            self.area.width(),
            self.area.height(),
            c.heights()
        )
    }
}
