//! The idle inhibitor: while on, the compositor does not go idle (no screen blanking or
//! locking by swayidle, hypridle…). It is Wayland's `zwp_idle_inhibitor_v1` on a bar's
//! own surface, made on GDK's connection to the compositor with a queue of its own (the
//! protocol has no events to wait for). An inhibitor lives as long as its surface: when
//! that bar goes (its output unplugged, a reload), it is made again on a bar that is
//! there. Without Wayland or without the protocol the state is `None` (said once).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use gdk4_wayland::prelude::*;
use gtk4 as gtk;
use gtk4::glib;
use gtk4::prelude::*;
use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::wl_registry::WlRegistry;
use wayland_client::{Connection, Dispatch, EventQueue, Proxy, QueueHandle};
use wayland_protocols::wp::idle_inhibit::zv1::client::zwp_idle_inhibit_manager_v1::ZwpIdleInhibitManagerV1;
use wayland_protocols::wp::idle_inhibit::zv1::client::zwp_idle_inhibitor_v1::ZwpIdleInhibitorV1;

/// The CSS class of the bars' windows: the surfaces an inhibitor may live on.
const BAR_WINDOW_CLASS: &str = "ringbar-window";
/// How often, and how many times, a new bar is looked for after the inhibitor's went.
const RETRY: Duration = Duration::from_millis(200);
const RETRIES: u32 = 50;

use super::{IdleCommand, IdleInhibition};
use crate::events::source::{OnChange, Watch};

/// The protocol's objects carry no data and send no events.
struct Queue;

impl Dispatch<WlRegistry, GlobalListContents> for Queue {
    fn event(
        _: &mut Self,
        _: &WlRegistry,
        _: <WlRegistry as Proxy>::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

wayland_client::delegate_noop!(Queue: ignore ZwpIdleInhibitManagerV1);
wayland_client::delegate_noop!(Queue: ignore ZwpIdleInhibitorV1);

struct Wayland {
    connection: Connection,
    queue: EventQueue<Queue>,
    manager: ZwpIdleInhibitManagerV1,
}

/// The inhibitor, the window whose surface holds it, and the handler that follows it.
struct Held {
    inhibitor: ZwpIdleInhibitorV1,
    window: glib::WeakRef<gtk::Window>,
    unrealized: glib::SignalHandlerId,
}

struct Inner {
    wayland: Wayland,
    held: Option<Held>,
    /// The user's wish: on, whether or not a bar holds it right now.
    on: bool,
    retry: Option<glib::SourceId>,
    on_change: OnChange<IdleInhibition>,
}

/// The idle inhibitor; dropping it lets the compositor go idle again.
pub struct IdleInhibitor {
    inner: Option<Rc<RefCell<Inner>>>,
}

impl Watch<IdleInhibition> for IdleInhibitor {
    /// Off at first; `on_change` hears whether it is on, or `None` where there is no
    /// protocol (the first time on the next turn of the main loop, as the other sources).
    fn start(_: &(), on_change: OnChange<IdleInhibition>) -> Option<IdleInhibitor> {
        let Some(wayland) = connect() else {
            glib::idle_add_local_once(move || on_change(None));
            return Some(IdleInhibitor { inner: None });
        };
        let inner = Rc::new(RefCell::new(Inner {
            wayland,
            held: None,
            on: false,
            retry: None,
            on_change,
        }));
        tell_later(&inner);
        Some(IdleInhibitor { inner: Some(inner) })
    }

    fn command(&self, IdleCommand::Toggle: &IdleCommand) {
        self.toggle();
    }
}

impl IdleInhibitor {
    /// A click: on if it was off, off if it was on.
    fn toggle(&self) {
        let Some(inner_rc) = &self.inner else {
            return;
        };
        let on = {
            let mut inner = inner_rc.borrow_mut();
            inner.on = !inner.on;
            inner.on
        };
        if on {
            hold(inner_rc);
        } else {
            release(&mut inner_rc.borrow_mut());
        }
        tell_later(inner_rc);
    }
}

/// Tells the state on the next turn of the main loop (not from inside a click).
fn tell_later(inner_rc: &Rc<RefCell<Inner>>) {
    let weak = Rc::downgrade(inner_rc);
    glib::idle_add_local_once(move || {
        if let Some(inner) = weak.upgrade() {
            let inner = inner.borrow();
            (inner.on_change)(Some(&IdleInhibition { on: inner.on }));
        }
    });
}

impl Drop for IdleInhibitor {
    fn drop(&mut self) {
        if let Some(inner) = &self.inner {
            let mut inner = inner.borrow_mut();
            if let Some(retry) = inner.retry.take() {
                retry.remove();
            }
            release(&mut inner);
        }
    }
}

/// GDK's Wayland connection and the compositor's inhibit manager; `None`, said once,
/// where there is neither.
fn connect() -> Option<Wayland> {
    let display = gtk::gdk::Display::default()?;
    let Some(display) = display.downcast_ref::<gdk4_wayland::WaylandDisplay>() else {
        tracing::info!("idle_inhibitor: not on Wayland; hidden");
        return None;
    };
    let backend = display.wl_display()?.backend().upgrade()?;
    let connection = Connection::from_backend(backend);
    let (globals, queue) = match registry_queue_init::<Queue>(&connection) {
        Ok(found) => found,
        Err(err) => {
            tracing::warn!("idle_inhibitor: cannot list the compositor's globals: {err}; hidden");
            return None;
        }
    };
    match globals.bind::<ZwpIdleInhibitManagerV1, _, _>(&queue.handle(), 1..=1, ()) {
        Ok(manager) => Some(Wayland {
            connection,
            queue,
            manager,
        }),
        Err(err) => {
            tracing::info!(
                "idle_inhibitor: the compositor has no idle-inhibit protocol ({err}); hidden"
            );
            None
        }
    }
}

/// A bar window that is on screen now.
fn bar_window() -> Option<gtk::Window> {
    let windows = gtk::Window::list_toplevels();
    windows
        .into_iter()
        .filter_map(|w| w.downcast::<gtk::Window>().ok())
        .find(|w| w.has_css_class(BAR_WINDOW_CLASS) && w.is_mapped())
}

/// Makes the inhibitor on a bar's surface, or keeps looking for a bar for a while.
fn hold(inner_rc: &Rc<RefCell<Inner>>) {
    if try_hold(inner_rc) || inner_rc.borrow().retry.is_some() {
        return;
    }
    let weak = Rc::downgrade(inner_rc);
    let mut left = RETRIES;
    let retry = glib::timeout_add_local(RETRY, move || {
        let Some(inner_rc) = weak.upgrade() else {
            return glib::ControlFlow::Break;
        };
        left -= 1;
        if try_hold(&inner_rc) || left == 0 {
            inner_rc.borrow_mut().retry = None;
            return glib::ControlFlow::Break;
        }
        glib::ControlFlow::Continue
    });
    inner_rc.borrow_mut().retry = Some(retry);
}

/// Makes the inhibitor on the surface of a bar on screen; whether none is needed now.
fn try_hold(inner_rc: &Rc<RefCell<Inner>>) -> bool {
    let mut inner = inner_rc.borrow_mut();
    if inner.held.is_some() || !inner.on {
        return true;
    }
    let found = bar_window().and_then(|window| {
        let surface = window.surface()?;
        let surface = surface.downcast_ref::<gdk4_wayland::WaylandSurface>()?;
        Some((window.clone(), surface.wl_surface()?))
    });
    let Some((window, surface)) = found else {
        return false;
    };
    let handle = inner.wayland.queue.handle();
    let inhibitor = inner
        .wayland
        .manager
        .create_inhibitor(&surface, &handle, ());
    if let Err(err) = inner.wayland.connection.flush() {
        tracing::warn!("idle_inhibitor: cannot reach the compositor: {err}");
    }
    // The bar goes: its surface takes the inhibitor with it, so make one on another.
    let weak = Rc::downgrade(inner_rc);
    let unrealized = window.connect_unrealize(move |_| {
        let Some(inner_rc) = weak.upgrade() else {
            return;
        };
        release(&mut inner_rc.borrow_mut());
        let again = Rc::downgrade(&inner_rc);
        glib::idle_add_local_once(move || {
            if let Some(inner_rc) = again.upgrade() {
                hold(&inner_rc);
            }
        });
    });
    inner.held = Some(Held {
        inhibitor,
        window: window.downgrade(),
        unrealized,
    });
    true
}

/// Destroys the inhibitor, if one is held.
fn release(inner: &mut Inner) {
    if let Some(held) = inner.held.take() {
        if let Some(window) = held.window.upgrade() {
            window.disconnect(held.unrealized);
        }
        held.inhibitor.destroy();
        if let Err(err) = inner.wayland.connection.flush() {
            tracing::warn!("idle_inhibitor: cannot reach the compositor: {err}");
        }
    }
}
