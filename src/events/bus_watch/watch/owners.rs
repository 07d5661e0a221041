//! Whether each of a service's names has an owner on the bus: asked once
//! (`GetNameOwner`), then followed (`NameOwnerChanged`), and none once the connection
//! closes (the bus went away). As GDBus's own name watcher does, a name's signals before
//! the answer to the first question are older than it and are left out. That watcher is
//! not used: on a closed connection it calls "vanished" without a connection, which
//! gio-rs's wrapper cannot take (it panics).

use std::cell::Cell;
use std::rc::Rc;

use gtk4::gio;
use gtk4::glib::{self, prelude::*, SignalHandlerId};

const BUS_NAME: &str = "org.freedesktop.DBus";
const BUS_PATH: &str = "/org/freedesktop/DBus";

/// Follows the names' owners until dropped.
pub struct Owners {
    connection: gio::DBusConnection,
    _changes: Vec<gio::SignalSubscription>,
    closed: Option<SignalHandlerId>,
}

/// Follows `names` on `connection`: `changed(index, has_owner)` for the first answer for
/// each name, and for each change after it. `what` names the watch in the log.
pub fn follow(
    what: &'static str,
    connection: &gio::DBusConnection,
    names: &'static [&'static str],
    changed: Rc<dyn Fn(usize, bool)>,
) -> Owners {
    let mut changes = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let answered = Rc::new(Cell::new(false));
        let (on_signal, signal_answered) = (changed.clone(), answered.clone());
        changes.push(connection.subscribe_to_signal(
            Some(BUS_NAME),
            Some(BUS_NAME),
            Some("NameOwnerChanged"),
            Some(BUS_PATH),
            Some(name),
            gio::DBusSignalFlags::NONE,
            move |signal| {
                let owners = signal.parameters.get::<(String, String, String)>();
                if let (true, Some((_, _, new_owner))) = (signal_answered.get(), owners) {
                    on_signal(index, !new_owner.is_empty());
                }
            },
        ));
        let on_answer = changed.clone();
        connection.call(
            Some(BUS_NAME),
            BUS_PATH,
            BUS_NAME,
            "GetNameOwner",
            Some(&(*name,).to_variant()),
            None,
            gio::DBusCallFlags::NONE,
            -1,
            None::<&gio::Cancellable>,
            move |result: Result<glib::Variant, glib::Error>| {
                answered.set(true);
                // No owner is an error reply (NameHasNoOwner).
                on_answer(index, result.is_ok());
            },
        );
    }
    // Emitted in the main context the connection was made in: the main loop's.
    let closed = connection.connect_local("closed", false, move |_| {
        tracing::warn!("{what}: the bus closed the connection; hidden");
        for index in 0..names.len() {
            changed(index, false);
        }
        None
    });
    Owners {
        connection: connection.clone(),
        _changes: changes,
        closed: Some(closed),
    }
}

impl Drop for Owners {
    fn drop(&mut self) {
        if let Some(closed) = self.closed.take() {
            self.connection.disconnect(closed);
        }
    }
}
