//! A module's label with a picture before it (the `user` module's avatar, gamemode's
//! icon), in one box. As in Waybar's modules with an icon, the box takes the module's
//! name and `module` class from the label, so `#user` styles the whole.

use std::path::PathBuf;

use gtk4 as gtk;
use gtk4::glib;
use gtk4::prelude::*;

use super::image_view::ImageView;
use crate::modules::Picture;

pub struct PictureLabel {
    pub widget: gtk::Box,
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
        widget.append(&image(picture));
        widget.append(label);
        PictureLabel { widget }
    }
}

/// A theme's icon by its name, or a file (a name with a `/`; `~/` is the home folder),
/// decoded off the main loop and looked at once, as Waybar does.
fn image(picture: &Picture<'_>) -> gtk::Image {
    if !picture.source.contains('/') {
        let icon = gtk::Image::from_icon_name(picture.source);
        icon.set_pixel_size(picture.width.max(picture.height));
        return icon;
    }
    let view = ImageView::sized(picture.width, picture.height);
    let path = match picture.source.strip_prefix("~/") {
        Some(rest) => glib::home_dir().join(rest),
        None => PathBuf::from(picture.source),
    };
    // A missing file is no fault: no picture.
    let is_file = std::fs::metadata(&path).is_ok_and(|m| m.is_file());
    view.widget.set_visible(is_file);
    if is_file {
        view.show_file(&path.to_string_lossy());
    }
    view.widget
}
