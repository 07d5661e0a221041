//! The `workspaces` module's widget: a row of buttons kept in step with the module's
//! [`WorkspaceButton`]s, reusing buttons so an event that changes one class touches one
//! widget. A click switches to the button's workspace; scrolling steps through them.

use std::cell::RefCell;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;

use crate::events::compositor::Workspace;
use crate::modules::WorkspaceButton;

pub struct WorkspaceRow {
    pub widget: gtk::Box,
    buttons: Vec<gtk::Button>,
    /// What each button shows now: label and classes, and the workspace a click means.
    shown: Rc<RefCell<Vec<WorkspaceButton>>>,
    on_click: Rc<dyn Fn(&Workspace)>,
}

impl WorkspaceRow {
    pub fn new(on_click: Rc<dyn Fn(&Workspace)>, on_scroll: Rc<dyn Fn(bool)>) -> WorkspaceRow {
        let widget = gtk::Box::new(gtk::Orientation::Horizontal, 0);
        widget.add_css_class("module");
        widget.add_css_class("workspaces");
        widget.set_widget_name("workspaces");
        let scroll = gtk::EventControllerScroll::new(
            gtk::EventControllerScrollFlags::VERTICAL | gtk::EventControllerScrollFlags::DISCRETE,
        );
        scroll.connect_scroll(move |_, _, dy| {
            if dy != 0.0 {
                on_scroll(dy > 0.0);
            }
            gtk::glib::Propagation::Stop
        });
        widget.add_controller(scroll);
        WorkspaceRow {
            widget,
            buttons: Vec::new(),
            shown: Rc::new(RefCell::new(Vec::new())),
            on_click,
        }
    }

    /// Shows `wanted`, changing only the buttons that differ.
    pub fn show(&mut self, wanted: &[WorkspaceButton]) {
        // Visible before its buttons change: with GTK 4.8, a row whose buttons were added
        // while it was hidden kept, once shown, the width it had without them, and the
        // window title next to it was drawn over the first button.
        if !wanted.is_empty() {
            self.widget.set_visible(true);
        }
        while self.buttons.len() < wanted.len() {
            let index = self.buttons.len();
            let button = gtk::Button::new();
            button.add_css_class("flat");
            let (shown, on_click) = (self.shown.clone(), self.on_click.clone());
            button.connect_clicked(move |_| {
                let target = shown.borrow().get(index).map(|b| b.workspace.clone());
                if let Some(workspace) = target {
                    on_click(&workspace);
                }
            });
            self.widget.append(&button);
            self.buttons.push(button);
        }
        while self.buttons.len() > wanted.len() {
            if let Some(button) = self.buttons.pop() {
                self.widget.remove(&button);
            }
        }
        let mut shown = self.shown.borrow_mut();
        shown.truncate(wanted.len());
        for (index, (button, want)) in self.buttons.iter().zip(wanted).enumerate() {
            let old = shown.get(index);
            if old.map(|o| &o.label) != Some(&want.label) {
                button.set_label(&want.label);
            }
            let old_classes = old.map(|o| o.classes.as_slice()).unwrap_or(&[]);
            for class in old_classes.iter().filter(|c| !want.classes.contains(c)) {
                button.remove_css_class(class);
            }
            for class in want.classes.iter().filter(|c| !old_classes.contains(c)) {
                button.add_css_class(class);
            }
            match shown.get_mut(index) {
                Some(slot) => slot.clone_from(want),
                None => shown.push(want.clone()),
            }
        }
        if wanted.is_empty() {
            self.widget.set_visible(false);
        }
    }

    /// Each button's `x,y,w,h` in `window`, `;`-separated, for the test hook.
    #[cfg(feature = "test-support")]
    pub fn button_bounds(&self, window: &gtk::Window) -> String {
        let bounds: Vec<String> = self
            .buttons
            .iter()
            .filter_map(|b| b.compute_bounds(window))
            .map(|r| format!("{},{},{},{}", r.x(), r.y(), r.width(), r.height()))
            .collect();
        bounds.join(";")
    }

    /// `1:focused+visible+occupied|2:empty`, for the test hook.
    #[cfg(feature = "test-support")]
    pub fn describe(&self) -> String {
        let shown = self.shown.borrow();
        let parts: Vec<String> = shown
            .iter()
            .map(|b| format!("{}:{}", b.label, b.classes.join("+")))
            .collect();
        parts.join("|")
    }
}
