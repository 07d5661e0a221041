//! A group's box on the bar (`group/NAME`): its entries side by side or stacked; with a
//! drawer, the first entry shown and the others in a revealer that opens while the
//! pointer is on the group, or on a left click. Named and classed as Waybar's: `#NAME`,
//! `.empty` while nothing in it shows, `.expanded` while its drawer is open, `.drawer`
//! on the revealer, and the drawer's `children-class` on each entry in it.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use gtk4 as gtk;
use gtk4::glib;
use gtk4::prelude::*;

use crate::modules::group::{Drawer, Group};

pub struct GroupBox {
    outer: gtk::Box,
    /// The drawer's revealer, the box in it, and the class of its entries.
    drawer: Option<(gtk::Revealer, gtk::Box, String)>,
    vertical: bool,
    entries: usize,
}

fn orientation(vertical: bool) -> gtk::Orientation {
    match vertical {
        true => gtk::Orientation::Vertical,
        false => gtk::Orientation::Horizontal,
    }
}

impl GroupBox {
    /// An empty group in a box laid out vertically or not (`outer_vertical`).
    pub fn new(group: &Group, outer_vertical: bool) -> GroupBox {
        let vertical = group.orientation.vertical(outer_vertical);
        let outer = gtk::Box::new(orientation(vertical), 0);
        outer.set_widget_name(&group.name);
        outer.add_css_class("group");
        outer.add_css_class("empty");
        let drawer = group.drawer.as_ref().map(|settings| {
            let revealer = gtk::Revealer::new();
            revealer.add_css_class("drawer");
            revealer.set_transition_duration(settings.transition_duration);
            revealer.set_transition_type(match (vertical, settings.transition_left_to_right) {
                (false, true) => gtk::RevealerTransitionType::SlideRight,
                (false, false) => gtk::RevealerTransitionType::SlideLeft,
                (true, true) => gtk::RevealerTransitionType::SlideDown,
                (true, false) => gtk::RevealerTransitionType::SlideUp,
            });
            let inner = gtk::Box::new(orientation(vertical), 0);
            revealer.set_child(Some(&inner));
            outer.append(&revealer);
            open_on_pointer(&outer, &revealer, settings);
            if settings.open_at_start() {
                set_open(&outer, &revealer, true);
            }
            (revealer, inner, settings.children_class.clone())
        });
        GroupBox {
            outer,
            drawer,
            vertical,
            entries: 0,
        }
    }

    /// Whether the group lays its entries out vertically.
    pub fn vertical(&self) -> bool {
        self.vertical
    }

    /// The next entry: the first in the group's own box, the others in its drawer.
    pub fn append(&mut self, entry: &gtk::Widget) {
        match (&self.drawer, self.entries) {
            (Some((revealer, _, _)), 0) => {
                let left_to_right = revealer.prev_sibling().is_none();
                match left_to_right {
                    // The first entry before the drawer, which then opens after it.
                    true => self.outer.insert_child_after(entry, None::<&gtk::Widget>),
                    false => self.outer.append(entry),
                }
            }
            (Some((_, inner, class)), _) => {
                entry.add_css_class(class);
                inner.append(entry);
            }
            (None, _) => self.outer.append(entry),
        }
        self.entries += 1;
        let outer = self.outer.downgrade();
        let inner = self.drawer.as_ref().map(|(_, inner, _)| inner.downgrade());
        let update = move || {
            if let Some(outer) = outer.upgrade() {
                let inner = inner.as_ref().and_then(|inner| inner.upgrade());
                mark_empty(&outer, inner.as_ref());
            }
        };
        update();
        entry.connect_visible_notify(move |_| update());
    }

    pub fn widget(&self) -> gtk::Widget {
        self.outer.clone().upcast()
    }
}

/// The children of `parent`, first to last.
fn children(parent: &impl IsA<gtk::Widget>) -> impl Iterator<Item = gtk::Widget> {
    std::iter::successors(parent.first_child(), |child| child.next_sibling())
}

/// `.empty` on the group while none of its entries shows.
fn mark_empty(outer: &gtk::Box, inner: Option<&gtk::Box>) {
    let shown = |parent: &gtk::Box| {
        children(parent).any(|child| !child.is::<gtk::Revealer>() && child.is_visible())
    };
    let empty = !shown(outer) && !inner.is_some_and(shown);
    match empty {
        true => outer.add_css_class("empty"),
        false => outer.remove_css_class("empty"),
    }
}

fn set_open(outer: &gtk::Box, revealer: &gtk::Revealer, open: bool) {
    revealer.set_reveal_child(open);
    match open {
        true => {
            outer.add_css_class("expanded");
            outer.set_state_flags(gtk::StateFlags::PRELIGHT, false);
        }
        false => {
            outer.remove_css_class("expanded");
            outer.unset_state_flags(gtk::StateFlags::PRELIGHT);
        }
    }
}

/// Opens the drawer while the pointer is on the group (after `reveal-delay`), or, with
/// `click-to-reveal`, on each left click. The handlers hold the widgets weakly: the bar
/// is rebuilt on a reload, and nothing may keep the old one alive.
fn open_on_pointer(outer: &gtk::Box, revealer: &gtk::Revealer, settings: &Drawer) {
    let (weak_outer, weak_revealer) = (outer.downgrade(), revealer.downgrade());
    let open = move |open: bool| {
        if let (Some(outer), Some(revealer)) = (weak_outer.upgrade(), weak_revealer.upgrade()) {
            set_open(&outer, &revealer, open);
        }
    };
    if settings.click_to_reveal {
        let click = gtk::GestureClick::new();
        click.set_button(1);
        let weak_revealer = revealer.downgrade();
        click.connect_released(move |_, _, _, _| {
            if let Some(revealer) = weak_revealer.upgrade() {
                open(!revealer.reveals_child());
            }
        });
        outer.add_controller(click);
        return;
    }
    let motion = gtk::EventControllerMotion::new();
    let pending: Rc<RefCell<Option<glib::SourceId>>> = Rc::default();
    let delay = Duration::from_millis(u64::from(settings.reveal_delay));
    {
        let (open, pending) = (open.clone(), Rc::clone(&pending));
        motion.connect_enter(move |_, _, _| {
            if delay.is_zero() {
                open(true);
                return;
            }
            let (open, done) = (open.clone(), Rc::downgrade(&pending));
            let source = glib::timeout_add_local_once(delay, move || {
                if let Some(done) = done.upgrade() {
                    done.borrow_mut().take();
                }
                open(true);
            });
            if let Some(earlier) = pending.borrow_mut().replace(source) {
                earlier.remove();
            }
        });
    }
    motion.connect_leave(move |_| {
        if let Some(waiting) = pending.borrow_mut().take() {
            waiting.remove();
        }
        open(false);
    });
    outer.add_controller(motion);
}
