//! A box around one widget that never asks for height: it takes the bar's height and
//! clips what is taller. Script modules sit in one, so that a script's markup
//! (`<span font="40">`, nested `<big>`, a tall glyph) can never make the bar taller than
//! its configured `height`; widths are the child's own.

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
    pub fn new(child: &impl IsA<gtk::Widget>) -> ClipBin {
        let bin: ClipBin = glib::Object::new();
        bin.set_overflow(gtk::Overflow::Hidden);
        child.set_parent(&bin);
        bin
    }
}

mod imp {
    use super::*;

    #[derive(Default)]
    pub struct ClipBin;

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

    impl WidgetImpl for ClipBin {
        fn measure(&self, orientation: gtk::Orientation, for_size: i32) -> (i32, i32, i32, i32) {
            let Some(child) = self.obj().first_child() else {
                return (0, 0, -1, -1);
            };
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
