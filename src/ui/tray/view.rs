//! One bar's tray: a box of item icons kept in step with the host's items. A left click
//! activates an item, a middle click is its secondary activation, a right click opens
//! its menu, scrolling scrolls it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Weak;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, glib};

use super::TrayHost;
use crate::events::tray::item::Icon;
use crate::events::tray::{ItemAddress, ItemState};
use crate::modules::TraySettings;

/// The icon theme's search path, with the folders items add (`IconThemePath`), stays
/// below this many folders.
const MAX_SEARCH_PATHS: usize = 64;

pub struct TrayView {
    container: glib::WeakRef<gtk::Box>,
    settings: TraySettings,
    icons: RefCell<BTreeMap<ItemAddress, gtk::Image>>,
}

/// What a click on an item asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Click {
    Activate,
    SecondaryActivate,
    Menu,
    Scroll { delta: i32, vertical: bool },
}

impl TrayView {
    pub fn new(container: &gtk::Box, settings: &TraySettings) -> TrayView {
        container.set_spacing(settings.spacing as i32);
        container.set_visible(false);
        TrayView {
            container: container.downgrade(),
            settings: settings.clone(),
            icons: RefCell::new(BTreeMap::new()),
        }
    }

    /// Whether its bar still exists.
    pub fn is_alive(&self) -> bool {
        self.container.upgrade().is_some()
    }

    pub fn icon_size(&self) -> u32 {
        self.settings.icon_size
    }

    /// Shows, updates or hides the item at `address` (`None`: gone from the bus).
    pub fn show(&self, address: &ItemAddress, state: Option<&ItemState>, host: &Weak<TrayHost>) {
        let Some(container) = self.container.upgrade() else {
            return;
        };
        let mut icons = self.icons.borrow_mut();
        match state.filter(|s| s.shown(self.settings.show_passive)) {
            None => {
                if let Some(image) = icons.remove(address) {
                    super::menu::close(&image);
                    container.remove(&image);
                }
            }
            Some(state) => {
                // Visible before an icon is added, as the workspace row (see its `show`).
                container.set_visible(true);
                let image = icons.entry(address.clone()).or_insert_with(|| {
                    let image = new_icon(address, host);
                    container.append(&image);
                    image
                });
                draw(image, state, self.settings.icon_size);
            }
        }
        container.set_visible(!icons.is_empty());
    }
}

impl Drop for TrayView {
    /// A menu still open on a bar that is going away is unparented while its icon lives.
    fn drop(&mut self) {
        for image in self.icons.borrow().values() {
            super::menu::close(image);
        }
    }
}

fn new_icon(address: &ItemAddress, host: &Weak<TrayHost>) -> gtk::Image {
    let image = gtk::Image::new();
    image.add_css_class("item");
    // A menu must not outlive its icon on screen (a reload destroys the bars): its grab
    // would stay with the compositor.
    image.connect_unmap(super::menu::close);
    let click = gtk::GestureClick::new();
    click.set_button(0);
    let (on_click, address_for_click) = (host.clone(), address.clone());
    click.connect_pressed(move |gesture, _, _, _| {
        let click = match gesture.current_button() {
            gdk::BUTTON_PRIMARY => Click::Activate,
            gdk::BUTTON_MIDDLE => Click::SecondaryActivate,
            gdk::BUTTON_SECONDARY => Click::Menu,
            _ => return,
        };
        if let (Some(host), Some(widget)) = (on_click.upgrade(), gesture.widget()) {
            host.clicked(&address_for_click, click, &widget);
        }
    });
    image.add_controller(click);
    let scroll = gtk::EventControllerScroll::new(
        gtk::EventControllerScrollFlags::BOTH_AXES | gtk::EventControllerScrollFlags::DISCRETE,
    );
    let (on_scroll, address) = (host.clone(), address.clone());
    scroll.connect_scroll(move |controller, dx, dy| {
        let (delta, vertical) = if dy != 0.0 { (dy, true) } else { (dx, false) };
        if let (Some(host), Some(widget), true) =
            (on_scroll.upgrade(), controller.widget(), delta != 0.0)
        {
            let delta = delta.round().clamp(-100.0, 100.0) as i32;
            host.clicked(&address, Click::Scroll { delta, vertical }, &widget);
        }
        glib::Propagation::Stop
    });
    image.add_controller(scroll);
    image
}

fn draw(image: &gtk::Image, state: &ItemState, size: u32) {
    image.set_pixel_size(size as i32);
    match state.icon() {
        Icon::Named { name, theme_path } => {
            if let Some(path) = theme_path {
                let theme = gtk::IconTheme::for_display(&image.display());
                let known = theme.search_path();
                // Items choose these folders: a bounded number of them is searched.
                if known.len() < MAX_SEARCH_PATHS && !known.iter().any(|p| p.as_os_str() == path) {
                    theme.add_search_path(path);
                }
            }
            if image.icon_name().as_deref() != Some(name) {
                image.set_icon_name(Some(name));
            }
        }
        Icon::Pixmap(pixmap) => {
            let texture = gdk::MemoryTexture::new(
                pixmap.width as i32,
                pixmap.height as i32,
                gdk::MemoryFormat::R8g8b8a8,
                &glib::Bytes::from(&pixmap.rgba),
                pixmap.width as usize * 4,
            );
            image.set_paintable(Some(&texture));
        }
        Icon::Missing => image.set_icon_name(Some("image-missing")),
    }
    for class in ["passive", "attention"] {
        if state.status.css_class() == Some(class) {
            image.add_css_class(class);
        } else {
            image.remove_css_class(class);
        }
    }
    let tooltip = state.tooltip();
    if image.tooltip_text().as_deref() != Some(tooltip.as_str()) {
        image.set_tooltip_text(Some(&tooltip).filter(|t| !t.is_empty()).map(|t| t.as_str()));
    }
}
