//! `group/NAME`: modules drawn together in a box of their own, as Waybar's groups are. A
//! group is one entry of a module list; its own `modules` may hold groups too. With a
//! `drawer`, the first entry shows and the rest slide out on hover or on a click.
//! Groups only arrange: every module in them is a module of the bar as any other.

use std::rc::Rc;

use serde::Deserialize;

/// The direction a group lays its entries out in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    /// Across the box it sits in (Waybar's default: a group on a top bar stacks).
    #[default]
    Orthogonal,
    /// As the box it sits in.
    Inherit,
    Horizontal,
    Vertical,
}

impl Orientation {
    /// Whether a group in a box laid out vertically (`outer_vertical`) is vertical.
    pub fn vertical(self, outer_vertical: bool) -> bool {
        match self {
            Orientation::Orthogonal => !outer_vertical,
            Orientation::Inherit => outer_vertical,
            Orientation::Horizontal => false,
            Orientation::Vertical => true,
        }
    }
}

/// A drawer: Waybar's keys and defaults.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct Drawer {
    /// How long the entries take to slide out or in, in ms.
    pub transition_duration: u32,
    /// The class of the entries in the drawer.
    pub children_class: String,
    /// The drawer opens after the first entry (true) or before it.
    pub transition_left_to_right: bool,
    /// A left click on the group opens and closes the drawer, instead of hovering.
    pub click_to_reveal: bool,
    /// With `click-to-reveal`: open at start.
    pub reveal_by_default: bool,
    /// Open at start.
    pub start_expanded: bool,
    /// How long the pointer stays on the group before the drawer opens, in ms.
    pub reveal_delay: u32,
}

impl Default for Drawer {
    fn default() -> Drawer {
        Drawer {
            transition_duration: 500,
            children_class: "drawer-child".to_owned(),
            transition_left_to_right: true,
            click_to_reveal: false,
            reveal_by_default: false,
            start_expanded: false,
            reveal_delay: 0,
        }
    }
}

impl Drawer {
    /// Whether the drawer is open when the bar starts.
    pub fn open_at_start(&self) -> bool {
        self.start_expanded || (self.click_to_reveal && self.reveal_by_default)
    }
}

/// One group, as its table says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// NAME of `group/NAME`: the box's CSS name (`#NAME`), as in Waybar.
    pub name: String,
    pub orientation: Orientation,
    pub drawer: Option<Drawer>,
}

/// An entry of a module list as the bar arranges it.
#[derive(Clone, Debug)]
pub enum Node {
    /// The module at this index of the list's modules.
    Module(usize),
    /// A group and its entries.
    Group(Rc<Group>, Vec<Node>),
}

/// Whether `name` is a group's: `group/` and letters, digits, `-` and `_`.
pub fn is_group(name: &str) -> bool {
    name.strip_prefix("group/").is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}
