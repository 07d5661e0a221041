//! The order of the workspace buttons, as Waybar's workspace modules name it: `sort-by`
//! (`default`, `number`, `name`, `id`, `special-centered`), and `custom-sort`, names put
//! first in the order given (a name matches whole or by its part after `:`, as sway
//! users name `1:web` by `web`). The default is the compositor's display order: numbered
//! workspaces by number, then named ones, then special ones.

use std::cmp::Ordering;

use serde::Deserialize;

use crate::events::compositor::{display_order, Workspace};

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SortBy {
    /// Numbers, then names, then special workspaces.
    #[default]
    Default,
    /// Waybar's `number`: the default order, which sorts numbered workspaces by number.
    Number,
    /// By name, as text.
    Name,
    /// By the compositor's id (Hyprland's special workspaces have negative ones).
    Id,
    /// The default order, with the special workspaces in the middle of the others.
    SpecialCentered,
}

/// How the buttons are ordered: the module's `sort-by` and `custom-sort`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Order<'a> {
    pub by: SortBy,
    pub custom: &'a [String],
}

impl Order<'_> {
    /// Whether the compositor's display order is kept as it is.
    pub fn is_display_order(&self) -> bool {
        matches!(self.by, SortBy::Default | SortBy::Number) && self.custom.is_empty()
    }

    /// Puts `list` in this order; `workspace` gives each item's workspace.
    pub fn sort<T>(&self, list: &mut [T], workspace: impl Fn(&T) -> &Workspace) {
        list.sort_by(|a, b| {
            let (a, b) = (workspace(a), workspace(b));
            self.custom_first(a, b).then_with(|| match self.by {
                SortBy::Name => a.name.cmp(&b.name),
                SortBy::Id => a.id.cmp(&b.id),
                _ => display_order(a, b),
            })
        });
        if self.by == SortBy::SpecialCentered {
            center_special(list, workspace);
        }
    }

    /// Names in `custom-sort` come first, in its order.
    fn custom_first(&self, a: &Workspace, b: &Workspace) -> Ordering {
        let place = |w: &Workspace| {
            let short = w.name.split_once(':').map_or(w.name.as_str(), |(_, s)| s);
            self.custom.iter().position(|n| *n == w.name || n == short)
        };
        match (place(a), place(b)) {
            (Some(a), Some(b)) => a.cmp(&b),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
}

/// Moves the special workspaces, which the display order puts last, to the middle of
/// the others.
fn center_special<T>(list: &mut [T], workspace: impl Fn(&T) -> &Workspace) {
    // The specials to the end, each kept in its order, then rotated into the middle.
    list.sort_by_key(|t| workspace(t).special);
    let (len, normal) = (
        list.len(),
        list.iter().filter(|t| !workspace(t).special).count(),
    );
    list[normal / 2..].rotate_right(len - normal);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(id: i64, name: &str, special: bool) -> Workspace {
        Workspace {
            id,
            name: name.to_owned(),
            special,
            ..Workspace::default()
        }
    }

    fn names(order: &Order, mut list: Vec<Workspace>) -> Vec<String> {
        order.sort(&mut list, |w| w);
        list.into_iter().map(|w| w.name).collect()
    }

    fn list() -> Vec<Workspace> {
        vec![
            ws(10, "10", false),
            ws(-98, "special:term", true),
            ws(2, "2", false),
            ws(-1337, "mail", false),
            ws(1, "1", false),
            ws(3, "3:chat", false),
        ]
    }

    #[test]
    fn each_sort_by_orders_as_waybar_names_it() {
        let by = |by: SortBy| Order { by, custom: &[] };
        let default = ["1", "2", "3:chat", "10", "mail", "special:term"];
        assert_eq!(names(&by(SortBy::Default), list()), default);
        assert_eq!(names(&by(SortBy::Number), list()), default);
        assert!(by(SortBy::Number).is_display_order());
        assert_eq!(
            names(&by(SortBy::Name), list()),
            ["1", "10", "2", "3:chat", "mail", "special:term"]
        );
        assert_eq!(
            names(&by(SortBy::Id), list()),
            ["mail", "special:term", "1", "2", "3:chat", "10"]
        );
        assert_eq!(
            names(&by(SortBy::SpecialCentered), list()),
            ["1", "2", "special:term", "3:chat", "10", "mail"]
        );
        assert!(!by(SortBy::Name).is_display_order());
    }

    #[test]
    fn custom_sort_puts_its_names_first_whole_or_after_the_colon() {
        let custom = ["mail".to_owned(), "chat".to_owned(), "nowhere".to_owned()];
        let order = Order {
            by: SortBy::Default,
            custom: &custom,
        };
        assert_eq!(
            names(&order, list()),
            ["mail", "3:chat", "1", "2", "10", "special:term"]
        );
        assert!(!order.is_display_order());
    }

    #[test]
    fn centering_copes_with_no_special_and_only_special_workspaces() {
        let order = Order {
            by: SortBy::SpecialCentered,
            custom: &[],
        };
        assert_eq!(names(&order, vec![ws(1, "1", false)]), ["1"]);
        assert_eq!(
            names(&order, vec![ws(-98, "special:a", true)]),
            ["special:a"]
        );
        assert!(names(&order, Vec::new()).is_empty());
    }
}
