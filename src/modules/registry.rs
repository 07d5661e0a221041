//! Every module ringbar has, one entry each: its name, how it is made from its table,
//! and what Waybar calls it and how Waybar's settings for it carry over. The config's
//! module lists, `check`, `import-waybar` and the monitor's report sections all read it.
//!
//! Adding a module: its file or folder in `modules/` with its [`ModuleKind`], and its
//! `mod` line and its line in `REGISTRY`, both in `modules/mod.rs`.

use std::rc::Rc;

use super::clicks::Clicks;
use super::import::Waybar;
use super::module::{Module, Table};
use super::{listed, REGISTRY};
use crate::events::compositor;
use crate::sample::readings::{Reader, Roots, WhileShown};

/// Makes a module from its table; the name is the one listed (`disk` or `disk#home`).
pub type Make = fn(&str, Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error>;

/// A kind of module.
pub struct ModuleKind {
    /// Its name in the config's module lists and its table's (`[cpu]`).
    pub name: &'static str,
    pub make: Make,
    /// What Waybar calls it, and how Waybar's settings for it carry over; `None` for a
    /// module Waybar has no counterpart of.
    pub waybar: Option<Waybar>,
}

/// The names of all modules, for messages.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|kind| kind.name)
}

/// Waybar's names that ringbar reads as its own modules' (`pulseaudio` → `audio`), and
/// those the compositor backends give for theirs (`sway/workspaces` → `workspaces`).
pub fn aliases() -> impl Iterator<Item = (&'static str, &'static str)> {
    let own = REGISTRY.iter().flat_map(|kind| {
        let names = kind.waybar.as_ref().map_or(&[][..], |w| w.names);
        names
            .iter()
            .filter(|n| **n != kind.name)
            .map(|n| (*n, kind.name))
    });
    own.chain(compositor::registry::waybar_modules())
}

/// The kind of module Waybar calls `name` (`pulseaudio`, `sway/workspaces`, `cpu`).
pub fn by_waybar_name(name: &str) -> Option<&'static ModuleKind> {
    let own = REGISTRY.iter().find(|kind| {
        kind.waybar
            .as_ref()
            .is_some_and(|w| w.names.contains(&name))
    });
    own.or_else(|| {
        let (_, ours) = compositor::registry::waybar_modules().find(|(n, _)| *n == name)?;
        REGISTRY
            .iter()
            .find(|kind| kind.name == ours && kind.waybar.is_some())
    })
}

/// The kind of a listed name: `battery` for `battery#bat2`, `audio` for `pulseaudio`.
fn kind_of(name: &str) -> Option<&'static ModuleKind> {
    let kind = listed::split(name).map_or(name, |(kind, _)| kind);
    REGISTRY
        .iter()
        .find(|k| k.name == kind)
        .or_else(|| by_waybar_name(kind))
}

/// Whether `name` is a module, an instance of one (`battery#bat2`), or a Waybar name of
/// one (`pulseaudio`).
pub fn is_module(name: &str) -> bool {
    kind_of(name).is_some()
}

/// Whether the module `name` reads Waybar's `key` itself (`media` its `max-length`).
pub fn reads_own(name: &str, key: &str) -> bool {
    let waybar = kind_of(name).and_then(|kind| kind.waybar.as_ref());
    waybar.is_some_and(|waybar| waybar.settings.contains(&key))
}

/// Whether `name` is a script module, `custom/NAME`.
pub fn is_custom(name: &str) -> bool {
    name.strip_prefix("custom/").is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// Makes the module `name` (or the instance `KIND#ID` of one, or a module by its Waybar
/// name) from its table; `None` for a name no module has.
pub fn make(name: &str, table: Table<'_>) -> Option<Result<Rc<dyn Module>, toml::de::Error>> {
    make_listed(name, table, Clicks::default())
}

/// [`make`], with the user's commands for clicks and scrolls over the module's own.
pub fn make_listed(
    name: &str,
    table: Table<'_>,
    clicks: Clicks,
) -> Option<Result<Rc<dyn Module>, toml::de::Error>> {
    let kind = kind_of(name)?;
    Some((kind.make)(name, table).map(|module| listed::wrap(name, clicks, module)))
}

/// The readers of `modules`, one per module name (the first wins); then, for each
/// module whose reading is a section of the monitor's report and that is not listed, its
/// reader, taken only while the report shows.
pub fn readers_of<'a>(
    modules: impl Iterator<Item = &'a Rc<dyn Module>>,
    roots: &Roots,
) -> Vec<Box<dyn Reader>> {
    let mut readers: Vec<Box<dyn Reader>> = Vec::new();
    for module in modules {
        if let Some(reader) = module.reader(roots) {
            if !readers.iter().any(|r| r.key() == reader.key()) {
                readers.push(reader);
            }
        }
    }
    for kind in REGISTRY {
        let listed = |key: &str| listed::split(key).map_or(key, |(k, _)| k) == kind.name;
        if readers.iter().any(|r| listed(r.key())) {
            continue;
        }
        let Ok(module) = (kind.make)(kind.name, None) else {
            continue;
        };
        if let (true, Some(reader)) = (module.reading_in_report(), module.reader(roots)) {
            readers.push(Box::new(WhileShown(reader)));
        }
    }
    readers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_belongs_to_one_module_and_makes_it() {
        let mut seen: Vec<&str> = Vec::new();
        for kind in REGISTRY {
            let waybar = kind.waybar.as_ref().map_or(&[][..], |w| w.names);
            let compositors = compositor::registry::waybar_modules()
                .filter(|(_, ours)| *ours == kind.name)
                .map(|(name, _)| name);
            let names: Vec<&str> = std::iter::once(kind.name)
                .chain(waybar.iter().copied())
                .chain(compositors)
                .collect();
            for name in &names {
                assert!(!seen.contains(name) || *name == kind.name, "{name} twice");
                seen.push(name);
                let made = make(name, None).expect("a module").expect("its defaults");
                assert!(made.name() == *name || made.name() == kind.name, "{name}");
                let instance = format!("{name}#second");
                let made = make(&instance, None).expect("an instance").expect("valid");
                assert_eq!(made.name(), instance);
            }
        }
        assert!(make("cffi/player", None).is_none(), "no such module");
        assert!(make("sway/cpu", None).is_none());
    }

    /// The bar takes `tooltip` (and `max-length`) out of a module's table unless the
    /// module says it reads the key itself: a module whose own settings take the key
    /// must say so, or its setting would never reach it.
    #[test]
    fn a_module_that_takes_a_label_key_itself_says_so() {
        for kind in REGISTRY {
            for (key, value) in [
                ("tooltip", "false"),
                ("max-length", "5"),
                ("cursor", "true"),
            ] {
                let text = format!("{{ {key} = {value} }}");
                let table = toml::de::ValueDeserializer::parse(&text).expect("TOML");
                let made = (kind.make)(kind.name, Some(table));
                assert!(
                    made.is_err() || reads_own(kind.name, key),
                    "{} reads `{key}` itself but does not list it",
                    kind.name
                );
            }
        }
    }

    #[test]
    fn waybar_names_are_read_as_the_modules_they_name() {
        let aliases: Vec<_> = aliases().collect();
        for expected in [
            ("pulseaudio", "audio"),
            ("wireplumber", "audio"),
            ("mpris", "media"),
            ("sway/workspaces", "workspaces"),
            ("hyprland/window", "window"),
            ("niri/workspaces", "workspaces"),
            ("niri/window", "window"),
            ("niri/language", "language"),
            ("wayfire/workspaces", "workspaces"),
            ("wayfire/window", "window"),
            ("hyprland/submap", "mode"),
            ("power-profiles-daemon", "power_profile"),
        ] {
            assert!(aliases.contains(&expected), "{expected:?} in {aliases:?}");
        }
        assert!(!aliases.iter().any(|(alias, of)| alias == of));
        let name = |waybar| by_waybar_name(waybar).map(|kind| kind.name);
        assert_eq!(name("cpu"), Some("cpu"));
        assert_eq!(name("sway/language"), Some("language"));
        assert_eq!(name("gpu"), None, "ringbar's own, not Waybar's");
    }
}
