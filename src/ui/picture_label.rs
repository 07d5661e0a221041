//! A module's label with a picture before it (the `user` module's avatar, gamemode's and
//! upower's icons), in one box. As in Waybar's modules with an icon, the box takes the
//! module's name and `module` class from the label, so `#user` styles the whole.

use std::cell::RefCell;
use std::path::PathBuf;

use gtk4 as gtk;
use gtk4::glib;
use gtk4::prelude::*;

use super::image_view::ImageView;
use crate::modules::Picture;

pub struct PictureLabel {
    pub widget: gtk::Box,
    image: gtk::Image,
    /// The theme's icon shown, where the picture is one; the module's own first.
    icon: RefCell<Option<String>>,
    /// The icon drawn where one the module names is not in the theme.
    fallback: Option<String>,
}

impl PictureLabel {
    /// `label` after `picture`; no picture where its file is not a regular file.
    pub fn new(label: &gtk::Label, css: &str, picture: &Picture<'_>) -> Self {
        let widget = gtk::Box::new(gtk::Orientation::Horizontal, picture.spacing);
        widget.add_css_class("module");
        widget.add_css_class(css);
        widget.set_widget_name(css);
        widget.set_has_tooltip(true);
        widget.set_visible(false);
        label.remove_css_class("module");
        label.set_widget_name("");
        label.set_has_tooltip(false);
        let icon = is_icon_name(picture.source).then(|| picture.source.to_owned());
        let image = match &icon {
            Some(name) => {
                let image = gtk::Image::from_icon_name(name);
                image.set_pixel_size(picture.width.max(picture.height));
                image
            }
            None => file_image(picture),
        };
        widget.append(&image);
        widget.append(label);
        PictureLabel {
            widget,
            image,
            fallback: icon.clone(),
            icon: RefCell::new(icon),
        }
    }

    /// Draws the theme's icon `name`, or the module's own where the theme has none.
    pub fn show_icon(&self, name: &str) {
        let display = self.widget.display();
        let theme = gtk::IconTheme::for_display(&display);
        let wanted = match name.is_empty() || !theme.has_icon(name) {
            true => self.fallback.as_deref().unwrap_or(name),
            false => name,
        };
        let mut shown = self.icon.borrow_mut();
        if shown.as_deref() != Some(wanted) {
            self.image.set_icon_name(Some(wanted));
            *shown = Some(wanted.to_owned());
        }
    }

    /// The theme's icon drawn (for the test hook); `None` for a file's picture.
    #[cfg(feature = "test-support")]
    pub fn icon(&self) -> Option<String> {
        self.icon.borrow().clone()
    }
}

/// A theme's icon name, not a file: no `/`.
fn is_icon_name(source: &str) -> bool {
    !source.contains('/')
}

/// A file's picture (`~/` is the home folder), decoded off the main loop and looked at
/// once, as Waybar does; hidden for a missing file, which is no fault.
fn file_image(picture: &Picture<'_>) -> gtk::Image {
    let view = ImageView::sized(picture.width, picture.height);
    let path = match picture.source.strip_prefix("~/") {
        Some(rest) => glib::home_dir().join(rest),
        None => PathBuf::from(picture.source),
    };
    let is_file = std::fs::metadata(&path).is_ok_and(|m| m.is_file());
    view.widget.set_visible(is_file);
    if is_file {
        view.show_file(&path.to_string_lossy());
    }
    view.widget
}
