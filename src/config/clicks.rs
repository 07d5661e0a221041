//! A module table's click keys (`on-click`…) and menu keys (`menu`…), taken out of it so
//! that the module reads the rest: every module takes them, whatever its own settings.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::rc::Rc;

use serde::Deserialize;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

use super::rotate::Located;
use crate::modules::menu::{self, Menu};
use crate::modules::Clicks;

/// The menu keys as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MenuKeys {
    menu: String,
    #[serde(rename = "menu-file")]
    file: String,
    #[serde(default, rename = "menu-actions")]
    actions: BTreeMap<String, String>,
}

/// The click and menu keys of `table` (a relative `menu-file` is taken from the folder of
/// `config_path`); when they do not read, where they are and why.
pub(super) fn take(
    table: &mut Spanned<DeValue<'_>>,
    config_path: &Path,
) -> Result<Clicks, Located> {
    let menu = take_menu(table, config_path)?;
    let mut clicks = take_click_keys(table)?;
    clicks.menu = menu.map(Rc::new);
    Ok(clicks)
}

fn take_click_keys(table: &mut Spanned<DeValue<'_>>) -> Result<Clicks, Located> {
    let DeValue::Table(keys) = table.get_mut() else {
        return Ok(Clicks::default());
    };
    let mut taken = DeTable::new();
    let mut span: Option<std::ops::Range<usize>> = None;
    for key in Clicks::KEYS {
        if let Some((key, value)) = keys.remove_entry(key) {
            let at = key.span().start.min(value.span().start)..value.span().end;
            span = Some(span.map_or(at.clone(), |s| s.start.min(at.start)..s.end.max(at.end)));
            taken.insert(key, value);
        }
    }
    let Some(span) = span else {
        return Ok(Clicks::default());
    };
    let value = Spanned::new(span.clone(), DeValue::Table(taken));
    Clicks::deserialize(ValueDeserializer::from(value)).map_err(|err| {
        let at = err.span().unwrap_or(span);
        (at, err.message().to_owned())
    })
}

fn take_menu(
    table: &mut Spanned<DeValue<'_>>,
    config_path: &Path,
) -> Result<Option<Menu>, Located> {
    let DeValue::Table(keys) = table.get_mut() else {
        return Ok(None);
    };
    let mut taken = DeTable::new();
    let mut spans: Vec<(&str, Range<usize>)> = Vec::new();
    for key in Menu::KEYS {
        if let Some((key, value)) = keys.remove_entry(key) {
            spans.push((
                Menu::KEYS
                    .into_iter()
                    .find(|k| *k == key.get_ref().as_ref())
                    .unwrap_or(""),
                key.span().start..value.span().end,
            ));
            taken.insert(key, value);
        }
    }
    let Some(span) = spans
        .iter()
        .map(|(_, s)| s.clone())
        .reduce(|a, b| a.start.min(b.start)..a.end.max(b.end))
    else {
        return Ok(None);
    };
    let value = Spanned::new(span.clone(), DeValue::Table(taken));
    let written = MenuKeys::deserialize(ValueDeserializer::from(value))
        .map_err(|err| (err.span().unwrap_or(span.clone()), err.message().to_owned()))?;
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let config_dir = config_path.parent().unwrap_or(Path::new("."));
    let file = menu::file_path(&written.file, home.as_deref(), config_dir);
    Menu::new(&written.menu, &file, written.actions)
        .map(Some)
        .map_err(|(key, why)| {
            let at = spans
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(span, |(_, s)| s.clone());
            (at, format!("`{key}`: {why}"))
        })
}

#[cfg(test)]
mod tests {
    use crate::modules::{Action, Button};

    const MENU: &str = "<interface><object class=\"GtkMenu\" id=\"menu\">\
        <child><object class=\"GtkMenuItem\" id=\"off\"><property name=\"label\">Off</property></object></child>\
        </object></interface>";

    fn parse_in(dir: &std::path::Path, text: &str) -> Result<crate::config::Config, String> {
        crate::config::parse(text, &dir.join("config.toml")).map_err(|err| err.to_string())
    }

    #[test]
    fn any_module_and_a_script_module_open_their_menu_beside_their_click_commands() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("power.xml"), MENU).expect("write");
        let text = "modules_right = [\"clock\", \"custom/power\"]\n\
                    [clock]\nmenu = \"on-click-right\"\nmenu-file = \"power.xml\"\n\
                    on-click-right = \"notify-send menu\"\n\
                    [clock.menu-actions]\noff = \"poweroff\"\n\
                    [custom.power]\nformat = \"P\"\nmenu = \"on-click\"\nmenu-file = \"power.xml\"\n";
        let config = parse_in(dir.path(), text).expect("valid");
        let [clock, power] = &config.modules.right[..] else {
            panic!("two modules");
        };
        let Some(Action::Menu(menu)) = clock.action(Button::Right) else {
            panic!("the clock's right click opens its menu");
        };
        assert_eq!(menu.command("off"), Some("poweroff"));
        // Waybar runs the button's command too.
        assert_eq!(clock.command(Button::Right), Some("notify-send menu"));
        assert!(!matches!(clock.action(Button::Left), Some(Action::Menu(_))));
        let Some(Action::Menu(menu)) = power.action(Button::Left) else {
            panic!("the script module's left click opens its menu");
        };
        assert_eq!(menu.describe(), "~Off");
    }

    #[test]
    fn a_wrong_menu_key_is_reported_at_its_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("power.xml"), MENU).expect("write");
        let wrong = |keys: &str| {
            let text = format!("modules_right = [\"clock\"]\n[clock]\n{keys}");
            parse_in(dir.path(), &text).expect_err(keys)
        };
        let missing = wrong("menu = \"on-click\"\nmenu-file = \"gone.xml\"\n");
        assert!(
            missing.contains(":4:") && missing.contains("gone.xml"),
            "{missing}"
        );
        let click = wrong("menu = \"on-double-click\"\nmenu-file = \"power.xml\"\n");
        assert!(
            click.contains(":3:") && click.contains("single click"),
            "{click}"
        );
        let typo = wrong(
            "menu = \"on-click\"\nmenu-file = \"power.xml\"\n[clock.menu-actions]\nof = \"x\"\n",
        );
        assert!(typo.contains("\"of\" is no entry's id"), "{typo}");
        let no_file = wrong("menu = \"on-click\"\n");
        assert!(no_file.contains("menu-file"), "{no_file}");
    }
}
