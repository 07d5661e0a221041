//! The widget of a module drawn as a row of labels (`keyboard-state`): a box of labels
//! kept in step with the module's [`RowLabel`]s, each label touched only where its
//! markup or its classes changed.

use gtk4 as gtk;
use gtk4::prelude::*;

use crate::modules::RowLabel;

pub struct LabelRowView {
    pub widget: gtk::Box,
    labels: Vec<gtk::Label>,
    /// What each label shows now.
    shown: Vec<RowLabel>,
}

impl LabelRowView {
    /// A row with the CSS name and class `css` (`#keyboard-state`).
    pub fn new(css: &str) -> LabelRowView {
        let widget = gtk::Box::new(gtk::Orientation::Horizontal, 0);
        widget.add_css_class("module");
        widget.add_css_class(css);
        widget.set_widget_name(css);
        widget.set_has_tooltip(true);
        widget.set_visible(false);
        LabelRowView {
            widget,
            labels: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// Shows `want`, one label each, in order.
    pub fn show(&mut self, want: &[RowLabel]) {
        while self.labels.len() > want.len() {
            if let Some(label) = self.labels.pop() {
                self.widget.remove(&label);
            }
            self.shown.pop();
        }
        for (i, want) in want.iter().enumerate() {
            if i == self.labels.len() {
                let label = gtk::Label::new(None);
                self.widget.append(&label);
                self.labels.push(label);
                self.shown.push(RowLabel {
                    markup: String::new(),
                    classes: Vec::new(),
                });
            }
            let (label, shown) = (&self.labels[i], &mut self.shown[i]);
            if shown.markup != want.markup {
                label.set_markup(&want.markup);
            }
            if shown.classes != want.classes {
                for class in &shown.classes {
                    label.remove_css_class(class);
                }
                for class in &want.classes {
                    label.add_css_class(class);
                }
            }
            shown.clone_from(want);
        }
    }

    /// `markup:class+class` per label, `|`-separated, for the test hook.
    #[cfg(feature = "test-support")]
    pub fn describe(&self) -> String {
        let parts: Vec<String> = (self.shown.iter())
            .map(|l| format!("{}:{}", l.markup, l.classes.join("+")))
            .collect();
        parts.join("|")
    }
}
