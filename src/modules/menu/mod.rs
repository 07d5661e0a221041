//! A module's menu, as Waybar's `menu`, `menu-file` and `menu-actions` make it: the
//! click `menu` names pops up the entries of the user's menu file (GtkBuilder XML, read
//! by [`builder_file`]), and choosing an entry runs the command `menu-actions` gives its
//! id. Every module takes these keys, beside its click keys.

mod builder_file;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Button;

/// The largest menu file read.
const MAX_FILE_BYTES: usize = 256 << 10;

/// One line of a menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuEntry {
    Item {
        /// The id the file gives it: the key of its command in `menu-actions`.
        id: Option<String>,
        /// With `_` mnemonics, as GTK's menus take them (`__` is a plain underscore).
        label: String,
        enabled: bool,
        submenu: Option<Vec<MenuEntry>>,
    },
    Separator,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    /// The click that opens it.
    pub button: Button,
    pub entries: Vec<MenuEntry>,
    /// An entry's id → the shell command choosing it runs.
    actions: BTreeMap<String, String>,
}

impl Menu {
    /// The keys, as a module's table and Waybar's config name them.
    pub const KEYS: [&str; 3] = ["menu", "menu-file", "menu-actions"];

    /// The menu `menu-file` describes, opened by the click `open_on` names
    /// (`on-click`…), its entries running `actions`. Each fails with its key and why.
    pub fn new(
        open_on: &str,
        file: &Path,
        actions: BTreeMap<String, String>,
    ) -> Result<Menu, (&'static str, String)> {
        let button = button_of(open_on).map_err(|why| ("menu", why))?;
        let read = crate::config::user_file::read(file, MAX_FILE_BYTES)
            .and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other));
        let xml = read.map_err(|err| ("menu-file", format!("{}: {err}", file.display())))?;
        let entries = builder_file::parse(&xml)
            .map_err(|why| ("menu-file", format!("{}: {why}", file.display())))?;
        let menu = Menu {
            button,
            entries,
            actions,
        };
        if let Some(unknown) = menu.actions.keys().find(|id| !menu.has_item(id)) {
            let why = format!("{unknown:?} is no entry's id in {}", file.display());
            return Err(("menu-actions", why));
        }
        Ok(menu)
    }

    /// The command of the entry `id`, if it has one.
    pub fn command(&self, id: &str) -> Option<&str> {
        self.actions.get(id).map(String::as_str)
    }

    fn has_item(&self, id: &str) -> bool {
        fn within(entries: &[MenuEntry], id: &str) -> bool {
            entries.iter().any(|entry| match entry {
                MenuEntry::Item {
                    id: found, submenu, ..
                } => found.as_deref() == Some(id) || within(submenu.as_deref().unwrap_or(&[]), id),
                MenuEntry::Separator => false,
            })
        }
        within(&self.entries, id)
    }

    /// The entries as one line, for the tests: `Label` (`~Label` where it runs nothing
    /// or is disabled), `---` for a separator, `Label>(…)` for a submenu, `|` between.
    #[cfg(any(test, feature = "test-support"))]
    pub fn describe(&self) -> String {
        self.describe_entries(&self.entries)
    }

    #[cfg(any(test, feature = "test-support"))]
    fn describe_entries(&self, entries: &[MenuEntry]) -> String {
        let line = |entry: &MenuEntry| match entry {
            MenuEntry::Separator => "---".to_owned(),
            MenuEntry::Item {
                label,
                submenu: Some(submenu),
                ..
            } => format!("{label}>({})", self.describe_entries(submenu)),
            MenuEntry::Item {
                id, label, enabled, ..
            } => {
                let runs = *enabled && id.as_deref().is_some_and(|id| self.command(id).is_some());
                format!("{}{label}", if runs { "" } else { "~" })
            }
        };
        entries.iter().map(line).collect::<Vec<_>>().join("|")
    }
}

/// `menu`'s value: the click, as Waybar names it. A release opens on the press here;
/// double and triple clicks are not told apart from a single one, so they are refused.
fn button_of(name: &str) -> Result<Button, String> {
    let click = name.strip_suffix("-release").unwrap_or(name);
    match click {
        "on-click" => Ok(Button::Left),
        "on-click-middle" => Ok(Button::Middle),
        "on-click-right" => Ok(Button::Right),
        "on-click-backward" => Ok(Button::Back),
        "on-click-forward" => Ok(Button::Forward),
        _ if click.starts_with("on-double-click") || click.starts_with("on-triple-click") => Err(
            format!("{name:?}: ringbar opens a menu on a single click (on-click, on-click-middle, on-click-right…)"),
        ),
        _ => Err(format!(
            "{name:?} is no click: on-click, on-click-middle, on-click-right, on-click-backward or on-click-forward"
        )),
    }
}

/// A `menu-file` path as written: `~/` and `$HOME/` are the home folder; a relative
/// path is taken from `config_dir`.
pub fn file_path(written: &str, home: Option<&Path>, config_dir: &Path) -> PathBuf {
    let under_home = written
        .strip_prefix("~/")
        .or_else(|| written.strip_prefix("$HOME/"))
        .or_else(|| written.strip_prefix("${HOME}/"));
    match (under_home, home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => config_dir.join(written),
    }
}
