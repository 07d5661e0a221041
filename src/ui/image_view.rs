//! The picture of an `image` module: the file its text names, decoded and scaled off the
//! main loop, and decoded again when the file changes (a new name, or a new modification
//! time).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::SystemTime;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gdk_pixbuf, gio, glib};

/// Files larger than this are not decoded.
const MAX_FILE_BYTES: u64 = 32 << 20;
/// Nor pictures of more pixels than this (a small file can hold a huge picture).
const MAX_PIXELS: i64 = 64 << 20;

pub struct ImageView {
    pub widget: gtk::Image,
    /// The box the picture is scaled to fit, in pixels.
    width: i32,
    height: i32,
    /// The file shown, and its modification time then.
    shown: RefCell<Option<(String, Option<SystemTime>)>>,
    /// Counts the loads begun: a load that ends after a newer one began is dropped.
    loads: Rc<Cell<u64>>,
}

/// A decoded picture, handed from the loading thread to the main loop.
struct Pixels {
    bytes: glib::Bytes,
    width: i32,
    height: i32,
    stride: usize,
    alpha: bool,
}

impl ImageView {
    /// The picture of the module whose CSS name is `css`, at most `size` pixels.
    pub fn new(css: &str, size: i32) -> ImageView {
        let view = ImageView::sized(size, size);
        view.widget.add_css_class("module");
        view.widget.add_css_class(css);
        view.widget.set_widget_name(css);
        view.widget.set_has_tooltip(true);
        view.widget.set_visible(false);
        view
    }

    /// A picture scaled to fit `width`×`height` pixels, its aspect kept.
    pub fn sized(width: i32, height: i32) -> ImageView {
        let widget = gtk::Image::new();
        widget.set_pixel_size(width.max(height));
        ImageView {
            widget,
            width,
            height,
            shown: RefCell::new(None),
            loads: Rc::new(Cell::new(0)),
        }
    }

    /// Shows a theme's icon (or GIO's icon for a file, loaded by GTK) in place of a file
    /// decoded here; a decoding still under way is dropped when it ends.
    pub fn show_icon(&self, icon: &gio::Icon) {
        self.shown.replace(None);
        self.loads.set(self.loads.get().wrapping_add(1));
        self.widget.set_pixel_size(self.width.max(self.height));
        self.widget.set_from_gicon(icon);
    }

    /// Shows the file at `path`, decoding it unless it is the one shown, unchanged.
    pub fn show_file(&self, path: &str) {
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut shown = self.shown.borrow_mut();
        if shown
            .as_ref()
            .is_some_and(|(p, m)| p == path && *m == modified)
        {
            return;
        }
        *shown = Some((path.to_owned(), modified));
        let load = self.loads.get().wrapping_add(1);
        self.loads.set(load);
        let (loads, widget) = (self.loads.clone(), self.widget.downgrade());
        let (path, width, height) = (path.to_owned(), self.width, self.height);
        glib::spawn_future_local(async move {
            let file = path.clone();
            let decoded = gio::spawn_blocking(move || decode(&file, width, height)).await;
            let Some(widget) = widget.upgrade().filter(|_| loads.get() == load) else {
                return;
            };
            match decoded {
                Ok(Ok(pixels)) => {
                    // Drawn at its decoded size: a picture scaled to fit a box that is
                    // not square is smaller than the box's longer side.
                    widget.set_pixel_size(pixels.width.max(pixels.height));
                    widget.set_paintable(Some(&pixels.texture()));
                }
                Ok(Err(err)) => {
                    tracing::warn!("image: cannot show {path}: {err}");
                    widget.clear();
                }
                Err(_) => widget.clear(),
            }
        });
    }
}

impl Pixels {
    fn texture(&self) -> gdk::MemoryTexture {
        let format = match self.alpha {
            true => gdk::MemoryFormat::R8g8b8a8,
            false => gdk::MemoryFormat::R8g8b8,
        };
        gdk::MemoryTexture::new(self.width, self.height, format, &self.bytes, self.stride)
    }
}

/// The picture in `path`, scaled to fit `width`×`height` pixels; on a worker thread.
fn decode(path: &str, width_max: i32, height_max: i32) -> Result<Pixels, String> {
    let meta = std::fs::metadata(path).map_err(|err| err.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".to_owned());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("larger than {} MiB", MAX_FILE_BYTES >> 20));
    }
    let (_, width, height) =
        gdk_pixbuf::Pixbuf::file_info(path).ok_or("not a picture GdkPixbuf reads")?;
    if i64::from(width) * i64::from(height) > MAX_PIXELS {
        return Err(format!("{width}×{height} pixels is too many"));
    }
    let pixbuf = gdk_pixbuf::Pixbuf::from_file_at_scale(path, width_max, height_max, true)
        .map_err(|err| err.message().to_owned())?;
    Ok(Pixels {
        bytes: pixbuf.read_pixel_bytes(),
        width: pixbuf.width(),
        height: pixbuf.height(),
        stride: usize::try_from(pixbuf.rowstride()).unwrap_or(0),
        alpha: pixbuf.has_alpha(),
    })
}
