//! The widget of a module drawn as a row of buttons (`workspaces`, `taskbar`, `image`'s
//! `multiple`, `privacy`'s icons): kept in step with the module's [`RowButton`]s, reusing
//! buttons so an event that changes one class touches one widget. A press goes to the module with what its button stands
//! for; scrolling on the row goes to the module as a whole.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gio};

use super::image_view::ImageView;
use crate::modules::{Button, IconStyle, RowButton, Target};

/// What a press on a button does: the target it stands for, and the mouse button.
pub type OnPress = Rc<dyn Fn(&Target, Button)>;

/// A button's widgets, as made for its first content.
struct Shown {
    button: gtk::Button,
    /// With an icon: the icon and the label, in a box that is the button's child.
    icon: Option<(ImageView, gtk::Label)>,
}

pub struct RowView {
    pub widget: gtk::Box,
    buttons: Vec<Shown>,
    /// What each button shows now: label and classes, and what it stands for.
    shown: Rc<RefCell<Vec<RowButton>>>,
    on_press: OnPress,
    style: IconStyle,
    /// The user's icon themes, made once.
    themes: Vec<gtk::IconTheme>,
    /// Icons already resolved, by GIO's icon string.
    icons: HashMap<String, gio::Icon>,
}

impl RowView {
    /// A row with the CSS name and class `css` (`#workspaces`, `.taskbar`).
    pub fn new(
        css: &str,
        style: IconStyle,
        on_press: OnPress,
        on_scroll: Rc<dyn Fn(bool)>,
    ) -> RowView {
        let widget = gtk::Box::new(gtk::Orientation::Horizontal, style.spacing);
        widget.add_css_class("module");
        widget.add_css_class(css);
        widget.set_widget_name(css);
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
        let themes = style
            .themes
            .iter()
            .map(|name| {
                let theme = gtk::IconTheme::new();
                theme.set_theme_name(Some(name));
                theme
            })
            .collect();
        RowView {
            widget,
            buttons: Vec::new(),
            shown: Rc::new(RefCell::new(Vec::new())),
            on_press,
            style,
            themes,
            icons: HashMap::new(),
        }
    }

    /// Shows `wanted`, changing only the buttons that differ.
    pub fn show(&mut self, wanted: &[RowButton]) {
        // Visible before its buttons change: with GTK 4.8, a row whose buttons were added
        // while it was hidden kept, once shown, the width it had without them, and the
        // window title next to it was drawn over the first button.
        if !wanted.is_empty() {
            self.widget.set_visible(true);
        }
        self.widget.remove_css_class("empty");
        // A button made for a text alone is made again for an icon, and the other way.
        let fits = |shown: &Shown, want: &RowButton| shown.icon.is_some() == want.icon.is_some();
        let mut keep = 0;
        while keep < self.buttons.len().min(wanted.len())
            && fits(&self.buttons[keep], &wanted[keep])
        {
            keep += 1;
        }
        while self.buttons.len() > keep {
            if let Some(gone) = self.buttons.pop() {
                self.widget.remove(&gone.button);
            }
        }
        let shown_rc = self.shown.clone();
        let mut shown = shown_rc.borrow_mut();
        shown.truncate(keep);
        while self.buttons.len() < wanted.len() {
            let made = self.make_button(&wanted[self.buttons.len()]);
            self.widget.append(&made.button);
            self.buttons.push(made);
        }
        for (index, want) in wanted.iter().enumerate() {
            let old = shown.get(index);
            let icon_changed =
                old.map(|o| (&o.icon, o.icon_last)) != Some((&want.icon, want.icon_last));
            let icon = match (&want.icon, icon_changed) {
                // A picture file, looked at on each update: it may change under its name.
                (Some(file), _) if file.starts_with('/') => Some(Icon::File(file)),
                (Some(icon), true) => Some(Icon::Themed(self.icon(icon))),
                _ => None,
            };
            let button = &self.buttons[index];
            if old.map(|o| &o.label) != Some(&want.label) {
                match &button.icon {
                    Some((_, label)) => {
                        label.set_text(&want.label);
                        label.set_visible(!want.label.is_empty());
                    }
                    None => button.button.set_label(&want.label),
                }
            }
            if let (Some((view, _)), Some(icon)) = (&button.icon, icon) {
                match icon {
                    Icon::File(file) => view.show_file(file),
                    Icon::Themed(icon) => view.show_icon(&icon),
                }
                let image = &view.widget;
                if let Some(child) = button.button.child().and_downcast::<gtk::Box>() {
                    match want.icon_last {
                        true => child.reorder_child_after(image, child.last_child().as_ref()),
                        false => child.reorder_child_after(image, None::<&gtk::Widget>),
                    }
                }
            }
            if old.map(|o| &o.tooltip) != Some(&want.tooltip) {
                button.button.set_tooltip_text(want.tooltip.as_deref());
            }
            let old_classes = old.map(|o| o.classes.as_slice()).unwrap_or(&[]);
            for class in old_classes.iter().filter(|c| !want.classes.contains(c)) {
                button.button.remove_css_class(class);
            }
            for class in want.classes.iter().filter(|c| !old_classes.contains(c)) {
                button.button.add_css_class(class);
            }
            let old_class = old.and_then(|o| o.class.as_deref());
            if old_class != want.class.as_deref() {
                if let Some(class) = old_class {
                    button.button.remove_css_class(class);
                }
                if let Some(class) = &want.class {
                    button.button.add_css_class(class);
                }
            }
            match shown.get_mut(index) {
                Some(slot) => slot.clone_from(want),
                None => shown.push(want.clone()),
            }
        }
        if wanted.is_empty() {
            // Waybar's `#taskbar.empty`.
            self.widget.add_css_class("empty");
            self.widget.set_visible(false);
        }
    }

    fn make_button(&self, first: &RowButton) -> Shown {
        let button = gtk::Button::new();
        button.add_css_class("flat");
        if let Some(name) = self.style.button_name {
            button.set_widget_name(name);
        }
        let index = self.buttons.len();
        let (shown, on_press) = (self.shown.clone(), self.on_press.clone());
        let press = move |which: Button| {
            let target = shown.borrow().get(index).map(|b| b.target.clone());
            if let Some(target) = target {
                on_press(&target, which);
            }
        };
        let left = press.clone();
        button.connect_clicked(move |_| left(Button::Left));
        // The middle and right buttons, which a GTK button does not take itself.
        let others = gtk::GestureClick::new();
        others.set_button(0);
        others.connect_pressed(move |gesture, _, _, _| match gesture.current_button() {
            gdk::BUTTON_MIDDLE => press(Button::Middle),
            gdk::BUTTON_SECONDARY => press(Button::Right),
            _ => {}
        });
        button.add_controller(others);
        let icon = first.icon.is_some().then(|| {
            let content = gtk::Box::new(gtk::Orientation::Horizontal, 4);
            let image = ImageView::sized(self.style.size, self.style.size);
            let label = gtk::Label::new(None);
            label.set_visible(false);
            content.append(&image.widget);
            content.append(&label);
            button.set_child(Some(&content));
            (image, label)
        });
        Shown { button, icon }
    }

    /// The icon `icon` names, from the user's themes first, then the desktop's; an
    /// application's generic icon when none has it.
    fn icon(&mut self, icon: &str) -> gio::Icon {
        if let Some(found) = self.icons.get(icon) {
            return found.clone();
        }
        let generic = || gio::ThemedIcon::new("application-x-executable").upcast::<gio::Icon>();
        let wanted = gio::Icon::for_string(icon).ok();
        let found = match wanted {
            Some(wanted) if wanted.is::<gio::ThemedIcon>() => {
                let display = self.widget.display();
                let desktop = gtk::IconTheme::for_display(&display);
                let has = |theme: &gtk::IconTheme| theme.has_gicon(&wanted);
                match self.themes.iter().find(|theme| has(theme)) {
                    Some(theme) => paintable_icon(theme, &wanted, self.style.size),
                    None if has(&desktop) => Some(wanted),
                    None => None,
                }
                .unwrap_or_else(generic)
            }
            Some(file) => file,
            None => generic(),
        };
        if self.icons.len() > 256 {
            self.icons.clear();
        }
        self.icons.insert(icon.to_owned(), found.clone());
        found
    }

    /// Each button's `x,y,w,h` in `window`, `;`-separated, for the test hook.
    #[cfg(feature = "test-support")]
    pub fn button_bounds(&self, window: &gtk::Window) -> String {
        let bounds: Vec<String> = self
            .buttons
            .iter()
            .filter_map(|b| b.button.compute_bounds(window))
            .map(|r| format!("{},{},{},{}", r.x(), r.y(), r.width(), r.height()))
            .collect();
        bounds.join(";")
    }

    /// `1:focused+visible+occupied|2:empty`, with `@ICON` after a button's classes
    /// where it has one, for the test hook.
    #[cfg(feature = "test-support")]
    pub fn describe(&self) -> String {
        let shown = self.shown.borrow();
        let parts: Vec<String> = shown
            .iter()
            .map(|b| {
                let icon = b
                    .icon
                    .as_deref()
                    .map(|i| format!("@{i}"))
                    .unwrap_or_default();
                let classes = b.classes.iter().copied().chain(b.class.as_deref());
                let classes: Vec<&str> = classes.collect();
                format!("{}:{}{icon}", b.label, classes.join("+"))
            })
            .collect();
        parts.join("|")
    }
}

/// What a button's icon is drawn from.
enum Icon<'a> {
    /// A picture file, by its absolute path.
    File(&'a str),
    /// A theme's icon, looked up.
    Themed(gio::Icon),
}

/// `wanted` as the file `theme` has for it at `size`, as an icon any theme shows.
fn paintable_icon(theme: &gtk::IconTheme, wanted: &gio::Icon, size: i32) -> Option<gio::Icon> {
    let paintable = theme.lookup_by_gicon(
        wanted,
        size,
        1,
        gtk::TextDirection::None,
        gtk::IconLookupFlags::empty(),
    );
    let file = paintable.file()?;
    Some(gio::FileIcon::new(&file).upcast())
}
