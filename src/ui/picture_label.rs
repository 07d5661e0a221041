//! A module's label with a picture before it (the `user` module's avatar), in one box.
//! As in Waybar's modules with an icon, the box takes the module's name and `module`
//! class from the label, so `#user` styles the whole.

use std::path::PathBuf;

use gtk4 as gtk;
use gtk4::glib;
use gtk4::prelude::*;

use super::image_view::ImageView;

/// Waybar's space between an icon and its label, in pixels.
const SPACING: i32 = 8;

pub struct PictureLabel {
    pub widget: gtk::Box,
}

impl PictureLabel {
    /// `label` after the picture in `file` (`~/` is the home folder), scaled to fit
    /// `width`×`height`; no picture where `file` is not a regular file.
    pub fn new(label: &gtk::Label, css: &str, file: &str, width: i32, height: i32) -> Self {
        let widget = gtk::Box::new(gtk::Orientation::Horizontal, SPACING);
        widget.add_css_class("module");
        widget.add_css_class(css);
        widget.set_widget_name(css);
        widget.set_has_tooltip(true);
        widget.set_visible(false);
        label.remove_css_class("module");
        label.set_widget_name("");
        label.set_has_tooltip(false);
        let picture = ImageView::sized(width, height);
        let path = match file.strip_prefix("~/") {
            Some(rest) => glib::home_dir().join(rest),
            None => PathBuf::from(file),
        };
        // Looked at once, as Waybar does; a missing avatar is no fault.
        let is_file = std::fs::metadata(&path).is_ok_and(|m| m.is_file());
        picture.widget.set_visible(is_file);
        if is_file {
            picture.show_file(&path.to_string_lossy());
        }
        widget.append(&picture.widget);
        widget.append(label);
        PictureLabel { widget }
    }
}
