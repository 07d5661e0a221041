//! A box that turns its one child by a quarter, a half or three quarters, clockwise:
//! the text of a label on a left or right bar, where `rotate` says so. A turned child
//! is measured and allocated with width and height swapped, so the bar makes room for
//! the turned text, not for the upright one.

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::subclass::prelude::*;
use gtk4::{glib, graphene, gsk};

use crate::config::Rotate;

glib::wrapper! {
    pub struct RotateBin(ObjectSubclass<imp::RotateBin>)
        @extends gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget;
}

impl RotateBin {
    pub fn new(child: &impl IsA<gtk::Widget>, rotate: Rotate) -> RotateBin {
        let bin: RotateBin = glib::Object::new();
        bin.imp().rotate.set(rotate);
        child.set_parent(&bin);
        bin
    }

    /// Turned a quarter either way: the bar's width is the text's height.
    pub fn is_sideways(&self) -> bool {
        self.imp().rotate.get().is_sideways()
    }
}

mod imp {
    use std::cell::Cell;

    use super::*;

    #[derive(Default)]
    pub struct RotateBin {
        pub rotate: Cell<Rotate>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for RotateBin {
        const NAME: &'static str = "RingbarRotateBin";
        type Type = super::RotateBin;
        type ParentType = gtk::Widget;
    }

    impl ObjectImpl for RotateBin {
        fn dispose(&self) {
            while let Some(child) = self.obj().first_child() {
                child.unparent();
            }
        }
    }

    impl WidgetImpl for RotateBin {
        fn measure(&self, orientation: gtk::Orientation, for_size: i32) -> (i32, i32, i32, i32) {
            let Some(child) = self.obj().first_child() else {
                return (0, 0, -1, -1);
            };
            let asked = match (self.rotate.get().is_sideways(), orientation) {
                (false, _) => orientation,
                (true, gtk::Orientation::Horizontal) => gtk::Orientation::Vertical,
                (true, _) => gtk::Orientation::Horizontal,
            };
            let (minimum, natural, _, _) = child.measure(asked, for_size);
            (minimum, natural, -1, -1)
        }

        fn size_allocate(&self, width: i32, height: i32, _baseline: i32) {
            let Some(child) = self.obj().first_child() else {
                return;
            };
            let (w, h) = (width as f32, height as f32);
            // Where the child's top left corner lands, then the turn about it.
            let (child_width, child_height, corner) = match self.rotate.get() {
                Rotate::None => (width, height, (0.0, 0.0)),
                Rotate::Quarter => (height, width, (w, 0.0)),
                Rotate::Half => (width, height, (w, h)),
                Rotate::ThreeQuarters => (height, width, (0.0, h)),
            };
            let turn = gsk::Transform::new()
                .translate(&graphene::Point::new(corner.0, corner.1))
                .rotate(f32::from(self.rotate.get().degrees()));
            child.allocate(child_width, child_height, -1, Some(turn));
        }
    }
}
