//! One bar: a window (layer-shell on its monitor, or a plain fallback window) holding the
//! labels from `ui/bar.ui`, a tooltip label from `ui/tooltip.ui`, and the click gesture.

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, glib};
use gtk4_layer_shell::{Edge, LayerShell};

use crate::config::{Config, LabelKind, Layer, Position};
use crate::model::labels::Level;

/// A label and the text and level it shows, so unchanged ticks touch no widget.
pub struct Slot {
    pub label: gtk::Label,
    text: String,
    level: Level,
    /// Whether the config lists this label at all.
    pub configured: bool,
}

impl Slot {
    fn new(label: gtk::Label, configured: bool) -> Self {
        Slot {
            text: label.label().to_string(),
            label,
            level: Level::Normal,
            configured,
        }
    }

    /// Shows the label (if configured) with `text` and `level`, or hides it for `None`.
    pub fn show_if(&mut self, content: Option<(&str, Level)>) {
        let visible = self.configured && content.is_some();
        if self.label.is_visible() != visible {
            self.label.set_visible(visible);
        }
        if let (true, Some((text, level))) = (visible, content) {
            self.show(text, level);
        }
    }

    /// Sets the label's text and CSS level if they differ from what it shows.
    pub fn show(&mut self, text: &str, level: Level) {
        if self.text != text {
            self.label.set_text(text);
            self.text.clear();
            self.text.push_str(text);
        }
        if self.level != level {
            if let Some(class) = self.level.css_class() {
                self.label.remove_css_class(class);
            }
            if let Some(class) = level.css_class() {
                self.label.add_css_class(class);
            }
            self.level = level;
        }
    }
}

pub struct Bar {
    pub window: gtk::Window,
    /// None for the fallback window.
    pub monitor: Option<gdk::Monitor>,
    pub content: gtk::Box,
    pub cpu: Slot,
    pub memory: Slot,
    /// Hidden on machines without a GPU.
    pub gpu: Slot,
    /// Shown only while a pressure stall passes the threshold.
    pub pressure: Slot,
    pub notice: gtk::Label,
    /// The tooltip's content; mapped exactly while the tooltip is on screen.
    pub tooltip: gtk::Label,
}

fn object<T: IsA<glib::Object>>(builder: &gtk::Builder, id: &str) -> T {
    // The ids are those of ui/*.ui, bundled at build time: a mismatch is a build defect.
    builder
        .object(id)
        .unwrap_or_else(|| panic!("ui definition lacks object `{id}`"))
}

impl Bar {
    fn build(config: &Config) -> Bar {
        let builder = gtk::Builder::from_resource("/dev/ringbar/bar.ui");
        let content: gtk::Box = object(&builder, "bar");
        let cpu: gtk::Label = object(&builder, "cpu");
        let memory: gtk::Label = object(&builder, "memory");
        let gpu: gtk::Label = object(&builder, "gpu");
        let pressure: gtk::Label = object(&builder, "pressure");
        let notice: gtk::Label = object(&builder, "notice");
        let tooltip: gtk::Label = object(
            &gtk::Builder::from_resource("/dev/ringbar/tooltip.ui"),
            "tooltip",
        );

        // The configured labels, in the configured order, after the notice marker.
        for label in [&cpu, &memory, &gpu, &pressure] {
            label.set_visible(false);
        }
        let mut previous = notice.clone().upcast::<gtk::Widget>();
        for kind in &config.labels {
            let label = match kind {
                LabelKind::Cpu => &cpu,
                LabelKind::Memory => &memory,
                // GPU and pressure appear once there is something to show.
                LabelKind::Gpu => &gpu,
                LabelKind::Pressure => &pressure,
            };
            if matches!(kind, LabelKind::Cpu | LabelKind::Memory) {
                label.set_visible(true);
            }
            content.reorder_child_after(label, Some(&previous));
            previous = label.clone().upcast();
        }
        let configured = |kind| config.labels.contains(&kind);
        content.set_size_request(-1, config.height as i32);

        let window = gtk::Window::new();
        window.add_css_class("ringbar-window");
        window.set_decorated(false);
        window.set_child(Some(&content));
        Bar {
            window,
            monitor: None,
            content,
            cpu: Slot::new(cpu, configured(LabelKind::Cpu)),
            memory: Slot::new(memory, configured(LabelKind::Memory)),
            gpu: Slot::new(gpu, configured(LabelKind::Gpu)),
            pressure: Slot::new(pressure, configured(LabelKind::Pressure)),
            notice,
            tooltip,
        }
    }

    /// A layer-shell bar on `monitor`.
    pub fn layer(config: &Config, monitor: &gdk::Monitor) -> Bar {
        let mut bar = Bar::build(config);
        let window = &bar.window;
        window.init_layer_shell();
        window.set_namespace(Some("ringbar"));
        window.set_layer(match config.layer {
            Layer::Background => gtk4_layer_shell::Layer::Background,
            Layer::Bottom => gtk4_layer_shell::Layer::Bottom,
            Layer::Top => gtk4_layer_shell::Layer::Top,
            Layer::Overlay => gtk4_layer_shell::Layer::Overlay,
        });
        let edge = match config.position {
            Position::Top => Edge::Top,
            Position::Bottom => Edge::Bottom,
        };
        for anchor in [edge, Edge::Left, Edge::Right] {
            window.set_anchor(anchor, true);
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
    pub fn fallback(config: &Config) -> Bar {
        let bar = Bar::build(config);
        bar.window.set_title(Some("ringbar"));
        bar.window.set_default_size(900, config.height as i32);
        bar
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

    /// Shows or hides the ⚠ marker.
    pub fn set_notice(&self, text: Option<&str>) {
        match text {
            Some(text) => {
                self.notice.set_text(text);
                self.notice.set_visible(true);
            }
            None => self.notice.set_visible(false),
        }
    }
}
