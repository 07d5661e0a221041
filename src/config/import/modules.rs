//! Waybar's modules into ringbar's: the names, and the settings whose meaning matches.

use std::path::Path;

use serde_json::{Map, Value as Json};
use toml::{Table, Value};

use super::keys::{self, kind_of, Kind};
use crate::modules::import::Carried;
use crate::modules::ModuleKind;

/// Whether Waybar's module `name` becomes one of ringbar's.
pub fn has_counterpart(name: &str) -> bool {
    kind_of(name).is_some()
}

/// The converted modules, their tables and the one interval of the monitor modules.
#[derive(Default)]
pub struct Layout {
    /// Waybar's names on the module lists, converted or not.
    pub listed: Vec<String>,
    /// The ringbar names they became, each once.
    pub ringbar_names: Vec<String>,
    /// Waybar's names converted so far, with what each became: listed again, the same.
    pub(super) converted: Vec<(String, String)>,
    pub(super) tables: Vec<(String, Table)>,
    /// The shortest `interval` of the sampled modules, in ms.
    pub interval_ms: Option<u32>,
    /// The groups being converted, outermost first (a group may not list itself).
    pub(super) within: Vec<String>,
}

impl Layout {
    /// One of Waybar's module lists, converted; notes for the modules left out.
    pub fn convert_list(
        &mut self,
        names: &[Json],
        bar: &Map<String, Json>,
        notes: &mut Vec<String>,
    ) -> Vec<Value> {
        let mut list = Vec::new();
        for name in names.iter().filter_map(Json::as_str) {
            self.listed.push(name.to_owned());
            let again = self.converted.iter().find(|(waybar, _)| waybar == name);
            let ringbar = match again {
                Some((_, ringbar)) => Some(ringbar.clone()),
                None if name.starts_with("group/") => self.convert_group(name, bar, notes),
                None => self.convert(name, bar, notes),
            };
            let Some(ringbar) = ringbar else {
                continue;
            };
            self.converted.push((name.to_owned(), ringbar.clone()));
            list.push(Value::String(ringbar));
        }
        list
    }

    fn convert(
        &mut self,
        name: &str,
        bar: &Map<String, Json>,
        notes: &mut Vec<String>,
    ) -> Option<String> {
        let Some(kind) = kind_of(name) else {
            let base = name.split_once('#').map_or(name, |(base, _)| base);
            let why = match name.split_once('/').map(|(prefix, _)| prefix) {
                Some("river") => "ringbar does not speak River's protocols yet",
                Some("dwl") => "ringbar does not speak dwl's protocol yet",
                _ if base == "cava" => {
                    "its spectrum needs an audio capture and FFT of its own inside the bar, and no library in Debian gives one; cava itself can feed a `custom/` module with its raw output"
                }
                _ => "no ringbar module yet",
            };
            notes.push(format!("`{name}`: {why}; left out"));
            return None;
        };
        let (base, id) = name
            .split_once('#')
            .map_or((name, None), |(b, i)| (b, Some(i)));
        let ringbar = match (&kind, id) {
            (Kind::Script, None) => name.to_owned(),
            (Kind::Script, Some(_)) => {
                notes.push(format!(
                    "`{name}`: ringbar's script modules have no instances; left out"
                ));
                return None;
            }
            (Kind::Module(kind), id) => {
                // The name the module goes by: Waybar's where its style knows the module
                // by it (`pulseaudio`), else ringbar's (`sway/workspaces` → `workspaces`).
                let listed = match (kind.make)(base, None) {
                    Ok(module) => module.name().to_owned(),
                    Err(_) => kind.name.to_owned(),
                };
                id.map_or(listed.clone(), |id| format!("{listed}#{id}"))
            }
        };
        if self.ringbar_names.contains(&ringbar) {
            notes.push(format!(
                "`{name}`: another Waybar module already became it; left out"
            ));
            return None;
        }
        let empty = Map::new();
        let settings = bar.get(name).and_then(Json::as_object).unwrap_or(&empty);
        let table = self.settings(&kind, name, settings, notes);
        // Waybar's custom module with neither a script nor a format shows no text, and
        // so nothing at all (a name listed but never configured, or an empty table).
        let shows_something = |table: &Table| {
            table.contains_key("exec")
                || table
                    .get("format")
                    .and_then(Value::as_str)
                    .is_some_and(|f| !f.is_empty())
        };
        if matches!(kind, Kind::Script) && !shows_something(&table) {
            notes.push(format!(
                "`{name}`: neither `exec` nor a `format`, so Waybar shows nothing for it; left out"
            ));
            return None;
        }
        let table = checked(&ringbar, table, notes);
        if matches!(kind, Kind::Script) && table.is_none() {
            return None;
        }
        if let Some(table) = table.filter(|t| !t.is_empty()) {
            self.tables.push((ringbar.clone(), table));
        }
        self.ringbar_names.push(ringbar.clone());
        Some(ringbar)
    }

    /// The module's settings that carry over.
    fn settings(
        &mut self,
        kind: &Kind,
        name: &str,
        settings: &Map<String, Json>,
        notes: &mut Vec<String>,
    ) -> Table {
        let mut table = Table::new();
        for (key, value) in settings {
            let carried = keys::carried(kind, key, value, settings);
            let why = match carried {
                Carried::Set(settings) => {
                    for (key, value) in settings {
                        merge(&mut table, key, value);
                    }
                    continue;
                }
                Carried::Interval(ms) => {
                    self.interval_ms = Some(self.interval_ms.map_or(ms, |old| old.min(ms)));
                    continue;
                }
                Carried::NotNeeded => "not needed".to_owned(),
                Carried::UnknownField => {
                    let (module, fields) = match kind {
                        Kind::Module(kind) => (
                            kind.name,
                            kind.waybar.as_ref().map_or(&[][..], |w| w.fields),
                        ),
                        Kind::Script => ("script", &[][..]),
                    };
                    let named: Vec<String> = crate::modules::import::unknown_fields(value, fields)
                        .iter()
                        .map(|field| format!("`{{{field}}}`"))
                        .collect();
                    let what = match named.len() {
                        0 => "a field".to_owned(),
                        1 => format!("{}, a field", named[0]),
                        _ => format!("{}, fields", named.join(", ")),
                    };
                    format!(
                        "{what} ringbar's {module} module does not fill (see man 5 ringbar); \
                         not carried over"
                    )
                }
                Carried::Refused(why) => format!("{why}; not carried over"),
                Carried::No => match kind {
                    // A module with Waybar's formats lacks this one only.
                    Kind::Module(kind)
                        if (key.starts_with("format") || key.starts_with("tooltip-format"))
                            && kind
                                .waybar
                                .as_ref()
                                .is_some_and(|w| w.settings.contains(&"format")) =>
                    {
                        format!(
                            "ringbar's {} module has no `{key}` (see man 5 ringbar); not carried over",
                            kind.name
                        )
                    }
                    _ => left_out_reason(key).to_owned(),
                },
            };
            notes.push(format!("`{name}` `{key}`: {why}"));
        }
        if let Kind::Module(ModuleKind {
            waybar: Some(waybar),
            ..
        }) = kind
        {
            for (key, value) in waybar.defaults {
                if !settings.contains_key(*key) {
                    table.insert((*key).to_owned(), Value::Integer(*value));
                }
            }
        }
        table
    }

    /// The module tables into the config: `[cpu]`, `["battery#bat2"]`, `[custom.NAME]`.
    /// ringbar's module tables serve every bar: where bar number `bar` configures a
    /// module unlike an earlier bar, the earlier bar's table is kept, with a note.
    pub fn tables_into(self, root: &mut Table, bar: usize, notes: &mut Vec<String>) {
        for (name, table) in self.tables {
            // `custom/NAME` in [custom.NAME], `group/NAME` in [group.NAME].
            let nested = ["custom", "group"]
                .into_iter()
                .find_map(|kind| Some((kind, name.strip_prefix(kind)?.strip_prefix('/')?)));
            let (holder, key) = match nested {
                Some((kind, own)) => {
                    let tables = root
                        .entry(kind)
                        .or_insert_with(|| Value::Table(Table::new()));
                    let Value::Table(tables) = tables else {
                        continue;
                    };
                    (tables, own.to_owned())
                }
                None => (&mut *root, name.clone()),
            };
            match holder.get(&key) {
                Some(Value::Table(earlier)) if *earlier != table => notes.push(format!(
                    "`{name}` of bar {bar}: its settings differ from an earlier bar's, and \
                     ringbar's module settings serve every bar; the earlier bar's are kept"
                )),
                Some(_) => {}
                None => {
                    holder.insert(key, Value::Table(table));
                }
            }
        }
    }
}

/// Why a setting no module reads is left out.
fn left_out_reason(key: &str) -> &'static str {
    match key {
        "rotate" => "ringbar turns text by 0, 90, 180 or 270 degrees only; not carried over",
        k if k.starts_with("format") || k.starts_with("tooltip-format") => {
            "ringbar draws this module's text and tooltip itself; not carried over"
        }
        k if k.starts_with("on-click") || k.starts_with("on-scroll") => {
            "ringbar's clicks on this module are its own (see man 5 ringbar); not carried over"
        }
        _ => "no ringbar counterpart; not carried over",
    }
}

/// `key = value` into `table`; tables already there take the new one's keys (Waybar's
/// `calendar` block and its older keys each give part of `[clock.calendar]`).
fn merge(table: &mut Table, key: String, value: Value) {
    match (table.get_mut(&key), value) {
        (Some(Value::Table(old)), Value::Table(new)) => {
            for (key, value) in new {
                merge(old, key, value);
            }
        }
        (_, value) => {
            table.insert(key, value);
        }
    }
}

/// The table as far as ringbar's parser takes it: a key that does not read is dropped
/// with a note naming it, never the whole table. `None` for a script module whose
/// `exec` does not read: it has nothing to run.
fn checked(ringbar: &str, table: Table, notes: &mut Vec<String>) -> Option<Table> {
    if reads(ringbar, &table).is_ok() {
        return Some(table);
    }
    let mut kept = Table::new();
    for unit in super::menu::units(table) {
        let keys: Vec<String> = unit.keys().map(|key| format!("`{key}`")).collect();
        match reads(ringbar, &unit) {
            Ok(()) => kept.extend(unit),
            Err(problem) if ringbar.starts_with("custom/") && unit.contains_key("exec") => {
                notes.push(format!("`{ringbar}`: {problem}; left out"));
                return None;
            }
            Err(problem) => notes.push(format!(
                "`{ringbar}` {}: {problem}; not carried over (ringbar's defaults apply)",
                keys.join(", ")
            )),
        }
    }
    // Keys that read alone but not together.
    match reads(ringbar, &kept) {
        Ok(()) => Some(kept),
        Err(problem) if ringbar.starts_with("custom/") => {
            notes.push(format!("`{ringbar}`: {problem}; left out"));
            None
        }
        Err(problem) => {
            notes.push(format!("`{ringbar}`: {problem}; its defaults are used"));
            Some(Table::new())
        }
    }
}

/// Whether ringbar's parser takes `table` as the module `ringbar`'s; else why not.
fn reads(ringbar: &str, table: &Table) -> Result<(), String> {
    let mut root = Table::new();
    let list = Value::Array(vec![Value::String(ringbar.to_owned())]);
    root.insert("modules_right".into(), list);
    let mut holder = Table::new();
    holder.insert(ringbar.to_owned(), Value::Table(table.clone()));
    match ringbar.strip_prefix("custom/") {
        Some(script) => {
            let mut custom = Table::new();
            custom.insert(script.to_owned(), Value::Table(table.clone()));
            root.insert("custom".into(), Value::Table(custom));
        }
        None => root.extend(holder),
    }
    let text = toml::to_string(&root).unwrap_or_default();
    crate::config::parse(&text, Path::new(ringbar))
        .map(|_| ())
        .map_err(|err| err.message)
}
