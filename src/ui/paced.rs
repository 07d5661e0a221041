//! The bar's redraws for what its sources say, paced: a burst of changes of one kind is
//! drawn at most once per frame (`app::pacing`), and its last change always shows. The
//! wall-clock timer is not paced: it already fires once per second at most.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use gtk4::glib;

use crate::app::pacing::{Pace, Pacer};
use crate::modules::Update;

/// `redraw`, called for a burst of changes at most once per frame and kind.
pub fn paced(redraw: impl Fn(Update) + 'static) -> Rc<dyn Fn(Update)> {
    let redraw: Rc<dyn Fn(Update)> = Rc::new(redraw);
    let pacers: Rc<RefCell<Vec<(Update, Pacer)>>> = Rc::default();
    Rc::new(move |kind| {
        if kind == Update::Timer {
            return redraw(kind);
        }
        let pace = {
            let mut pacers = pacers.borrow_mut();
            let at = match pacers.iter().position(|(k, _)| *k == kind) {
                Some(at) => at,
                None => {
                    pacers.push((kind, Pacer::default()));
                    pacers.len() - 1
                }
            };
            pacers[at].1.changed(Instant::now())
        };
        match pace {
            Pace::Now => redraw(kind),
            Pace::Joined => {}
            Pace::After(wait) => {
                let (redraw, pacers) = (redraw.clone(), Rc::downgrade(&pacers));
                glib::timeout_add_local_once(wait, move || {
                    let Some(pacers) = pacers.upgrade() else {
                        return;
                    };
                    if let Some((_, pacer)) =
                        pacers.borrow_mut().iter_mut().find(|(k, _)| *k == kind)
                    {
                        pacer.release(Instant::now());
                    }
                    redraw(kind);
                });
            }
        }
    })
}
