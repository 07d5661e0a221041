//! One module on one bar: its label, its tooltip label and what they show, so that an
//! unchanged tick touches no widget.

use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;

use crate::modules::{Input, Level, Module};
use crate::render::Markup;

pub struct Slot {
    pub module: Rc<dyn Module>,
    pub label: gtk::Label,
    /// The tooltip's content; mapped exactly while the tooltip is on screen.
    pub tooltip: gtk::Label,
    text: String,
    level: Level,
    /// The state class shown besides the level (`charging`).
    class: Option<&'static str>,
}

impl Slot {
    pub fn new(module: Rc<dyn Module>) -> Slot {
        let label = gtk::Label::new(None);
        label.add_css_class("module");
        label.add_css_class(module.name());
        label.set_visible(false);
        label.set_has_tooltip(true);
        let builder = gtk::Builder::from_resource("/dev/ringbar/tooltip.ui");
        let tooltip: gtk::Label = builder
            .object("tooltip")
            .unwrap_or_else(|| unreachable!("ui/tooltip.ui defines `tooltip`"));
        Slot {
            module,
            label,
            tooltip,
            text: String::new(),
            level: Level::Normal,
            class: None,
        }
    }

    /// Shows the module's text for `input`, or hides it. `scratch` is a reused buffer.
    pub fn render(&mut self, input: &Input<'_>, scratch: &mut String) {
        scratch.clear();
        let status = self.module.text(input, scratch);
        let visible = status.is_some();
        if self.label.is_visible() != visible {
            self.label.set_visible(visible);
        }
        let Some(status) = status else {
            return;
        };
        if self.text != *scratch {
            self.label.set_text(scratch);
            self.text.clear();
            self.text.push_str(scratch);
        }
        if self.level != status.level {
            if let Some(class) = self.level.css_class() {
                self.label.remove_css_class(class);
            }
            if let Some(class) = status.level.css_class() {
                self.label.add_css_class(class);
            }
            self.level = status.level;
        }
        if self.class != status.class {
            if let Some(class) = self.class {
                self.label.remove_css_class(class);
            }
            if let Some(class) = status.class {
                self.label.add_css_class(class);
            }
            self.class = status.class;
        }
    }

    /// Rebuilds the tooltip's markup for `input`. `scratch` is a reused buffer.
    pub fn fill_tooltip(&self, input: &Input<'_>, scratch: &mut String) {
        scratch.clear();
        self.module.tooltip(&mut Markup(scratch), input);
        if self.tooltip.label() != scratch.as_str() {
            self.tooltip.set_markup(scratch);
        }
    }
}
