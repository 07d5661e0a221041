//! A `com.canonical.dbusmenu` layout (`GetLayout`'s `(ia{sv}av)`) as a plain tree. The
//! edge walks the D-Bus value, asks a [`MenuBudget`] before each entry, and sets each
//! entry's properties through [`MenuEntry::set`].

use super::item::clean_text;

/// Submenus deeper than this are cut off.
pub const MAX_DEPTH: usize = 6;
/// Entries beyond this many in one menu are dropped.
pub const MAX_ENTRIES: usize = 512;
/// Labels longer than this are cut.
const MAX_LABEL: usize = 256;

/// A property value as dbusmenu sends it; anything else is ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prop<'a> {
    Str(&'a str),
    Bool(bool),
    Int(i32),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Toggle {
    #[default]
    None,
    Check(bool),
    Radio(bool),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuEntry {
    pub id: i32,
    /// With `_` mnemonics, as GTK menus take them (`__` is a literal underscore).
    pub label: String,
    pub separator: bool,
    pub enabled: bool,
    pub visible: bool,
    toggle_type: ToggleType,
    toggle_on: bool,
    pub children: Vec<MenuEntry>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ToggleType {
    #[default]
    None,
    Check,
    Radio,
}

impl MenuEntry {
    /// An entry with the spec's defaults: a visible, enabled, empty standard item.
    pub fn new(id: i32) -> MenuEntry {
        MenuEntry {
            id,
            label: String::new(),
            separator: false,
            enabled: true,
            visible: true,
            toggle_type: ToggleType::None,
            toggle_on: false,
            children: Vec::new(),
        }
    }

    /// Sets one property; unknown keys and values of the wrong type change nothing.
    pub fn set(&mut self, key: &str, value: Prop<'_>) {
        match (key, value) {
            ("type", Prop::Str(kind)) => self.separator = kind == "separator",
            ("label", Prop::Str(label)) => {
                let mut label = clean_text(label).replace('\n', " ");
                let mut end = label.len().min(MAX_LABEL);
                while !label.is_char_boundary(end) {
                    end -= 1;
                }
                label.truncate(end);
                self.label = label;
            }
            ("enabled", Prop::Bool(on)) => self.enabled = on,
            ("visible", Prop::Bool(on)) => self.visible = on,
            ("toggle-type", Prop::Str(kind)) => {
                self.toggle_type = match kind {
                    "checkmark" => ToggleType::Check,
                    "radio" => ToggleType::Radio,
                    _ => ToggleType::None,
                }
            }
            // 1 is on, 0 off, anything else "indeterminate", shown as off.
            ("toggle-state", Prop::Int(state)) => self.toggle_on = state == 1,
            _ => {}
        }
    }

    pub fn toggle(&self) -> Toggle {
        match self.toggle_type {
            ToggleType::None => Toggle::None,
            ToggleType::Check => Toggle::Check(self.toggle_on),
            ToggleType::Radio => Toggle::Radio(self.toggle_on),
        }
    }

    /// Whether the entry opens a submenu (`children-display` is advisory; children are
    /// what counts).
    pub fn is_submenu(&self) -> bool {
        !self.children.is_empty()
    }

    /// The visible children.
    pub fn shown_children(&self) -> impl Iterator<Item = &MenuEntry> {
        self.children.iter().filter(|c| c.visible)
    }

    /// The label without mnemonics: `_Open` is `Open`, `a__b` is `a_b`.
    pub fn plain_label(&self) -> String {
        let mut out = String::with_capacity(self.label.len());
        let mut chars = self.label.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '_' {
                if chars.peek() == Some(&'_') {
                    chars.next();
                    out.push('_');
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The tree in one line, for logs and tests: `Open|[x]Mute|Sub>(Deep)|---`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .shown_children()
            .map(|c| {
                let mark = match c.toggle() {
                    Toggle::None => "",
                    Toggle::Check(true) => "[x]",
                    Toggle::Check(false) => "[ ]",
                    Toggle::Radio(true) => "(*)",
                    Toggle::Radio(false) => "( )",
                };
                let disabled = if c.enabled { "" } else { "~" };
                if c.separator {
                    "---".to_owned()
                } else if c.is_submenu() {
                    format!("{disabled}{mark}{}>({})", c.plain_label(), c.describe())
                } else {
                    format!("{disabled}{mark}{}", c.plain_label())
                }
            })
            .collect();
        parts.join("|")
    }
}

/// Bounds one menu's walk: depth and total entries.
#[derive(Debug)]
pub struct MenuBudget {
    entries_left: usize,
    /// Whether anything was cut off, for a log line.
    pub cut: bool,
}

impl Default for MenuBudget {
    fn default() -> Self {
        MenuBudget {
            entries_left: MAX_ENTRIES,
            cut: false,
        }
    }
}

impl MenuBudget {
    /// Whether an entry at `depth` (the root's children are at 1) may be added.
    pub fn admit(&mut self, depth: usize) -> bool {
        if depth > MAX_DEPTH || self.entries_left == 0 {
            self.cut = true;
            return false;
        }
        self.entries_left -= 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: i32, props: &[(&str, Prop<'_>)]) -> MenuEntry {
        let mut entry = MenuEntry::new(id);
        for (key, value) in props {
            entry.set(key, *value);
        }
        entry
    }

    #[test]
    fn properties_with_defaults_and_wrong_types() {
        let plain = entry(1, &[("label", Prop::Str("_Open"))]);
        assert!(plain.enabled && plain.visible && !plain.separator);
        assert_eq!(plain.toggle(), Toggle::None);
        assert_eq!(plain.plain_label(), "Open");
        let check = entry(
            2,
            &[
                ("toggle-state", Prop::Int(1)),
                ("toggle-type", Prop::Str("checkmark")),
                ("enabled", Prop::Bool(false)),
            ],
        );
        assert_eq!(check.toggle(), Toggle::Check(true));
        assert!(!check.enabled);
        let radio = entry(
            3,
            &[
                ("toggle-type", Prop::Str("radio")),
                ("toggle-state", Prop::Int(-1)),
            ],
        );
        assert_eq!(radio.toggle(), Toggle::Radio(false));
        let wrong = entry(
            4,
            &[
                ("enabled", Prop::Str("no")),
                ("label", Prop::Int(5)),
                ("visible", Prop::Int(0)),
                ("bogus", Prop::Bool(true)),
            ],
        );
        assert_eq!(wrong, MenuEntry::new(4));
        assert!(entry(5, &[("type", Prop::Str("separator"))]).separator);
        assert_eq!(
            entry(6, &[("label", Prop::Str("a__b_c"))]).plain_label(),
            "a_bc"
        );
    }

    #[test]
    fn labels_are_cleaned_and_cut() {
        let long = entry(1, &[("label", Prop::Str(&"ü".repeat(1000)))]);
        assert!(long.label.len() <= MAX_LABEL);
        let control = entry(1, &[("label", Prop::Str("a\nb\u{7}c"))]);
        assert_eq!(control.label, "a b c");
    }

    #[test]
    fn the_budget_bounds_depth_and_count() {
        let mut budget = MenuBudget::default();
        assert!(budget.admit(MAX_DEPTH));
        assert!(!budget.cut);
        assert!(!budget.admit(MAX_DEPTH + 1));
        assert!(budget.cut);
        let mut budget = MenuBudget::default();
        let admitted = (0..MAX_ENTRIES + 10).filter(|_| budget.admit(1)).count();
        assert_eq!(admitted, MAX_ENTRIES);
    }

    #[test]
    fn describes_the_visible_tree() {
        let mut root = MenuEntry::new(0);
        let mut sub = entry(3, &[("label", Prop::Str("Sub"))]);
        sub.children.push(entry(4, &[("label", Prop::Str("Deep"))]));
        root.children = vec![
            entry(1, &[("label", Prop::Str("_Open"))]),
            entry(
                2,
                &[
                    ("label", Prop::Str("Mute")),
                    ("toggle-type", Prop::Str("checkmark")),
                ],
            ),
            entry(
                9,
                &[("label", Prop::Str("Gone")), ("visible", Prop::Bool(false))],
            ),
            sub,
            entry(5, &[("type", Prop::Str("separator"))]),
            entry(
                6,
                &[("label", Prop::Str("Off")), ("enabled", Prop::Bool(false))],
            ),
        ];
        assert_eq!(root.describe(), "Open|[ ]Mute|Sub>(Deep)|---|~Off");
    }
}
