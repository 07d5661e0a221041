//! `org.kde.StatusNotifierWatcher`, owned when the session has no watcher yet: it keeps
//! the list of items and hosts, and forgets an item when its owner leaves the bus. While
//! another program's watcher serves the session, this one waits in the bus's queue for
//! the name and takes over if that program goes.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gtk4::gio;
use gtk4::glib;
use gtk4::prelude::*;

use crate::events::tray::ItemAddress;

pub const WATCHER_NAME: &str = "org.kde.StatusNotifierWatcher";
pub const WATCHER_PATH: &str = "/StatusNotifierWatcher";
pub const WATCHER_INTERFACE: &str = "org.kde.StatusNotifierWatcher";

const INTROSPECTION: &str = r#"<node>
 <interface name="org.kde.StatusNotifierWatcher">
  <method name="RegisterStatusNotifierItem"><arg name="service" type="s" direction="in"/></method>
  <method name="RegisterStatusNotifierHost"><arg name="service" type="s" direction="in"/></method>
  <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
  <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
  <property name="ProtocolVersion" type="i" access="read"/>
  <signal name="StatusNotifierItemRegistered"><arg name="service" type="s"/></signal>
  <signal name="StatusNotifierItemUnregistered"><arg name="service" type="s"/></signal>
  <signal name="StatusNotifierHostRegistered"/>
  <signal name="StatusNotifierHostUnregistered"/>
 </interface>
</node>"#;

/// More items than this on one session is a misbehaving client.
const MAX_ITEMS: usize = 128;
const MAX_HOSTS: usize = 16;

struct Registered {
    item: String,
    /// The unique name that registered it; the item goes when it leaves the bus.
    owner: String,
}

pub struct Watcher {
    connection: gio::DBusConnection,
    items: RefCell<Vec<Registered>>,
    hosts: RefCell<Vec<String>>,
    registration: RefCell<Option<gio::RegistrationId>>,
    owner_id: RefCell<Option<gio::OwnerId>>,
    _owners: RefCell<Option<gio::SignalSubscription>>,
}

impl Watcher {
    /// Exports the watcher and asks for its name; `on_ready(owned)` each time the bus says
    /// whether this process has it (else another watcher serves the session).
    pub fn start(
        connection: &gio::DBusConnection,
        on_ready: impl Fn(bool) + 'static,
    ) -> Result<Rc<Watcher>, glib::Error> {
        let watcher = Rc::new(Watcher {
            connection: connection.clone(),
            items: RefCell::new(Vec::new()),
            hosts: RefCell::new(Vec::new()),
            registration: RefCell::new(None),
            owner_id: RefCell::new(None),
            _owners: RefCell::new(None),
        });
        let info = gio::DBusNodeInfo::for_xml(INTROSPECTION)?
            .lookup_interface(WATCHER_INTERFACE)
            .ok_or_else(|| glib::Error::new(gio::IOErrorEnum::Failed, "no interface"))?;
        let weak = Rc::downgrade(&watcher);
        let on_call = weak.clone();
        let on_get = weak.clone();
        let id = connection
            .register_object(WATCHER_PATH, &info)
            .method_call(
                move |_, sender, _, _, method, args, invocation| match on_call.upgrade() {
                    Some(watcher) => watcher.called(sender, method, &args, invocation),
                    None => invocation.return_dbus_error(
                        "org.freedesktop.DBus.Error.Failed",
                        "the watcher is gone",
                    ),
                },
            )
            .property(move |_, _, _, _, property| match on_get.upgrade() {
                Some(watcher) => watcher.property(property),
                None => false.to_variant(),
            })
            .build()?;
        watcher.registration.replace(Some(id));
        watcher
            ._owners
            .replace(Some(follow_owners(connection, weak)));

        let on_ready = Rc::new(on_ready);
        let (acquired, lost) = (on_ready.clone(), on_ready);
        // Queued (no DO_NOT_QUEUE): the name comes to this process when the other goes.
        // The object stays exported meanwhile; clients only reach it through the name.
        let owner_id = gio::bus_own_name_on_connection(
            connection,
            WATCHER_NAME,
            gio::BusNameOwnerFlags::NONE,
            move |_, _| acquired(true),
            move |_, _| lost(false),
        );
        watcher.owner_id.replace(Some(owner_id));
        Ok(watcher)
    }

    fn property(&self, name: &str) -> glib::Variant {
        match name {
            "RegisteredStatusNotifierItems" => {
                let items: Vec<String> =
                    self.items.borrow().iter().map(|r| r.item.clone()).collect();
                items.to_variant()
            }
            "IsStatusNotifierHostRegistered" => (!self.hosts.borrow().is_empty()).to_variant(),
            _ => 0i32.to_variant(),
        }
    }

    fn called(
        &self,
        sender: Option<&str>,
        method: &str,
        args: &glib::Variant,
        invocation: gio::DBusMethodInvocation,
    ) {
        let service = args.child_value(0);
        let (Some(sender), Some(service)) = (sender, service.str()) else {
            return invocation.return_dbus_error(
                "org.freedesktop.DBus.Error.InvalidArgs",
                "no sender or service",
            );
        };
        let result = match method {
            "RegisterStatusNotifierItem" => self.register_item(sender, service),
            "RegisterStatusNotifierHost" => self.register_host(sender),
            _ => Err("no such method"),
        };
        match result {
            Ok(()) => invocation.return_value(None),
            Err(why) => invocation.return_dbus_error("org.freedesktop.DBus.Error.InvalidArgs", why),
        }
    }

    /// `service` is a bus name or, as libappindicator sends, an object path of the sender.
    fn register_item(&self, sender: &str, service: &str) -> Result<(), &'static str> {
        let item = if service.starts_with('/') {
            format!("{sender}{service}")
        } else {
            service.to_owned()
        };
        let address = ItemAddress::parse(&item).ok_or("not a bus name or object path")?;
        let item = address.to_item_string();
        {
            let mut items = self.items.borrow_mut();
            if items.iter().any(|r| r.item == item) {
                return Ok(());
            }
            if items.len() >= MAX_ITEMS {
                return Err("too many items");
            }
            items.push(Registered {
                item: item.clone(),
                owner: sender.to_owned(),
            });
        }
        tracing::debug!("tray watcher: item {item} registered");
        self.emit("StatusNotifierItemRegistered", Some(&(item,).to_variant()));
        Ok(())
    }

    fn register_host(&self, sender: &str) -> Result<(), &'static str> {
        {
            let mut hosts = self.hosts.borrow_mut();
            if hosts.iter().any(|h| h == sender) {
                return Ok(());
            }
            if hosts.len() >= MAX_HOSTS {
                return Err("too many hosts");
            }
            hosts.push(sender.to_owned());
        }
        self.emit("StatusNotifierHostRegistered", None);
        Ok(())
    }

    /// `name` left the bus: its items and its host registration go.
    fn forget(&self, name: &str) {
        let mut gone = Vec::new();
        self.items.borrow_mut().retain(|r| {
            let keep = r.owner != name && !r.item.starts_with(&format!("{name}/"));
            if !keep {
                gone.push(r.item.clone());
            }
            keep
        });
        for item in gone {
            tracing::debug!("tray watcher: item {item} left the bus");
            self.emit(
                "StatusNotifierItemUnregistered",
                Some(&(item,).to_variant()),
            );
        }
        let had = self.hosts.borrow().len();
        self.hosts.borrow_mut().retain(|h| h != name);
        if self.hosts.borrow().len() != had {
            self.emit("StatusNotifierHostUnregistered", None);
        }
    }

    fn emit(&self, signal: &str, args: Option<&glib::Variant>) {
        if let Err(err) =
            self.connection
                .emit_signal(None, WATCHER_PATH, WATCHER_INTERFACE, signal, args)
        {
            tracing::warn!("tray watcher: cannot emit {signal}: {}", err.message());
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        if let Some(id) = self.owner_id.take() {
            gio::bus_unown_name(id);
        }
        if let Some(id) = self.registration.take() {
            let _ = self.connection.unregister_object(id);
        }
    }
}

/// The bus's `NameOwnerChanged`: a name that lost its owner takes its items along.
fn follow_owners(
    connection: &gio::DBusConnection,
    watcher: Weak<Watcher>,
) -> gio::SignalSubscription {
    connection.subscribe_to_signal(
        Some("org.freedesktop.DBus"),
        Some("org.freedesktop.DBus"),
        Some("NameOwnerChanged"),
        Some("/org/freedesktop/DBus"),
        None,
        gio::DBusSignalFlags::NONE,
        move |signal| {
            let Some((name, _old, new)) = signal.parameters.get::<(String, String, String)>()
            else {
                return;
            };
            if let (true, Some(watcher)) = (new.is_empty(), watcher.upgrade()) {
                watcher.forget(&name);
            }
        },
    )
}
