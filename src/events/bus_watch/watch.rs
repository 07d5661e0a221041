//! The watch of one [`BusService`]: its names' owners, its signals, its state.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::rc::{Rc, Weak};

use gtk4::gio;
use gtk4::glib::prelude::*;
use gtk4::glib::{self, Variant};

use super::{call, connect, tell_next_turn, Bus, BusService, InUse, PROPERTIES};
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
    /// The objects whose properties are being read ([`BusService::unread`]).
    reading: HashSet<String>,
    /// Stops watching the names' owners (gio's watcher id has no public name).
    unwatch: Vec<Box<dyn FnOnce()>>,
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
            reading: HashSet::new(),
            unwatch: Vec::new(),
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
        for unwatch in inner.unwatch.drain(..) {
            unwatch();
        }
    }
}

fn connected<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, connection: gio::DBusConnection) {
    let weak = Rc::downgrade(inner_rc);
    let mut unwatch: Vec<Box<dyn FnOnce()>> = Vec::new();
    let mut signals = Vec::new();
    for (index, name) in T::NAMES.iter().enumerate() {
        let (appeared, vanished) = (weak.clone(), weak.clone());
        let watcher = gio::bus_watch_name_on_connection(
            &connection,
            name,
            gio::BusNameWatcherFlags::NONE,
            move |_, _, _| owner_changed(&appeared, index, true),
            move |_, _| owner_changed(&vanished, index, false),
        );
        unwatch.push(Box::new(move || gio::bus_unwatch_name(watcher)));
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
    inner.unwatch = unwatch;
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
        T::on_signal(state, member, path, args)
    };
    if changed {
        read_objects(&inner_rc, index);
        queue_change(&inner_rc);
    }
}

/// Reads the properties of the objects the state names but has not read, each once.
fn read_objects<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, index: usize) {
    let (connection, paths) = {
        let mut inner = inner_rc.borrow_mut();
        let (Some(connection), Some(state)) = (inner.connection.clone(), inner.state.as_ref())
        else {
            return;
        };
        let mut paths = T::unread(state);
        paths.retain(|path| inner.reading.insert(path.clone()));
        (connection, paths)
    };
    let args = (T::OBJECT_INTERFACE,).to_variant();
    for path in paths {
        let weak = Rc::downgrade(inner_rc);
        let at = path.clone();
        let done = move |result: Result<Variant, glib::Error>| {
            let Some(inner_rc) = weak.upgrade() else {
                return;
            };
            {
                let mut inner = inner_rc.borrow_mut();
                if !inner.reading.remove(&path) || inner.in_use() != Some(index) {
                    return;
                }
                let properties = match &result {
                    Ok(reply) => Some(reply.child_value(0)),
                    Err(err) => {
                        let (log, service) = (T::LOG, T::SERVICE);
                        tracing::debug!("{log}: {service} did not give {path}: {}", err.message());
                        None
                    }
                };
                let Some(state) = inner.state.as_mut() else {
                    return;
                };
                T::read_object(state, &path, properties.as_ref());
            }
            // An object that went is gone from the state; one the service was too slow
            // to give comes back with the whole state, read again.
            if result.is_err_and(|err| err.matches(gio::IOErrorEnum::TimedOut)) {
                retry_read(&inner_rc, index);
            }
            read_objects(&inner_rc, index);
            queue_change(&inner_rc);
        };
        call(
            &connection,
            T::NAMES[index],
            &at,
            PROPERTIES,
            "GetAll",
            Some(&args),
            Some("(a{sv})"),
            done,
        );
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
