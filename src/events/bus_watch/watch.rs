//! The watch of one [`BusService`]: its names' owners, its signals, its state.

mod objects;
mod owners;

use objects::read_objects;

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::{Rc, Weak};

use gtk4::gio;
use gtk4::glib::{self, Variant};

use super::{call, connect, tell_next_turn, Bus, BusService, InUse};
use crate::events::source::{OnChange, Watch};
use crate::events::EventState;

struct Inner<T: BusService> {
    connection: Option<gio::DBusConnection>,
    /// Which of the service's names have an owner now…
    present: Vec<bool>,
    /// …and which the bus has answered for: absence is told once all are known.
    known: Vec<bool>,
    /// `None` while the service is not there.
    state: Option<T::State>,
    signals: Vec<gio::SignalSubscription>,
    /// A read of the whole state after a stale one is on its way…
    rereading: bool,
    /// …and another is due after it.
    reread_queued: bool,
    /// The objects whose properties are being read ([`BusService::unread`]).
    reading: HashSet<String>,
    /// Follows the names' owners while kept.
    owners: Option<owners::Owners>,
    /// "Not there" was said, and not since it came.
    absence_logged: bool,
    /// "Did not answer" was said, and the service has not answered since.
    unanswered: bool,
    /// A change is queued for the next turn of the main loop (signals come in bursts).
    queued: Cell<bool>,
    on_change: OnChange<T::State>,
}

impl<T: BusService> Inner<T> {
    /// The name the state comes from: the preferred one that has an owner.
    fn in_use(&self) -> Option<usize> {
        self.present.iter().position(|&present| present)
    }
}

/// Follows a service on D-Bus; dropping it stops.
pub struct BusWatch<T: BusService> {
    inner: Rc<RefCell<Inner<T>>>,
}

impl<T: BusService> Watch<T::State> for BusWatch<T> {
    fn start(
        _: &<T::State as EventState>::Settings,
        on_change: OnChange<T::State>,
    ) -> Option<BusWatch<T>> {
        let inner = Rc::new(RefCell::new(Inner::<T> {
            connection: None,
            present: vec![false; T::NAMES.len()],
            known: vec![false; T::NAMES.len()],
            state: None,
            signals: Vec::new(),
            rereading: false,
            reread_queued: false,
            reading: HashSet::new(),
            owners: None,
            absence_logged: false,
            unanswered: false,
            queued: Cell::new(false),
            on_change,
        }));
        let failed = |inner: &Rc<RefCell<Inner<T>>>| (inner.borrow().on_change)(None);
        connect(T::BUS, T::LOG, &inner, connected::<T>, failed);
        Some(BusWatch { inner })
    }

    fn command(&self, command: &<T::State as EventState>::Command) {
        let inner = self.inner.borrow();
        let (Some(connection), Some(state), Some(index)) =
            (&inner.connection, &inner.state, inner.in_use())
        else {
            return;
        };
        let name = T::NAMES[index];
        T::command(
            &InUse {
                connection,
                name,
                index,
            },
            state,
            command,
        );
    }
}

impl<T: BusService> Drop for BusWatch<T> {
    fn drop(&mut self) {
        let mut inner = self.inner.borrow_mut();
        inner.signals.clear();
        inner.owners = None;
    }
}

fn connected<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, connection: gio::DBusConnection) {
    let weak = Rc::downgrade(inner_rc);
    let changed = weak.clone();
    let changed = Rc::new(move |index, present| owner_changed(&changed, index, present));
    let owners = owners::follow(T::LOG, &connection, T::NAMES, changed);
    let mut signals = Vec::new();
    for (index, name) in T::NAMES.iter().enumerate() {
        for signal in T::signals(index) {
            let (on_signal, member) = (weak.clone(), signal.member);
            signals.push(connection.subscribe_to_signal(
                Some(name),
                Some(signal.interface),
                Some(member),
                signal.path,
                None,
                gio::DBusSignalFlags::NONE,
                move |signal| {
                    signalled(
                        &on_signal,
                        index,
                        member,
                        signal.object_path,
                        signal.parameters,
                    )
                },
            ));
        }
    }
    let mut inner = inner_rc.borrow_mut();
    inner.connection = Some(connection);
    inner.owners = Some(owners);
    inner.signals = signals;
}

/// A name got or lost its owner: read the service now in use, or say it is gone.
fn owner_changed<T: BusService>(weak: &Weak<RefCell<Inner<T>>>, index: usize, present: bool) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let (in_use, all_known) = {
        let mut inner = inner_rc.borrow_mut();
        inner.present[index] = present;
        inner.known[index] = true;
        (inner.in_use(), inner.known.iter().all(|&k| k))
    };
    if present {
        appeared(&inner_rc, index);
    }
    match in_use {
        Some(index) => read_all(&inner_rc, index),
        // Another name may still have an owner: wait for the bus's word on it.
        None if !all_known => {}
        None => {
            {
                let mut inner = inner_rc.borrow_mut();
                if !inner.absence_logged {
                    // Info: a machine without the service is no fault.
                    let bus = match T::BUS {
                        Bus::System => "system",
                        Bus::Session => "session",
                    };
                    tracing::info!("{}: {} is not on the {bus} bus; hidden", T::LOG, T::ABSENT);
                    inner.absence_logged = true;
                }
                inner.state = None;
                inner.reading.clear();
            }
            queue_change(&inner_rc);
        }
    }
}

/// `NAMES[index]` got its owner: the service's [`BusService::on_appear`] call, if any.
fn appeared<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, index: usize) {
    let (Some(connection), Some(ask)) = (inner_rc.borrow().connection.clone(), T::on_appear(index))
    else {
        return;
    };
    let (interface, method) = (ask.interface, ask.method);
    let done = move |result: Result<Variant, glib::Error>| {
        if let Err(err) = result {
            let (log, service) = (T::LOG, T::SERVICE);
            tracing::warn!(
                "{log}: {service} refused {interface}.{method}: {}",
                err.message()
            );
        }
    };
    let args = ask.args.as_ref();
    let name = T::NAMES[index];
    call(
        &connection,
        name,
        ask.path,
        interface,
        method,
        args,
        Some(ask.reply),
        done,
    );
}

/// The whole state again, after a signal that left it stale; once at a time, and once
/// more after that for signals that came meanwhile.
fn read_again<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, index: usize) {
    {
        let mut inner = inner_rc.borrow_mut();
        if inner.rereading {
            inner.reread_queued = true;
            return;
        }
        inner.rereading = true;
    }
    read_all(inner_rc, index);
}

/// The whole state, from the service at `NAMES[index]`.
fn read_all<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, index: usize) {
    let Some(connection) = inner_rc.borrow().connection.clone() else {
        return;
    };
    let weak = Rc::downgrade(inner_rc);
    let read = T::read_call(index);
    let method = read.method;
    let done = move |result: Result<Variant, glib::Error>| {
        let Some(inner_rc) = weak.upgrade() else {
            return;
        };
        let again = {
            let mut inner = inner_rc.borrow_mut();
            inner.rereading = false;
            std::mem::take(&mut inner.reread_queued)
        };
        if again {
            read_again(&inner_rc, index);
        }
        let reply = match result {
            Ok(reply) => reply,
            Err(err) => {
                let mut inner = inner_rc.borrow_mut();
                if !inner.unanswered {
                    let (log, service) = (T::LOG, T::SERVICE);
                    tracing::warn!(
                        "{log}: {service} did not answer {method}: {}; asking again every {} s",
                        err.message(),
                        RETRY.as_secs()
                    );
                    inner.unanswered = true;
                }
                drop(inner);
                retry_read(&inner_rc, index);
                return;
            }
        };
        let state = T::parse(index, &reply);
        {
            let mut inner = inner_rc.borrow_mut();
            // An answer from a name no longer in use is old news.
            if inner.in_use() != Some(index) {
                return;
            }
            if inner.absence_logged {
                tracing::info!("{}: {} is back", T::LOG, T::SERVICE);
            }
            inner.absence_logged = false;
            inner.unanswered = false;
            inner.state = Some(state);
        }
        read_objects(&inner_rc, index);
        queue_change(&inner_rc);
    };
    let name = T::NAMES[index];
    let (path, interface, args) = (read.path, read.interface, read.args.as_ref());
    call(
        &connection,
        name,
        path,
        interface,
        method,
        args,
        Some(read.reply),
        done,
    );
}

/// A service that did not answer the read (stopped, or too busy) is asked again after
/// this long, while it keeps its name: else its state would stay unknown until it
/// restarted.
const RETRY: std::time::Duration = std::time::Duration::from_secs(5);

fn retry_read<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, index: usize) {
    let weak = Rc::downgrade(inner_rc);
    glib::timeout_add_local_once(RETRY, move || {
        let Some(inner_rc) = weak.upgrade() else {
            return;
        };
        let in_use = inner_rc.borrow().in_use();
        if in_use == Some(index) {
            read_all(&inner_rc, index);
        }
    });
}

/// A signal from the service at `NAMES[index]`, onto the state if that one is in use.
fn signalled<T: BusService>(
    weak: &Weak<RefCell<Inner<T>>>,
    index: usize,
    member: &str,
    path: &str,
    args: &Variant,
) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let changed = {
        let mut inner = inner_rc.borrow_mut();
        let in_use = inner.in_use() == Some(index);
        let Some(state) = inner.state.as_mut().filter(|_| in_use) else {
            return;
        };
        let changed = T::on_signal(state, member, path, args);
        if T::stale(state) {
            None
        } else {
            Some(changed)
        }
    };
    let Some(changed) = changed else {
        read_again(&inner_rc, index);
        return;
    };
    if changed {
        read_objects(&inner_rc, index);
        queue_change(&inner_rc);
    }
}

/// One call of `on_change` per burst, on the next turn of the main loop, once no
/// object's read is on its way (a state half read is not told).
fn queue_change<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>) {
    if !inner_rc.borrow().reading.is_empty() {
        return;
    }
    tell_next_turn(
        inner_rc,
        |inner| &inner.queued,
        |inner| {
            if inner.reading.is_empty() {
                (inner.on_change)(inner.state.as_ref());
            }
        },
    );
}
