//! One item on the bus: its properties fetched with `GetAll` (with a timeout), fetched
//! again when it signals a change (`NewIcon`, `NewStatus`, `NewTitle`, `NewToolTip`,
//! `NewAttentionIcon`…), at most one fetch at a time.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gtk4::gio;
use gtk4::glib;
use gtk4::prelude::*;

use super::bus::FETCH_TIMEOUT_MS;
use super::props;
use crate::events::tray::{ItemAddress, ItemState};

pub const ITEM_INTERFACE: &str = "org.kde.StatusNotifierItem";

pub struct Item {
    pub address: ItemAddress,
    /// `None` until the first fetch answered: an item that never answers is not shown.
    pub state: RefCell<Option<ItemState>>,
    fetching: Cell<bool>,
    /// A change was signalled during a fetch: fetch again after it.
    stale: Cell<bool>,
    signals: RefCell<Option<gio::SignalSubscription>>,
}

impl Item {
    /// Follows the item at `address`; `on_change` runs after each fetch that answered.
    pub fn follow(
        connection: &gio::DBusConnection,
        address: ItemAddress,
        icon_size: u32,
        on_change: Rc<dyn Fn(&ItemAddress)>,
    ) -> Rc<Item> {
        let item = Rc::new(Item {
            address,
            state: RefCell::new(None),
            fetching: Cell::new(false),
            stale: Cell::new(false),
            signals: RefCell::new(None),
        });
        let weak = Rc::downgrade(&item);
        let on_signal = on_change.clone();
        let subscription = connection.subscribe_to_signal(
            Some(&item.address.bus_name),
            Some(ITEM_INTERFACE),
            None,
            Some(&item.address.path),
            None,
            gio::DBusSignalFlags::NONE,
            move |signal| {
                if let Some(item) = weak.upgrade() {
                    item.fetch(signal.connection, icon_size, on_signal.clone());
                }
            },
        );
        item.signals.replace(Some(subscription));
        item.fetch(connection, icon_size, on_change);
        item
    }

    fn fetch(
        self: &Rc<Self>,
        connection: &gio::DBusConnection,
        icon_size: u32,
        on_change: Rc<dyn Fn(&ItemAddress)>,
    ) {
        if self.fetching.replace(true) {
            self.stale.set(true);
            return;
        }
        let weak = Rc::downgrade(self);
        let again = connection.clone();
        connection.call(
            Some(&self.address.bus_name),
            &self.address.path,
            "org.freedesktop.DBus.Properties",
            "GetAll",
            Some(&(ITEM_INTERFACE,).to_variant()),
            glib::VariantTy::new("(a{sv})").ok(),
            gio::DBusCallFlags::NO_AUTO_START,
            FETCH_TIMEOUT_MS,
            None::<&gio::Cancellable>,
            move |result| {
                let Some(item) = weak.upgrade() else {
                    return;
                };
                item.fetching.set(false);
                match result {
                    Ok(reply) => {
                        let state = props::item_state(&props::first_arg(&reply), icon_size);
                        item.state.replace(Some(state));
                        on_change(&item.address);
                    }
                    Err(err) => tracing::debug!(
                        "tray: {} does not give its properties: {}",
                        item.address.to_item_string(),
                        err.message()
                    ),
                }
                if item.stale.replace(false) {
                    item.fetch(&again, icon_size, on_change);
                }
            },
        );
    }
}
