//! D-Bus calls on the main loop, each with the same timeout, so that a service that
//! does not answer is never waited for.

use gtk4::gio;
use gtk4::glib::prelude::*;
use gtk4::glib::{Variant, VariantTy};

/// A service that does not answer this fast is not waited for.
pub const CALL_TIMEOUT_MS: i32 = 3_000;

/// `interface.method(args)` on `name`'s object at `path`; `done` gets the answer, checked
/// to be of the type `reply` (a D-Bus signature such as `(a{sv})`) where one is given.
#[allow(clippy::too_many_arguments)]
pub fn call(
    connection: &gio::DBusConnection,
    name: &str,
    path: &str,
    interface: &str,
    method: &str,
    args: Option<&Variant>,
    reply: Option<&str>,
    done: impl FnOnce(Result<Variant, gtk4::glib::Error>) + 'static,
) {
    connection.call(
        Some(name),
        path,
        interface,
        method,
        args,
        reply.and_then(|reply| VariantTy::new(reply).ok()),
        gio::DBusCallFlags::NONE,
        CALL_TIMEOUT_MS,
        None::<&gio::Cancellable>,
        done,
    );
}

/// Sets a property (`org.freedesktop.DBus.Properties.Set`); a failure is one warning,
/// `failure` saying what was wanted ("bluetooth: cannot power hci0").
pub fn set_property(
    connection: &gio::DBusConnection,
    (name, path, interface): (&str, &str, &str),
    property: &str,
    value: Variant,
    failure: String,
) {
    // The tuple boxes the value as the `v` that Set takes.
    let args = (interface, property, value).to_variant();
    call(
        connection,
        name,
        path,
        PROPERTIES,
        "Set",
        Some(&args),
        None,
        move |result| {
            if let Err(err) = result {
                tracing::warn!("{failure}: {}", err.message());
            }
        },
    );
}

/// The standard interface of properties: `GetAll`, `Set`, `PropertiesChanged`.
pub const PROPERTIES: &str = "org.freedesktop.DBus.Properties";

/// The entries of a D-Bus property dict (`a{sv}`, as `GetAll` and `PropertiesChanged`
/// give it): each name with its unboxed value, the first `max` only; nothing for a value
/// of another type.
pub fn properties(dict: &Variant, max: usize) -> impl Iterator<Item = (String, Variant)> + '_ {
    let is_dict = VariantTy::new("a{sv}").is_ok_and(|ty| dict.is_type(ty));
    let count = if is_dict {
        dict.n_children().min(max)
    } else {
        0
    };
    (0..count).filter_map(move |i| {
        let entry = dict.child_value(i);
        let name = entry.child_value(0).str()?.to_owned();
        Some((name, entry.child_value(1).as_variant()?))
    })
}

/// Calls `tell` with the watch's state on the next turn of the main loop, once however
/// often it is asked meanwhile: signals come in bursts. `queued` is the watch's flag for
/// a call on its way.
pub fn tell_next_turn<T: 'static>(
    watch: &std::rc::Rc<std::cell::RefCell<T>>,
    queued: fn(&T) -> &std::cell::Cell<bool>,
    tell: fn(&T),
) {
    if queued(&watch.borrow()).replace(true) {
        return;
    }
    let weak = std::rc::Rc::downgrade(watch);
    gtk4::glib::idle_add_local_once(move || {
        if let Some(watch) = weak.upgrade() {
            let watch = watch.borrow();
            queued(&watch).set(false);
            tell(&watch);
        }
    });
}
