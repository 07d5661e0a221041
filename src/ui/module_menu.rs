//! A module's own menu (`menu`, `menu-file`, `menu-actions`) as a GTK `PopoverMenu` on
//! the module: one action per entry with a command, separators as sections. Choosing an
//! entry runs its command, detached, as a click's command runs.

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gio, glib};

use crate::modules::menu::{Menu, MenuEntry};

/// The action group's prefix in the menu model's action names.
const GROUP: &str = "module-menu";

/// Pops up `menu` on `anchor`, for the module `module` (named in the log of a command).
pub fn open(menu: &Menu, anchor: &gtk::Widget, module: &str) {
    let actions = gio::SimpleActionGroup::new();
    let mut count = 0;
    let model = model(menu, &menu.entries, &actions, module, &mut count);
    let popover = gtk::PopoverMenu::from_model(Some(&model));
    popover.insert_action_group(GROUP, Some(&actions));
    popover.set_parent(anchor);
    popover.set_has_arrow(false);
    popover.add_css_class("module-menu");
    popover.connect_closed(|popover| {
        // Unparenting inside the closed handler would pull the popover out from under
        // GTK's own handling of the close: do it once that has finished.
        let popover = popover.clone();
        glib::idle_add_local_once(move || popover.unparent());
    });
    popup_when_built(&popover);
    #[cfg(feature = "test-support")]
    if let Some(hook) = crate::ui::test_hook::TestHook::from_env() {
        hook.write_module_menu(&menu.describe());
    }
}

/// Pops up `popover` once GTK has built its sections: it adds their separators on an idle
/// of its own, and a popover shown before that is measured without them, one row too short
/// (the last entry cut off behind a scroll bar).
pub(super) fn popup_when_built(popover: &gtk::PopoverMenu) {
    let popover = popover.downgrade();
    glib::idle_add_local_full(glib::Priority::LOW, move || {
        if let Some(popover) = popover.upgrade().filter(|p| p.parent().is_some()) {
            popover.popup();
        }
        glib::ControlFlow::Break
    });
}

/// `entries` as a menu, a section per run between separators; `count` numbers the
/// actions across submenus.
fn model(
    menu: &Menu,
    entries: &[MenuEntry],
    actions: &gio::SimpleActionGroup,
    module: &str,
    count: &mut usize,
) -> gio::Menu {
    let sections = gio::Menu::new();
    let mut section = gio::Menu::new();
    for entry in entries {
        let (id, label, enabled, submenu) = match entry {
            MenuEntry::Separator => {
                if section.n_items() > 0 {
                    sections.append_section(None, &section);
                    section = gio::Menu::new();
                }
                continue;
            }
            MenuEntry::Item {
                id,
                label,
                enabled,
                submenu,
            } => (id, label, *enabled, submenu),
        };
        if let Some(submenu) = submenu {
            let inner = model(menu, submenu, actions, module, count);
            section.append_submenu(Some(label), &inner);
            continue;
        }
        *count += 1;
        let name = format!("e{count}");
        let action = gio::SimpleAction::new(&name, None);
        let command = id.as_deref().and_then(|id| menu.command(id));
        action.set_enabled(enabled && command.is_some());
        if let Some(command) = command {
            let (command, module) = (command.to_owned(), module.to_owned());
            action.connect_activate(move |_, _| {
                crate::events::script::runner::run_detached(&module, &command);
            });
        }
        actions.add_action(&action);
        section.append(Some(label), Some(&format!("{GROUP}.{name}")));
    }
    if section.n_items() > 0 {
        sections.append_section(None, &section);
    }
    sections
}
