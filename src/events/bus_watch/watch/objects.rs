//! The objects a state names, read one by one ([`BusService::unread`]): UPower's
//! devices, which it lists but whose properties it gives only object by object.

use std::cell::RefCell;
use std::rc::Rc;

use gtk4::gio;
use gtk4::glib::prelude::*;
use gtk4::glib::{self, Variant};

use super::{queue_change, retry_read, Inner};
use crate::events::bus_watch::{call, BusService, PROPERTIES};

/// Reads the properties of the objects the state names but has not read, each once.
pub(super) fn read_objects<T: BusService>(inner_rc: &Rc<RefCell<Inner<T>>>, index: usize) {
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
