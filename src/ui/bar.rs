//! One bar: a window (layer-shell on its monitor, or a plain fallback window) holding
//! the three module groups of `ui/bar.ui`, a slot per configured module, and the ⚠ marker.

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, glib};
use gtk4_layer_shell::{Edge, LayerShell};

use std::rc::Rc;

use super::clip_bin::ClipBin;
use super::group_box::GroupBox;
use super::row_view::RowView;
use super::slot::Slot;
use crate::config::{BarSpec, Layer, Position};
use crate::modules::group::Node;
use crate::modules::Module;

pub struct Bar {
    pub window: gtk::Window,
    /// What the window was made with: a reload that keeps it keeps the window.
    frame: Frame,
    /// None for the fallback window.
    pub monitor: Option<gdk::Monitor>,
    /// Which of the config's bars this is.
    pub spec: usize,
    /// Left, centre and right, in the config's order.
    pub slots: Vec<Slot>,
    pub notice: gtk::Label,
    /// The ⚠ marker's tooltip: the monitor's report, the notices on top.
    pub notice_tooltip: gtk::Label,
}

/// How long a hidden window is kept for the compositor to release its buffers: it does so
/// at its next frame.
const RELEASE_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// The settings of a bar that its window is made with (the rest is its content).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    position: Position,
    layer: Layer,
    height: u32,
    width: u32,
    margins: [u32; 4],
}

impl Frame {
    fn of(spec: &BarSpec) -> Frame {
        Frame {
            position: spec.position,
            layer: spec.layer,
            height: spec.height,
            width: spec.width,
            margins: [
                spec.margin_top,
                spec.margin_bottom,
                spec.margin_left,
                spec.margin_right,
            ],
        }
    }
}

/// A bar's content: the three module groups and the ⚠ marker.
struct Content {
    root: gtk::CenterBox,
    slots: Vec<Slot>,
    notice: gtk::Label,
    notice_tooltip: gtk::Label,
}

fn object<T: IsA<glib::Object>>(builder: &gtk::Builder, id: &str) -> T {
    // The ids are those of ui/bar.ui, bundled at build time: a mismatch is a build defect.
    builder
        .object(id)
        .unwrap_or_else(|| panic!("ui definition lacks object `{id}`"))
}

/// The bar's content in a box that cuts it off at the output's edge rather than grow the
/// window past it.
fn along_the_bar(root: &gtk::CenterBox, spec: &BarSpec) -> ClipBin {
    let axis = match spec.vertical() {
        true => gtk::Orientation::Vertical,
        false => gtk::Orientation::Horizontal,
    };
    ClipBin::along(root, axis)
}

/// `row` makes the button row of a workspaces module.
fn content(spec: &BarSpec, row: &dyn Fn(&Rc<dyn Module>) -> RowView) -> Content {
    let builder = gtk::Builder::from_resource("/dev/ringbar/bar.ui");
    let root: gtk::CenterBox = object(&builder, "bar");
    let notice: gtk::Label = object(&builder, "notice");
    let layout = &spec.modules;
    let vertical = spec.vertical();
    let mut slots = Vec::new();
    for (index, (part, side)) in [
        (&layout.left, "left"),
        (&layout.center, "center"),
        (&layout.right, "right"),
    ]
    .into_iter()
    .enumerate()
    {
        let side: gtk::Box = object(&builder, side);
        side.set_spacing(spec.spacing.min(i32::MAX as u32) as i32);
        if vertical {
            side.set_orientation(gtk::Orientation::Vertical);
        }
        let nodes = match &layout.arranged[index] {
            nodes if nodes.is_empty() => (0..part.len()).map(Node::Module).collect(),
            nodes => nodes.clone(),
        };
        let mut builder = PartBuilder {
            spec,
            row,
            part,
            slots: &mut slots,
        };
        builder.entries(&nodes, vertical, &mut |widget| side.append(widget));
    }
    if vertical {
        root.set_orientation(gtk::Orientation::Vertical);
        root.add_css_class("vertical");
        root.set_size_request(spec.width as i32, -1);
    } else {
        root.set_size_request(-1, spec.height as i32);
    }
    notice.set_has_tooltip(true);
    let notice_tooltip = object(
        &gtk::Builder::from_resource("/dev/ringbar/tooltip.ui"),
        "tooltip",
    );
    Content {
        root,
        slots,
        notice,
        notice_tooltip,
    }
}

/// What a part of the bar's entries are made with, and the slots made so far.
struct PartBuilder<'a> {
    spec: &'a BarSpec,
    row: &'a dyn Fn(&Rc<dyn Module>) -> RowView,
    part: &'a [Rc<dyn Module>],
    slots: &'a mut Vec<Slot>,
}

impl PartBuilder<'_> {
    /// Each entry's widget, to `place`: a module's slot, or a group's box with its
    /// entries; `vertical` is how the box they go in is laid out.
    fn entries(&mut self, nodes: &[Node], vertical: bool, place: &mut dyn FnMut(&gtk::Widget)) {
        for node in nodes {
            match node {
                Node::Module(index) => {
                    let Some(module) = self.part.get(*index) else {
                        continue;
                    };
                    let mut slot = Slot::new(module.clone(), self.row);
                    slot.turn(self.spec.rotate_of(module.name()));
                    if self.spec.vertical() {
                        slot.set_vertical();
                    }
                    slot.shape(self.spec.shape_of(module.name()), self.spec.vertical());
                    place(&slot.widget());
                    self.slots.push(slot);
                }
                Node::Group(group, members) => {
                    let mut boxed = GroupBox::new(group, vertical);
                    self.entries(members, boxed.vertical(), &mut |w| boxed.append(w));
                    place(&boxed.widget());
                }
            }
        }
    }
}

/// Whether the config's bar `spec` goes on `monitor`; a bar for some outputs waits for
/// a new output's name.
pub(super) fn wants(spec: &BarSpec, monitor: &gdk::Monitor) -> bool {
    match monitor.connector() {
        Some(name) => spec.output.matches(&name),
        None => spec.output.is_everywhere(),
    }
}

impl Bar {
    fn build(spec: &BarSpec, row: &dyn Fn(&Rc<dyn Module>) -> RowView) -> Bar {
        let content = content(spec, row);
        let window = gtk::Window::new();
        window.add_css_class("ringbar-window");
        window.set_widget_name("ringbar");
        window.set_decorated(false);
        window.set_child(Some(&along_the_bar(&content.root, spec)));
        Bar {
            window,
            frame: Frame::of(spec),
            monitor: None,
            spec: 0,
            slots: content.slots,
            notice: content.notice,
            notice_tooltip: content.notice_tooltip,
        }
    }

    /// Whether this bar's window can show `spec` (only its content differs).
    pub fn fits(&self, spec: &BarSpec) -> bool {
        self.frame == Frame::of(spec)
    }

    /// New content for `spec` in the same window: a reload destroys no window it can keep
    /// (GDK keeps each destroyed window's last buffer that the compositor still held).
    /// The window is hidden meanwhile (shown again by `present`): that ends what the old
    /// content had under way (a pressed button, an open menu) as GTK expects.
    pub fn refill(&mut self, spec: &BarSpec, row: &dyn Fn(&Rc<dyn Module>) -> RowView) {
        let content = content(spec, row);
        self.window.set_visible(false);
        self.window
            .set_child(Some(&along_the_bar(&content.root, spec)));
        self.slots = content.slots;
        self.notice = content.notice;
        self.notice_tooltip = content.notice_tooltip;
    }

    /// A layer-shell bar on `monitor`: the config's bar number `index`, `spec`.
    pub fn layer(
        spec: &BarSpec,
        index: usize,
        monitor: &gdk::Monitor,
        row: &dyn Fn(&Rc<dyn Module>) -> RowView,
    ) -> Bar {
        let mut bar = Bar::build(spec, row);
        bar.spec = index;
        let config = spec;
        let window = &bar.window;
        window.init_layer_shell();
        window.set_namespace(Some("ringbar"));
        window.set_layer(match config.layer {
            Layer::Background => gtk4_layer_shell::Layer::Background,
            Layer::Bottom => gtk4_layer_shell::Layer::Bottom,
            Layer::Top => gtk4_layer_shell::Layer::Top,
            Layer::Overlay => gtk4_layer_shell::Layer::Overlay,
        });
        let (edge, across) = match config.position {
            Position::Top => (Edge::Top, [Edge::Left, Edge::Right]),
            Position::Bottom => (Edge::Bottom, [Edge::Left, Edge::Right]),
            Position::Left => (Edge::Left, [Edge::Top, Edge::Bottom]),
            Position::Right => (Edge::Right, [Edge::Top, Edge::Bottom]),
        };
        for anchor in [edge, across[0], across[1]] {
            window.set_anchor(anchor, true);
        }
        if config.vertical() {
            window.set_default_size(config.width as i32, -1);
        }
        for (side, margin) in [
            (Edge::Top, config.margin_top),
            (Edge::Bottom, config.margin_bottom),
            (Edge::Left, config.margin_left),
            (Edge::Right, config.margin_right),
        ] {
            window.set_margin(side, margin.min(i32::MAX as u32) as i32);
        }
        window.auto_exclusive_zone_enable();
        window.set_monitor(Some(monitor));
        bar.monitor = Some(monitor.clone());
        bar
    }

    /// A plain undecorated window, for compositors without layer-shell and for X11.
    pub fn fallback(spec: &BarSpec, row: &dyn Fn(&Rc<dyn Module>) -> RowView) -> Bar {
        let bar = Bar::build(spec, row);
        bar.window.set_title(Some("ringbar"));
        match spec.vertical() {
            true => bar.window.set_default_size(spec.width as i32, 600),
            false => bar.window.set_default_size(900, spec.height as i32),
        }
        bar
    }

    /// Takes the bar off the screen and destroys its window once the compositor has let
    /// go of its buffers: GDK forgets a buffer the compositor releases after the window
    /// is gone, and keeps its shared memory (a bar's size) for good.
    pub fn retire(&self) {
        self.window.set_visible(false);
        let window = self.window.clone();
        glib::timeout_add_local_once(RELEASE_TIME, move || {
            window.destroy();
            crate::app::heap::trim_soon();
        });
    }

    /// The output's connector (`HEADLESS-1`), empty for the fallback window.
    pub fn connector(&self) -> String {
        self.monitor
            .as_ref()
            .and_then(|m| m.connector())
            .map(|c| c.to_string())
            .unwrap_or_default()
    }

    /// The output's name (`HEADLESS-1`, `DP-2`), for logs.
    pub fn output_name(&self) -> String {
        match &self.monitor {
            None => "window".to_owned(),
            Some(monitor) => monitor
                .connector()
                .map_or_else(|| "(unnamed output)".to_owned(), |c| c.to_string()),
        }
    }

    /// Shows the ⚠ marker with the notices' titles, or hides it when there are none.
    pub fn set_notice(&self, titles: &[&str]) {
        if titles.is_empty() {
            self.notice.set_visible(false);
        } else {
            self.notice.set_text(&format!("⚠ {}", titles.join(" · ")));
            self.notice.set_visible(true);
        }
    }
}
