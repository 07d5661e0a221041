//! Waybar's `menu`, `menu-file` and `menu-actions` on any module: carried together, the
//! file's path as ringbar reads it (`~/` and `$HOME/` are the home folder).

use serde_json::{Map, Value as Json};
use toml::{Table, Value};

use crate::modules::import::Carried;
use crate::modules::menu::Menu;

/// `key`, one of [`Menu::KEYS`], of a module's `settings`: all three at `menu`, nothing
/// more to say at the others.
pub(super) fn carry(key: &str, settings: &Map<String, Json>) -> Carried {
    if key != "menu" {
        return match settings.contains_key("menu") {
            true => Carried::Set(Vec::new()),
            // Waybar makes no menu without the click that opens it.
            false => Carried::NotNeeded,
        };
    }
    let Some(click) = settings.get("menu").and_then(Json::as_str) else {
        return Carried::Refused("`menu` names a click (\"on-click\"…)".to_owned());
    };
    let Some(file) = settings.get("menu-file").and_then(Json::as_str) else {
        return Carried::Refused("a menu needs its `menu-file`".to_owned());
    };
    let file = match file_as_ringbar_reads_it(file) {
        Ok(file) => file,
        Err(why) => return Carried::Refused(why),
    };
    let actions: Table = settings
        .get("menu-actions")
        .and_then(Json::as_object)
        .map(|actions| {
            let commands = actions.iter().filter_map(|(id, command)| {
                Some((id.clone(), Value::String(command.as_str()?.to_owned())))
            });
            commands.collect()
        })
        .unwrap_or_default();
    let mut carried = vec![
        ("menu".to_owned(), Value::String(click.to_owned())),
        ("menu-file".to_owned(), Value::String(file)),
    ];
    if !actions.is_empty() {
        carried.push(("menu-actions".to_owned(), Value::Table(actions)));
    }
    Carried::Set(carried)
}

/// Waybar expands the path as a shell word, from the folder it was started in (the home
/// folder, for a bar the session starts); ringbar reads `~/` and `$HOME/`, and takes a
/// relative path from its config folder.
fn file_as_ringbar_reads_it(file: &str) -> Result<String, String> {
    let home_relative = ["~/", "$HOME/", "${HOME}/"];
    let rest = home_relative
        .iter()
        .find_map(|prefix| file.strip_prefix(prefix))
        .unwrap_or(file);
    if rest.contains('$') || rest.starts_with('~') {
        return Err(format!(
            "{file:?}: ringbar reads `~/` and `$HOME/` in a menu-file path, no other \
             variable; write the path in full"
        ));
    }
    match file.starts_with('/') || rest.len() < file.len() {
        true => Ok(file.to_owned()),
        false => Ok(format!("~/{file}")),
    }
}

/// The keys of `table` in the units ringbar's parser reads them: the menu keys together,
/// every other key alone.
pub(super) fn units(table: Table) -> Vec<Table> {
    let (menu, others): (Table, Table) = table
        .into_iter()
        .partition(|(key, _)| Menu::KEYS.contains(&key.as_str()));
    let alone = others.into_iter().map(|entry| Table::from_iter([entry]));
    let menu = (!menu.is_empty()).then_some(menu);
    alone.chain(menu).collect()
}
