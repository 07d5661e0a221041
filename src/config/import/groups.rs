//! Waybar's `group/NAME`: its members converted as any listed module, and its
//! `orientation` and `drawer` carried under the same keys (`[group.NAME]`).

use serde_json::{Map, Value as Json};
use toml::{Table, Value};

use super::modules::Layout;
use crate::modules::group::is_group;

/// How deep Waybar's groups are followed.
const MAX_DEPTH: usize = 8;

/// The drawer's keys ringbar reads as Waybar does, and whether each is a number.
const DRAWER_KEYS: [(&str, bool); 7] = [
    ("transition-duration", true),
    ("children-class", false),
    ("transition-left-to-right", false),
    ("click-to-reveal", false),
    ("reveal-by-default", false),
    ("start-expanded", false),
    ("reveal-delay", true),
];

impl Layout {
    /// A listed group, its members converted; `None` when it is left out.
    pub(super) fn convert_group(
        &mut self,
        name: &str,
        bar: &Map<String, Json>,
        notes: &mut Vec<String>,
    ) -> Option<String> {
        if !is_group(name) {
            notes.push(format!(
                "`{name}`: a ringbar group's name is letters, digits, `-` and `_`; left out"
            ));
            return None;
        }
        if self.within.iter().any(|outer| outer == name) || self.within.len() >= MAX_DEPTH {
            notes.push(format!(
                "`{name}`: lists itself or nests too deep; left out"
            ));
            return None;
        }
        let empty = Map::new();
        let settings = bar.get(name).and_then(Json::as_object).unwrap_or(&empty);
        let members = settings
            .get("modules")
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        self.within.push(name.to_owned());
        let modules = self.convert_list(&members, bar, notes);
        self.within.pop();
        let mut table = Table::new();
        table.insert("modules".into(), Value::Array(modules));
        for (key, value) in settings {
            match key.as_str() {
                "modules" => {}
                "orientation" => match value.as_str() {
                    Some(way @ ("inherit" | "orthogonal" | "horizontal" | "vertical")) => {
                        table.insert(key.clone(), Value::String(way.to_owned()));
                    }
                    _ => notes.push(format!(
                        "`{name}` `orientation` {value}: not inherit, orthogonal, horizontal \
                         or vertical; not carried over"
                    )),
                },
                "drawer" => {
                    let drawer = drawer(name, value, notes);
                    table.insert(key.clone(), Value::Table(drawer));
                }
                _ => notes.push(format!(
                    "`{name}` `{key}`: no ringbar counterpart; not carried over"
                )),
            }
        }
        self.tables.push((name.to_owned(), table));
        self.ringbar_names.push(name.to_owned());
        Some(name.to_owned())
    }
}

/// Waybar's `drawer`: the keys ringbar has, each of the type Waybar reads.
fn drawer(group: &str, value: &Json, notes: &mut Vec<String>) -> Table {
    let mut table = Table::new();
    let Some(settings) = value.as_object() else {
        notes.push(format!(
            "`{group}` `drawer` {value}: not an object; a drawer with Waybar's defaults"
        ));
        return table;
    };
    for (key, value) in settings {
        let Some((_, number)) = DRAWER_KEYS.iter().find(|(k, _)| k == key) else {
            notes.push(format!(
                "`{group}` drawer `{key}`: no ringbar counterpart; not carried over"
            ));
            continue;
        };
        let carried = match (number, value) {
            (true, Json::Number(n)) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(|n| Value::Integer(i64::from(n))),
            (false, Json::Bool(b)) => Some(Value::Boolean(*b)),
            (false, Json::String(s)) if key == "children-class" => Some(Value::String(s.clone())),
            _ => None,
        };
        match carried {
            Some(carried) => {
                table.insert(key.clone(), carried);
            }
            None => notes.push(format!(
                "`{group}` drawer `{key}` {value}: not what Waybar reads there; not carried over"
            )),
        }
    }
    table
}
