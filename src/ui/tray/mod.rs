//! The tray's D-Bus edge: a StatusNotifierHost on the session bus (owning the watcher
//! when the session has none), its items followed on the glib main loop with gio's async
//! D-Bus calls, and each bar's tray box kept in step. One host serves every bar.
//!
//! gio comes with gtk4-rs and runs on the main loop the bar already has: no second
//! runtime, no thread. Nothing here blocks; every call has a timeout.

mod bus;
mod item;
mod menu;
mod props;
mod view;
mod watcher;

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeMap;
use std::rc::{Rc, Weak};

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gio, glib};

use crate::events::tray::ItemAddress;
use crate::modules::TraySettings;
use item::{Item, ITEM_INTERFACE};
use view::{Click, TrayView};
use watcher::{Watcher, WATCHER_INTERFACE, WATCHER_NAME, WATCHER_PATH};

/// Items beyond this many are not followed.
const MAX_ITEMS: usize = 128;

pub struct TrayHost {
    connection: OnceCell<gio::DBusConnection>,
    watcher: RefCell<Option<Rc<Watcher>>>,
    items: RefCell<BTreeMap<ItemAddress, Rc<Item>>>,
    views: RefCell<Vec<TrayView>>,
    signals: RefCell<Vec<gio::SignalSubscription>>,
    host_name: RefCell<Option<gio::OwnerId>>,
    /// Redraws the test hook's state after a change.
    on_change: Box<dyn Fn()>,
}

impl TrayHost {
    /// Starts the host; `on_change` runs after each change of an item.
    pub(in crate::ui) fn start(on_change: Box<dyn Fn()>) -> Rc<TrayHost> {
        let host = Rc::new(TrayHost {
            connection: OnceCell::new(),
            watcher: RefCell::new(None),
            items: RefCell::new(BTreeMap::new()),
            views: RefCell::new(Vec::new()),
            signals: RefCell::new(Vec::new()),
            host_name: RefCell::new(None),
            on_change,
        });
        let weak = Rc::downgrade(&host);
        let connected = move |connection| {
            if let Some(host) = weak.upgrade() {
                host.connected(connection);
            }
        };
        crate::events::bus_watch::session_bus::connect("tray", connected, || {});
        host
    }

    /// Shows the items in a bar's tray box, and every change to come.
    pub(in crate::ui) fn attach(self: &Rc<Self>, container: &gtk::Box, settings: &TraySettings) {
        let view = TrayView::new(container, settings);
        let weak = Rc::downgrade(self);
        for (address, item) in self.items.borrow().iter() {
            view.show(address, item.state.borrow().as_ref(), &weak);
        }
        let mut views = self.views.borrow_mut();
        views.retain(TrayView::is_alive);
        views.push(view);
    }

    /// Pixmaps are picked for the largest icon size any bar shows.
    fn icon_size(&self) -> u32 {
        let views = self.views.borrow();
        views.iter().map(TrayView::icon_size).max().unwrap_or(16)
    }

    fn connected(self: &Rc<Self>, connection: gio::DBusConnection) {
        let _ = self.connection.set(connection.clone());
        let weak = Rc::downgrade(self);
        let on_ready = move |owned: bool| {
            if let Some(host) = weak.upgrade() {
                if owned {
                    tracing::info!("tray: serving {WATCHER_NAME}");
                } else {
                    tracing::info!("tray: using the session's {WATCHER_NAME}");
                }
                host.register_host();
            }
        };
        match Watcher::start(&connection, on_ready) {
            Ok(watcher) => {
                self.watcher.replace(Some(watcher));
            }
            Err(err) => {
                tracing::warn!("tray: cannot export a watcher: {}", err.message());
                self.register_host();
            }
        }
    }

    /// Registers with whichever watcher serves the session, follows its signals and
    /// takes the items it already has. Items of a previous watcher are dropped: they
    /// register again with the new one, as the specification asks of them.
    fn register_host(self: &Rc<Self>) {
        let Some(connection) = self.connection.get() else {
            return;
        };
        let previous: Vec<ItemAddress> = self.items.borrow_mut().keys().cloned().collect();
        self.items.borrow_mut().clear();
        for address in &previous {
            self.redraw(address);
        }
        let mut signals = self.signals.borrow_mut();
        signals.clear();
        for (member, added) in [
            ("StatusNotifierItemRegistered", true),
            ("StatusNotifierItemUnregistered", false),
        ] {
            let weak = Rc::downgrade(self);
            signals.push(connection.subscribe_to_signal(
                Some(WATCHER_NAME),
                Some(WATCHER_INTERFACE),
                Some(member),
                Some(WATCHER_PATH),
                None,
                gio::DBusSignalFlags::NONE,
                move |signal| {
                    let item = signal.parameters.get::<(String,)>();
                    if let (Some((item,)), Some(host)) = (item, weak.upgrade()) {
                        if added {
                            host.add(&item);
                        } else {
                            host.remove(&item);
                        }
                    }
                },
            ));
        }
        drop(signals);

        let name = format!("org.kde.StatusNotifierHost-{}-1", std::process::id());
        if self.host_name.borrow().is_none() {
            let id = gio::bus_own_name_on_connection(
                connection,
                &name,
                gio::BusNameOwnerFlags::NONE,
                |_, _| {},
                |_, _| {},
            );
            self.host_name.replace(Some(id));
        }
        bus::call_and_forget(
            connection,
            WATCHER_NAME,
            WATCHER_PATH,
            WATCHER_INTERFACE,
            "RegisterStatusNotifierHost",
            (name,).to_variant(),
        );
        let weak = Rc::downgrade(self);
        connection.call(
            Some(WATCHER_NAME),
            WATCHER_PATH,
            "org.freedesktop.DBus.Properties",
            "Get",
            Some(&(WATCHER_INTERFACE, "RegisteredStatusNotifierItems").to_variant()),
            glib::VariantTy::new("(v)").ok(),
            gio::DBusCallFlags::NONE,
            bus::FETCH_TIMEOUT_MS,
            None::<&gio::Cancellable>,
            move |result| {
                let (Some(host), Ok(reply)) = (weak.upgrade(), result) else {
                    return;
                };
                let items = reply.child_value(0).as_variant();
                let items = items
                    .and_then(|v| v.get::<Vec<String>>())
                    .unwrap_or_default();
                for item in items.iter().take(MAX_ITEMS) {
                    host.add(item);
                }
            },
        );
    }

    fn add(self: &Rc<Self>, item: &str) {
        let Some(address) = ItemAddress::parse(item) else {
            tracing::debug!("tray: ignoring item {item:?}: not a bus name and path");
            return;
        };
        let Some(connection) = self.connection.get() else {
            return;
        };
        let mut items = self.items.borrow_mut();
        if items.contains_key(&address) || items.len() >= MAX_ITEMS {
            return;
        }
        tracing::info!("tray: item {item} appeared");
        let weak = Rc::downgrade(self);
        let on_change = Rc::new(move |address: &ItemAddress| {
            if let Some(host) = weak.upgrade() {
                host.redraw(address);
            }
        });
        let followed = Item::follow(connection, address.clone(), self.icon_size(), on_change);
        items.insert(address, followed);
    }

    fn remove(self: &Rc<Self>, item: &str) {
        let Some(address) = ItemAddress::parse(item) else {
            return;
        };
        if self.items.borrow_mut().remove(&address).is_some() {
            tracing::info!("tray: item {item} is gone");
            self.redraw(&address);
        }
    }

    /// Draws the item at `address` on every bar as it is now (or removes it).
    fn redraw(self: &Rc<Self>, address: &ItemAddress) {
        let item = self.items.borrow().get(address).cloned();
        let state = item.as_ref().and_then(|item| item.state.borrow().clone());
        let weak: Weak<TrayHost> = Rc::downgrade(self);
        for view in self.views.borrow().iter() {
            view.show(address, state.as_ref(), &weak);
        }
        (self.on_change)();
    }

    /// A click on an item's icon `widget`.
    fn clicked(&self, address: &ItemAddress, click: Click, widget: &gtk::Widget) {
        let Some(connection) = self.connection.get() else {
            return;
        };
        let item = self.items.borrow().get(address).cloned();
        let Some(state) = item.and_then(|item| item.state.borrow().clone()) else {
            return;
        };
        let menu = state.menu.clone();
        let call = |method: &str, args: glib::Variant| {
            bus::call_and_forget(
                connection,
                &address.bus_name,
                &address.path,
                ITEM_INTERFACE,
                method,
                args,
            );
        };
        // Wayland gives no global pointer position: items get (0, 0).
        match (click, menu) {
            (Click::Activate, Some(menu)) if state.item_is_menu => {
                menu::open(connection, &address.bus_name, &menu, widget)
            }
            (Click::Activate, _) => call("Activate", (0i32, 0i32).to_variant()),
            (Click::SecondaryActivate, _) => call("SecondaryActivate", (0i32, 0i32).to_variant()),
            (Click::Menu, Some(menu)) => menu::open(connection, &address.bus_name, &menu, widget),
            (Click::Menu, None) => call("ContextMenu", (0i32, 0i32).to_variant()),
            (Click::Scroll { delta, vertical }, _) => {
                let orientation = if vertical { "vertical" } else { "horizontal" };
                call("Scroll", (delta, orientation).to_variant());
            }
        }
    }
}
