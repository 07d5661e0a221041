//! One module on one bar: its label, its tooltip label and what they show, so that an
//! unchanged tick touches no widget.

use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;

use super::bar_graph::BarGraphView;
use super::clip_bin::ClipBin;
use super::history_graph::HistoryGraphs;
use super::image_view::ImageView;
use super::label_row::LabelRowView;
use super::picture_label::PictureLabel;
use super::rotate_bin::RotateBin;
use super::row_view::RowView;
use crate::config::label_shape::LabelShape;
use crate::config::Rotate;
use crate::modules::{Input, Module, RowButton, RowLabel, Widget};
use crate::render::history::GraphedMarkup;
use crate::text::Markup;

pub struct Slot {
    pub module: Rc<dyn Module>,
    pub label: gtk::Label,
    /// Instead of the label, for a module of workspace buttons.
    pub row: Option<RowView>,
    /// Instead of the label, for a module of labels (the label, off the bar, keeps the
    /// text, the classes and the visibility).
    pub labels: Option<LabelRowView>,
    /// Instead of the label, for the tray: its icons, drawn by the tray host.
    pub tray: Option<gtk::Box>,
    /// Around the label, for a graph module: the graph drawn over it.
    pub bar_graph: Option<BarGraphView>,
    /// Around the label, for a script module: its markup never makes the bar taller.
    clip: Option<ClipBin>,
    /// Instead of the label, for an `image`: the picture of the file its text names
    /// (the label, off the bar, keeps the text, the classes and the visibility).
    image: Option<ImageView>,
    /// Around the label, for a module with a picture before its label.
    pub picture_label: Option<PictureLabel>,
    /// Around all of the above, where `rotate` turns the module's text.
    rotated: Option<RotateBin>,
    /// Reused for the row's buttons, and its labels.
    buttons: Vec<RowButton>,
    row_labels: Vec<RowLabel>,
    /// The tooltip's content; mapped exactly while the tooltip is on screen.
    pub tooltip: gtk::Label,
    /// The history's graphs under the tooltip's text, for the monitor modules.
    pub graphs: Option<HistoryGraphs>,
    /// What the tooltip shows: the label, or a box of the label and the graphs.
    pub tooltip_widget: gtk::Widget,
    text: String,
    /// The classes the status added (see `Status::css_classes`).
    classes: Vec<String>,
}

impl Slot {
    /// The slot of `module`; `row` makes the row of a module of buttons.
    pub fn new(module: Rc<dyn Module>, row: &dyn Fn(&Rc<dyn Module>) -> RowView) -> Slot {
        let label = gtk::Label::new(None);
        label.add_css_class("module");
        label.add_css_class(module.css_class());
        // Waybar's selectors work too: `#clock`, `#battery.bat2`.
        label.set_widget_name(module.css_class());
        if let Some(id) = module.instance_class() {
            label.add_css_class(id);
        }
        label.set_visible(false);
        label.set_has_tooltip(true);
        let builder = gtk::Builder::from_resource("/dev/ringbar/tooltip.ui");
        let tooltip: gtk::Label = builder
            .object("tooltip")
            .unwrap_or_else(|| unreachable!("ui/tooltip.ui defines `tooltip`"));
        let graphs = module.history_graphs().then(HistoryGraphs::new);
        let tooltip_widget = match &graphs {
            None => tooltip.clone().upcast(),
            Some(graphs) => {
                let content = gtk::Box::new(gtk::Orientation::Vertical, 4);
                content.append(&tooltip);
                content.append(&graphs.widget);
                content.upcast()
            }
        };
        let (mut row_made, mut tray, mut bar_graph, mut clip) = (None, None, None, None);
        let (mut image, mut labels, mut picture_label) = (None, None, None);
        match module.widget() {
            Widget::Label => {}
            Widget::Buttons(_) => row_made = Some(row(&module)),
            Widget::Labels(_) => labels = Some(LabelRowView::new(module.css_class())),
            Widget::Tray(_) => {
                let tray_box = gtk::Box::new(gtk::Orientation::Horizontal, 0);
                tray_box.add_css_class("module");
                tray_box.add_css_class("tray");
                tray_box.set_widget_name("tray");
                tray = Some(tray_box);
            }
            Widget::Graph(graph) => bar_graph = Some(BarGraphView::new(&label, *graph)),
            Widget::Script(_) => {
                let bin = ClipBin::new(&label);
                bin.set_visible(false);
                clip = Some(bin);
            }
            Widget::Image { size, .. } => image = Some(ImageView::new(module.css_class(), size)),
            Widget::PictureAndLabel(picture) => {
                let view = PictureLabel::new(&label, module.css_class(), &picture);
                if let Some(id) = module.instance_class() {
                    view.widget.add_css_class(id);
                }
                picture_label = Some(view);
            }
        }
        let row = row_made;
        Slot {
            module,
            label,
            row,
            labels,
            tray,
            bar_graph,
            clip,
            image,
            picture_label,
            rotated: None,
            buttons: Vec::new(),
            row_labels: Vec::new(),
            tooltip,
            graphs,
            tooltip_widget,
            text: String::new(),
            classes: Vec::new(),
        }
    }

    /// For a left or right bar: rows of buttons and the tray's icons stacked, and the
    /// label's words wrapped to fit the bar's width, unless its text is turned sideways.
    pub fn set_vertical(&self) {
        if let Some(row) = &self.row {
            row.widget.set_orientation(gtk::Orientation::Vertical);
        }
        if let Some(labels) = &self.labels {
            labels.widget.set_orientation(gtk::Orientation::Vertical);
        }
        if let Some(tray) = &self.tray {
            tray.set_orientation(gtk::Orientation::Vertical);
        }
        if self.rotated.as_ref().is_some_and(RotateBin::is_sideways) {
            return;
        }
        self.label.set_wrap(true);
        self.label.set_wrap_mode(gtk::pango::WrapMode::WordChar);
        self.label.set_justify(gtk::Justification::Center);
        // Its natural width one character: the bar's width decides where it wraps.
        self.label.set_max_width_chars(1);
    }

    /// Sizes the module's label as `max-length`, `min-length` and `align` say (a label's
    /// text only; on a left or right bar its words wrap instead of being cut), takes its
    /// tooltip away for `tooltip = false`, shapes the pointer over it (`cursor`), and
    /// pads the tooltip's text (`tooltip-padding`).
    pub fn shape(&self, shape: LabelShape, vertical: bool) {
        if let (Some(max), false) = (shape.max_chars, vertical) {
            self.label.set_max_width_chars(i32::from(max));
            self.label.set_ellipsize(gtk::pango::EllipsizeMode::End);
        }
        if let Some(min) = shape.min_chars {
            self.label.set_width_chars(i32::from(min));
        }
        if let Some(align) = shape.align {
            self.label.set_xalign(align);
        }
        if shape.tooltip == Some(false) {
            self.target().set_has_tooltip(false);
        }
        if let Some(name) = &shape.cursor {
            self.target().set_cursor_from_name(Some(name));
        }
        if let Some(padding) = shape.tooltip_padding.map(i32::from) {
            self.tooltip.set_margin_top(padding);
            self.tooltip.set_margin_bottom(padding);
            self.tooltip.set_margin_start(padding);
            self.tooltip.set_margin_end(padding);
        }
    }

    /// Turns the module's text as `rotate` says (not a row of buttons, not the tray);
    /// before the widget is placed on the bar.
    pub fn turn(&mut self, rotate: Rotate) {
        let text = self.row.is_none() && self.tray.is_none() && self.image.is_none();
        let text = text && self.labels.is_none();
        if rotate == Rotate::None || !text {
            return;
        }
        let bin = RotateBin::new(&self.widget(), rotate);
        bin.set_visible(self.label.is_visible());
        self.rotated = Some(bin);
    }

    /// The widget on the bar: the label, the row of buttons, or the tray's box.
    pub fn widget(&self) -> gtk::Widget {
        if let Some(bin) = &self.rotated {
            return bin.clone().upcast();
        }
        if let Some(graph) = &self.bar_graph {
            return graph.widget.clone().upcast();
        }
        if let Some(clip) = &self.clip {
            return clip.clone().upcast();
        }
        if let Some(image) = &self.image {
            return image.widget.clone().upcast();
        }
        if let Some(labels) = &self.labels {
            return labels.widget.clone().upcast();
        }
        if let Some(view) = &self.picture_label {
            return view.widget.clone().upcast();
        }
        match (&self.row, &self.tray) {
            (Some(row), _) => row.widget.clone().upcast(),
            (None, Some(tray)) => tray.clone().upcast(),
            (None, None) => self.label.clone().upcast(),
        }
    }

    /// The widget that takes the module's clicks and shows its tooltip: the picture of
    /// an `image`, the row of a module of labels, the box of a picture and the label,
    /// else the label.
    pub fn target(&self) -> gtk::Widget {
        if let Some(view) = &self.picture_label {
            return view.widget.clone().upcast();
        }
        match (&self.image, &self.labels) {
            (Some(image), _) => image.widget.clone().upcast(),
            (None, Some(labels)) => labels.widget.clone().upcast(),
            (None, None) => self.label.clone().upcast(),
        }
    }

    /// Shows the module's text for `input`, or hides it. `scratch` is a reused buffer.
    pub fn render(&mut self, input: &Input<'_>, scratch: &mut String) {
        if let (Some(row), Widget::Buttons(buttons)) = (&mut self.row, self.module.widget()) {
            buttons.buttons(input, &mut self.buttons);
            row.show(&self.buttons);
            return;
        }
        if let Some(graph) = &self.bar_graph {
            // The graph stands for the text: the label stays empty under it.
            if !self.label.is_visible() {
                self.show(true);
            }
            graph.update(input.sample);
            return;
        }
        scratch.clear();
        let status = self.module.text(input, scratch);
        let visible = status.is_some();
        if self.label.is_visible() != visible {
            self.show(visible);
        }
        let Some(status) = status else {
            return;
        };
        if let Some(image) = &self.image {
            // Looked at on each update: the file may change under the same name.
            image.show_file(scratch);
        }
        if let (Some(view), Some(icon)) = (&self.picture_label, &status.icon) {
            view.show_icon(icon);
        }
        if let (Some(view), Widget::Labels(row)) = (&mut self.labels, self.module.widget()) {
            row.labels(input, &mut self.row_labels);
            view.show(&self.row_labels);
        }
        if self.text != *scratch {
            if status.markup {
                // A script's text, checked to be markup Pango takes.
                self.label.set_markup(scratch);
            } else {
                self.label.set_text(scratch);
            }
            self.text.clear();
            self.text.push_str(scratch);
            if let Some(command) = self.module.on_update() {
                crate::events::script::runner::run_detached(self.module.name(), command);
            }
        }
        // Changed only when they differ: a steady tick allocates nothing.
        if !self
            .classes
            .iter()
            .map(String::as_str)
            .eq(status.css_classes())
        {
            // The widget on the bar in the label's place (a picture, a row of labels)
            // wears them too; where that is the label, twice is once.
            let target = self.target();
            for class in &self.classes {
                self.label.remove_css_class(class);
                target.remove_css_class(class);
            }
            self.classes.clear();
            for class in status.css_classes() {
                self.label.add_css_class(class);
                target.add_css_class(class);
                self.classes.push(class.to_owned());
            }
        }
    }

    /// Shows or hides the label and what holds it on the bar.
    fn show(&self, visible: bool) {
        self.label.set_visible(visible);
        if let Some(clip) = &self.clip {
            clip.set_visible(visible);
        }
        if let Some(bin) = &self.rotated {
            bin.set_visible(visible);
        }
        if let Some(image) = &self.image {
            image.widget.set_visible(visible);
        }
        if let Some(labels) = &self.labels {
            labels.widget.set_visible(visible);
        }
        if let Some(view) = &self.picture_label {
            view.widget.set_visible(visible);
        }
    }

    /// Rebuilds the tooltip's markup for `input`, and its graphs (which take the place
    /// of the text's sparklines). `scratch` is a reused buffer.
    pub fn fill_tooltip(&self, input: &Input<'_>, scratch: &mut String) {
        scratch.clear();
        if self.graphs.is_some() {
            self.module.tooltip(&mut GraphedMarkup(scratch), input);
        } else {
            self.module.tooltip(&mut Markup(scratch), input);
        }
        if self.tooltip.label() != scratch.as_str() {
            self.tooltip.set_markup(scratch);
        }
        if let Some(graphs) = &self.graphs {
            graphs.update(input.sample, scratch);
        }
    }
}
