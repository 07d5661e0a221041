//! D-Bus values into the core's plain types: an item's `GetAll` answer into an
//! [`ItemState`], a dbusmenu layout into a [`MenuEntry`] tree. Values of the wrong type
//! are skipped; every count is bounded before anything is copied.

use gtk4::glib;
use gtk4::glib::{Variant, VariantTy};

use crate::events::tray::item::clean_text;
use crate::events::tray::menu::Prop;
use crate::events::tray::pixmap::{self, Pixmap};
use crate::events::tray::{ItemState, MenuBudget, MenuEntry, Status};

/// An item with more properties than this is not read further.
const MAX_PROPERTIES: usize = 64;

fn has_type(value: &Variant, ty: &str) -> bool {
    VariantTy::new(ty).is_ok_and(|ty| value.is_type(ty))
}

/// `a{sv}`'s entries as (key, unboxed value), at most `limit` of them.
fn entries(dict: &Variant, limit: usize) -> impl Iterator<Item = (String, Variant)> + '_ {
    let count = if has_type(dict, "a{sv}") {
        dict.n_children().min(limit)
    } else {
        0
    };
    (0..count).filter_map(move |i| {
        let entry = dict.child_value(i);
        let key = entry.child_value(0).str()?.to_owned();
        let value = entry.child_value(1).as_variant()?;
        Some((key, value))
    })
}

/// The `a(iiay)` pixmap nearest `size` pixels; `None` if none is valid.
fn pixmap(value: &Variant, size: u32) -> Option<Pixmap> {
    if !has_type(value, "a(iiay)") {
        return None;
    }
    let count = value.n_children().min(pixmap::MAX_CANDIDATES);
    let sizes: Vec<(i32, i32, usize)> = (0..count)
        .map(|i| {
            let image = value.child_value(i);
            let side = |n| image.child_value(n).get::<i32>().unwrap_or(0);
            // `n_children` of an `ay` is its length, without copying the bytes.
            (side(0), side(1), image.child_value(2).n_children())
        })
        .collect();
    let index = pixmap::pick(&sizes, size)?;
    let image = value.child_value(index);
    let bytes = image.child_value(2).data_as_bytes();
    let (width, height, _) = sizes[index];
    Pixmap::from_argb(width, height, &bytes)
        .map_err(|err| tracing::debug!("tray: icon pixmap refused: {err}"))
        .ok()
}

/// An item's `org.kde.StatusNotifierItem` properties (`GetAll`'s `a{sv}`).
pub fn item_state(props: &Variant, icon_size: u32) -> ItemState {
    let mut state = ItemState::default();
    for (key, value) in entries(props, MAX_PROPERTIES) {
        let text = || value.str().map(clean_text);
        match key.as_str() {
            "Id" => state.id = text().unwrap_or_default(),
            "Title" => state.title = text().unwrap_or_default(),
            "Status" => state.status = Status::parse(value.str().unwrap_or("")),
            "IconName" => state.set_icon_name(value.str().unwrap_or("")),
            "AttentionIconName" => state.set_attention_icon_name(value.str().unwrap_or("")),
            "IconThemePath" => state.set_icon_theme_path(value.str().unwrap_or("")),
            "IconPixmap" => state.icon_pixmap = pixmap(&value, icon_size),
            "AttentionIconPixmap" => state.attention_pixmap = pixmap(&value, icon_size),
            "ItemIsMenu" => state.item_is_menu = value.get::<bool>().unwrap_or(false),
            "Menu" if has_type(&value, "o") => {
                state.menu = value.str().filter(|p| *p != "/").map(str::to_owned);
            }
            "ToolTip" if has_type(&value, "(sa(iiay)ss)") => {
                state.tooltip_title = value
                    .child_value(2)
                    .str()
                    .map(clean_text)
                    .unwrap_or_default();
                state.tooltip_text = value
                    .child_value(3)
                    .str()
                    .map(clean_text)
                    .unwrap_or_default();
            }
            _ => {}
        }
    }
    state
}

/// `GetLayout`'s `(u(ia{sv}av))` answer as a tree; `None` if it is no layout.
pub fn menu_layout(reply: &Variant) -> Option<(MenuEntry, bool)> {
    if !has_type(reply, "(u(ia{sv}av))") {
        return None;
    }
    let mut budget = MenuBudget::default();
    let root = menu_entry(&reply.child_value(1), 0, &mut budget)?;
    Some((root, budget.cut))
}

/// One `(ia{sv}av)` node and, within the budget, its children (each boxed in a `v`).
fn menu_entry(node: &Variant, depth: usize, budget: &mut MenuBudget) -> Option<MenuEntry> {
    if !has_type(node, "(ia{sv}av)") {
        return None;
    }
    let mut entry = MenuEntry::new(node.child_value(0).get::<i32>()?);
    for (key, value) in entries(&node.child_value(1), MAX_PROPERTIES) {
        let prop = if let Some(text) = value.str() {
            Prop::Str(text)
        } else if let Some(on) = value.get::<bool>() {
            Prop::Bool(on)
        } else if let Some(number) = value.get::<i32>() {
            Prop::Int(number)
        } else {
            continue;
        };
        entry.set(&key, prop);
    }
    let children = node.child_value(2);
    for i in 0..children.n_children() {
        if !budget.admit(depth + 1) {
            break;
        }
        let child = children.child_value(i).as_variant();
        if let Some(child) = child.and_then(|c| menu_entry(&c, depth + 1, budget)) {
            entry.children.push(child);
        }
    }
    Some(entry)
}

/// The reply's `a{sv}` (`GetAll`'s single argument).
pub fn first_arg(reply: &Variant) -> Variant {
    reply
        .try_child_value(0)
        .unwrap_or_else(|| glib::VariantDict::new(None).end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use glib::prelude::*;
    use std::collections::HashMap;

    fn dict(entries: &[(&str, Variant)]) -> Variant {
        let map: HashMap<String, Variant> = entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        map.to_variant()
    }

    #[test]
    fn item_properties_of_the_wrong_type_are_skipped() {
        let green = [255u8, 0, 255, 0].repeat(4);
        let pixmaps = vec![
            (16i32, 16i32, vec![0u8; 7]),
            (i32::MAX, 1, vec![0u8; 4]),
            (2, 2, green),
        ];
        let state = item_state(
            &dict(&[
                ("Title", "App".to_variant()),
                ("Status", 7i32.to_variant()),
                ("IconName", true.to_variant()),
                ("IconPixmap", pixmaps.to_variant()),
                ("Menu", "/not/an/object/path/type".to_variant()),
                ("ToolTip", "plain string".to_variant()),
            ]),
            16,
        );
        assert_eq!(state.title, "App");
        assert_eq!(state.status, Status::Active);
        assert_eq!(state.icon_name, "");
        assert_eq!(state.menu, None, "a string is no object path");
        assert_eq!(state.tooltip(), "App");
        let pixmap = state.icon_pixmap.expect("the one valid pixmap");
        assert_eq!((pixmap.width, pixmap.height), (2, 2));
        assert_eq!(&pixmap.rgba[..4], [0, 255, 0, 255]);
        assert_eq!(item_state(&7u32.to_variant(), 16), ItemState::default());
    }

    fn node(id: i32, label: &str, children: Vec<Variant>) -> Variant {
        // A `Variant` inside a tuple would be boxed (`v`): build the struct from its
        // parts. `Vec<Variant>` is an `av`, each child boxed once, as dbusmenu sends them.
        let props = dict(&[("label", label.to_variant())]);
        Variant::tuple_from_iter([id.to_variant(), props, children.to_variant()])
    }

    #[test]
    fn layouts_are_cut_to_depth_and_checked_for_type() {
        let mut deep = node(20, "Deep 20", Vec::new());
        for level in (1..20).rev() {
            deep = node(level, &format!("Deep {level}"), vec![deep]);
        }
        let root = node(0, "", vec![deep, (1i32, "wrong").to_variant()]);
        let reply = Variant::tuple_from_iter([1u32.to_variant(), root]);
        let (tree, cut) = menu_layout(&reply).expect("a layout");
        assert!(cut);
        assert_eq!(
            tree.describe(),
            "Deep 1>(Deep 2>(Deep 3>(Deep 4>(Deep 5>(Deep 6)))))",
            "the child of the wrong type is skipped"
        );
        assert!(menu_layout(&(1u32, 2i32).to_variant()).is_none());
    }
}
