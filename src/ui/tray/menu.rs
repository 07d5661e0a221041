//! An item's `com.canonical.dbusmenu` menu as a GTK `PopoverMenu`: `AboutToShow`, then
//! `GetLayout`, turned into a `gio::Menu` with one action per entry (check and radio
//! entries as stateful actions, disabled entries as disabled actions, separators as
//! sections). While it is open, `LayoutUpdated` and `ItemsPropertiesUpdated` rebuild it;
//! choosing an entry sends the item an `Event` "clicked".

use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gio, glib};

use super::bus::{self, FETCH_TIMEOUT_MS};
use super::props;
use crate::events::tray::{MenuEntry, Toggle};

const MENU_INTERFACE: &str = "com.canonical.dbusmenu";
/// The action group's prefix in the menu model's action names.
const GROUP: &str = "dbusmenu";

/// The open menu of an icon, kept on the icon so that removing the icon closes it.
struct OpenMenu {
    popover: gtk::PopoverMenu,
    _updates: Vec<gio::SignalSubscription>,
}

const OPEN_MENU_KEY: &str = "ringbar-tray-menu";

/// Asks the item to prepare its menu, fetches it and pops it up on `anchor`.
pub fn open(connection: &gio::DBusConnection, bus_name: &str, path: &str, anchor: &gtk::Widget) {
    close(anchor);
    bus::call_and_forget(
        connection,
        bus_name,
        path,
        MENU_INTERFACE,
        "AboutToShow",
        (0i32,).to_variant(),
    );
    let popover = gtk::PopoverMenu::from_model(None::<&gio::MenuModel>);
    popover.set_parent(anchor);
    popover.set_has_arrow(false);
    popover.add_css_class("tray-menu");
    let source = Rc::new(Source {
        connection: connection.clone(),
        bus_name: bus_name.to_owned(),
        path: path.to_owned(),
    });
    let updates = ["LayoutUpdated", "ItemsPropertiesUpdated"].map(|member| {
        let (source, popover) = (source.clone(), popover.downgrade());
        connection.subscribe_to_signal(
            Some(bus_name),
            Some(MENU_INTERFACE),
            Some(member),
            Some(path),
            None,
            gio::DBusSignalFlags::NONE,
            move |_| {
                if let Some(popover) = popover.upgrade() {
                    source.fetch(&popover, false);
                }
            },
        )
    });
    popover.connect_closed(|popover| {
        // Unparenting inside the closed handler would pull the popover out from under
        // GTK's own handling of the close: do it once that has finished.
        let popover = popover.clone();
        glib::idle_add_local_once(move || {
            if let Some(parent) = popover.parent() {
                close(&parent);
            }
        });
    });
    let open = OpenMenu {
        popover: popover.clone(),
        _updates: Vec::from(updates),
    };
    // SAFETY: the key is only ever set and taken as `OpenMenu`, here and in `close`.
    unsafe { anchor.set_data(OPEN_MENU_KEY, open) };
    source.fetch(&popover, true);
}

/// Closes and drops the menu open on `anchor`, if any.
pub fn close(anchor: &impl IsA<gtk::Widget>) {
    // SAFETY: the key is only ever set as `OpenMenu` (in `open`).
    let open: Option<OpenMenu> = unsafe { anchor.as_ref().steal_data(OPEN_MENU_KEY) };
    if let Some(open) = open {
        open.popover.popdown();
        open.popover.unparent();
    }
}

struct Source {
    connection: gio::DBusConnection,
    bus_name: String,
    path: String,
}

impl Source {
    /// Fetches the layout into `popover`, popping it up if `popup`.
    fn fetch(self: &Rc<Self>, popover: &gtk::PopoverMenu, popup: bool) {
        let (source, popover) = (self.clone(), popover.downgrade());
        self.connection.call(
            Some(&self.bus_name),
            &self.path,
            MENU_INTERFACE,
            "GetLayout",
            Some(&(0i32, -1i32, Vec::<String>::new()).to_variant()),
            glib::VariantTy::new("(u(ia{sv}av))").ok(),
            gio::DBusCallFlags::NO_AUTO_START,
            FETCH_TIMEOUT_MS,
            None::<&gio::Cancellable>,
            move |result| {
                let Some(popover) = popover.upgrade().filter(|p| p.parent().is_some()) else {
                    return;
                };
                let layout = match result {
                    Ok(reply) => props::menu_layout(&reply),
                    Err(err) => {
                        tracing::debug!(
                            "tray: no menu from {}: {}",
                            source.bus_name,
                            err.message()
                        );
                        None
                    }
                };
                let Some((root, cut)) = layout else {
                    return;
                };
                if cut {
                    tracing::debug!("tray: the menu of {} was cut to size", source.bus_name);
                }
                source.show(&popover, &root);
                if popup {
                    crate::ui::module_menu::popup_when_built(&popover);
                }
            },
        );
    }

    fn show(self: &Rc<Self>, popover: &gtk::PopoverMenu, root: &MenuEntry) {
        let actions = gio::SimpleActionGroup::new();
        let model = self.model(root, &actions);
        popover.insert_action_group(GROUP, Some(&actions));
        popover.set_menu_model(Some(&model));
        #[cfg(feature = "test-support")]
        if let Some(hook) = crate::ui::test_hook::TestHook::from_env() {
            hook.write_menu(&root.describe());
        }
    }

    /// The entries under `parent` as a menu, a section per run between separators.
    fn model(self: &Rc<Self>, parent: &MenuEntry, actions: &gio::SimpleActionGroup) -> gio::Menu {
        let menu = gio::Menu::new();
        let mut section = gio::Menu::new();
        for entry in parent.shown_children() {
            if entry.separator {
                if section.n_items() > 0 {
                    menu.append_section(None, &section);
                    section = gio::Menu::new();
                }
                continue;
            }
            if entry.is_submenu() {
                section.append_submenu(Some(&entry.label), &self.model(entry, actions));
                continue;
            }
            let name = format!("e{}", entry.id);
            let action = match entry.toggle() {
                Toggle::None => gio::SimpleAction::new(&name, None),
                Toggle::Check(on) => gio::SimpleAction::new_stateful(&name, None, &on.to_variant()),
                Toggle::Radio(on) => gio::SimpleAction::new_stateful(
                    &name,
                    Some(glib::VariantTy::STRING),
                    &if on { "on" } else { "off" }.to_variant(),
                ),
            };
            action.set_enabled(entry.enabled);
            let (source, id) = (self.clone(), entry.id);
            action.connect_activate(move |_, _| source.clicked(id));
            actions.add_action(&action);
            let item = gio::MenuItem::new(Some(&entry.label), None);
            match entry.toggle() {
                Toggle::Radio(_) => item.set_action_and_target_value(
                    Some(&format!("{GROUP}.{name}")),
                    Some(&"on".to_variant()),
                ),
                _ => item.set_action_and_target_value(Some(&format!("{GROUP}.{name}")), None),
            }
            section.append_item(&item);
        }
        if section.n_items() > 0 {
            menu.append_section(None, &section);
        }
        menu
    }

    fn clicked(&self, id: i32) {
        let data = glib::Variant::from_variant(&0i32.to_variant());
        bus::call_and_forget(
            &self.connection,
            &self.bus_name,
            &self.path,
            MENU_INTERFACE,
            "Event",
            (id, "clicked", data, 0u32).to_variant(),
        );
    }
}
