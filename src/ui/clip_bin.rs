//! A box around one widget that clips it instead of growing with it.
//!
//! - [`ClipBin::new`] never asks for height: it takes the bar's height and clips what is
//!   taller. Script modules sit in one, so that a script's markup (`<span font="40">`,
//!   nested `<big>`, a tall glyph) can never make the bar taller than its configured
//!   `height`; widths are the child's own.
//! - [`ClipBin::along`] asks for no length along the bar: the bar's content sits in one,
//!   so that modules wider than the output are cut off at the end (and said so once)
//!   instead of making the window wider than the output. A surface larger than the
//!   size the compositor gave it is outside the layer-shell protocol; in sway 1.7 the
//!   buffers of such frames were never given back, so each new frame took another
//!   (190 kB for a 1,900 px bar, megabytes a minute with a clock showing seconds).

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::subclass::prelude::*;
use gtk4::{glib, graphene, gsk};

glib::wrapper! {
    pub struct ClipBin(ObjectSubclass<imp::ClipBin>)
        @extends gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget;
}

impl ClipBin {
    /// Clips `child` to the bar's height.
    pub fn new(child: &impl IsA<gtk::Widget>) -> ClipBin {
        let bin: ClipBin = glib::Object::new();
        bin.set_overflow(gtk::Overflow::Hidden);
        child.set_parent(&bin);
        bin
    }

    /// Clips `child` along `axis` (the bar's length) to what the bar is given.
    pub fn along(child: &impl IsA<gtk::Widget>, axis: gtk::Orientation) -> ClipBin {
        let bin = ClipBin::new(child);
        bin.imp().along.set(Some(axis));
        bin
    }
}

mod imp {
    use std::cell::Cell;

    use super::*;

    #[derive(Default)]
    pub struct ClipBin {
        /// The axis clipped to what is given, for the bar's content; `None`: the height,
        /// to nothing asked.
        pub along: Cell<Option<gtk::Orientation>>,
        /// Whether the cut was logged.
        warned: Cell<bool>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for ClipBin {
        const NAME: &'static str = "RingbarClipBin";
        type Type = super::ClipBin;
        type ParentType = gtk::Widget;
    }

    impl ObjectImpl for ClipBin {
        fn dispose(&self) {
            while let Some(child) = self.obj().first_child() {
                child.unparent();
            }
        }
    }

    impl ClipBin {
        /// The bar's content along `axis`: all of its natural length, none required.
        fn measure_along(
            &self,
            child: &gtk::Widget,
            axis: gtk::Orientation,
            orientation: gtk::Orientation,
            for_size: i32,
        ) -> (i32, i32, i32, i32) {
            let (minimum, natural, _, _) = child.measure(orientation, for_size);
            if orientation == axis {
                (0, natural, -1, -1)
            } else {
                (minimum, natural, -1, -1)
            }
        }

        fn allocate_along(&self, child: &gtk::Widget, axis: gtk::Orientation, size: (i32, i32)) {
            let (width, height) = size;
            let given = match axis {
                gtk::Orientation::Horizontal => width,
                _ => height,
            };
            let (minimum, _, _, _) = child.measure(axis, -1);
            if minimum > given && !self.warned.replace(true) {
                tracing::warn!(
                    "the bar's modules need {minimum} px and {given} px fit: the rest is cut \
                     off (fewer modules, a smaller font, or max-length on a long label)"
                );
            }
            let length = given.max(minimum);
            match axis {
                gtk::Orientation::Horizontal => child.allocate(length, height, -1, None),
                _ => child.allocate(width, length, -1, None),
            }
        }
    }

    impl WidgetImpl for ClipBin {
        fn measure(&self, orientation: gtk::Orientation, for_size: i32) -> (i32, i32, i32, i32) {
            let Some(child) = self.obj().first_child() else {
                return (0, 0, -1, -1);
            };
            if let Some(axis) = self.along.get() {
                return self.measure_along(&child, axis, orientation, for_size);
            }
            match orientation {
                gtk::Orientation::Horizontal => {
                    let (minimum, natural, _, _) = child.measure(orientation, for_size);
                    (minimum, natural, -1, -1)
                }
                // The bar's other modules and its `height` decide the height.
                _ => (0, 0, -1, -1),
            }
        }

        fn size_allocate(&self, width: i32, height: i32, _baseline: i32) {
            let Some(child) = self.obj().first_child() else {
                return;
            };
            if let Some(axis) = self.along.get() {
                self.allocate_along(&child, axis, (width, height));
                return;
            }
            // The child gets at least its own minimum height, centred; the overflow is
            // clipped.
            let (minimum, _, _, _) = child.measure(gtk::Orientation::Vertical, width);
            let child_height = height.max(minimum);
            let y = (height - child_height) as f32 / 2.0;
            let at = gsk::Transform::new().translate(&graphene::Point::new(0.0, y));
            child.allocate(width, child_height, -1, Some(at));
        }
    }
}
