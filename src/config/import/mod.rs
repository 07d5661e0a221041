//! `ringbar import-waybar`: a Waybar config (parsed from JSONC, its `include`s merged)
//! into ringbar's config.toml. What carries over with the same meaning is converted;
//! everything else becomes a note, printed on stderr and kept as a comment at the top of
//! the output. The result is checked by ringbar's own parser before it is written.

#[cfg(test)]
mod bar_tests;
#[cfg(test)]
mod group_tests;
mod groups;
mod keys;
mod menu;
#[cfg(test)]
mod module_settings_tests;
mod modules;
mod style;
#[cfg(test)]
mod style_tests;
#[cfg(test)]
mod tests;

use std::path::Path;

use serde_json::{Map, Value as Json};
use toml::{Table, Value};

pub use style::convert_style;

/// The converted config and what did not carry over.
pub struct Import {
    pub toml: String,
    pub notes: Vec<String>,
    /// The ringbar module names of the converted layout (for the style's check).
    pub modules: Vec<String>,
}

/// Waybar's bar keys that have no ringbar counterpart, with the reason.
const BAR_KEYS_LEFT_OUT: [(&str, &str); 9] = [
    ("name", "ringbar's window is `window#ringbar` in style.css"),
    ("mode", "ringbar has no bar modes"),
    ("start_hidden", "ringbar has no hidden state"),
    ("modifier-reset", "ringbar has no bar modes"),
    ("exclusive", "a ringbar bar always reserves its space"),
    ("passthrough", "a ringbar bar always takes input"),
    (
        "gtk-layer-shell",
        "ringbar always uses layer shell where the compositor has it",
    ),
    ("ipc", "ringbar is driven by `ringbar msg`"),
    (
        "reload_style_on_change",
        "ringbar always reloads a changed style.css",
    ),
];

/// Converts `config`, one bar or an array of bars (each a `[[bar]]` table).
pub fn convert(config: &Json) -> Import {
    convert_noted(config, Vec::new())
}

/// [`convert`], after `notes` on what reading the config skipped: they come first.
pub fn convert_noted(config: &Json, notes: Vec<String>) -> Import {
    let mut notes = notes;
    let empty = Map::new();
    let bars: Vec<&Map<String, Json>> = match config {
        Json::Array(bars) => bars.iter().filter_map(Json::as_object).collect(),
        Json::Object(bar) => vec![bar],
        _ => Vec::new(),
    };
    let bars = if bars.is_empty() {
        notes.push("the config holds no bar object; converted as an empty one".to_owned());
        vec![&empty]
    } else {
        bars
    };
    let mut root = Table::new();
    let mut tables = Table::new();
    let mut interval_ms = None;
    let mut converted = Vec::new();
    let mut bar_tables = Vec::new();
    for (index, bar) in bars.iter().enumerate() {
        // One bar's keys go at the top level; each of several bars is a `[[bar]]` table.
        let mut bar_table = Table::new();
        let target = if bars.len() == 1 {
            &mut root
        } else {
            &mut bar_table
        };
        let made = convert_bar(bar, target, &mut notes);
        interval_ms = match (interval_ms, made.interval_ms) {
            (Some(old), Some(new)) => Some(u32::min(old, new)),
            (old, new) => old.or(new),
        };
        for name in &made.ringbar_names {
            if !converted.contains(name) {
                converted.push(name.clone());
            }
        }
        made.tables_into(&mut tables, index + 1, &mut notes);
        if bars.len() > 1 {
            bar_tables.push(Value::Table(bar_table));
        }
    }
    if !bar_tables.is_empty() {
        root.insert("bar".to_owned(), Value::Array(bar_tables));
    }
    if let Some(ms) = interval_ms {
        root.insert("interval_ms".to_owned(), Value::Integer(i64::from(ms)));
    }
    root.extend(tables);
    // Bars configured alike say the same thing once.
    let mut said = Vec::new();
    notes.retain(|note| {
        let first = !said.contains(note);
        said.push(note.clone());
        first
    });
    let body = toml::to_string(&root).unwrap_or_default();
    let mut toml = String::from("# Converted from a Waybar config by `ringbar import-waybar`.\n");
    if !notes.is_empty() {
        toml.push_str("# Not carried over:\n");
        for note in &notes {
            toml.push_str("#   ");
            toml.push_str(&note.replace('\n', " "));
            toml.push('\n');
        }
    }
    toml.push('\n');
    toml.push_str(&body);
    if !toml.ends_with('\n') {
        toml.push('\n');
    }
    if let Err(err) = crate::config::parse(&toml, Path::new("converted config")) {
        notes.push(format!("the converted config does not read back: {err}"));
    }
    Import {
        toml,
        notes,
        modules: converted,
    }
}

/// One Waybar bar's keys and module lists into `target`; its modules' tables are made.
fn convert_bar(
    bar: &Map<String, Json>,
    target: &mut Table,
    notes: &mut Vec<String>,
) -> modules::Layout {
    bar_keys(bar, target, notes);
    let mut made = modules::Layout::default();
    for (waybar_key, ringbar_key) in [
        ("modules-left", "modules_left"),
        ("modules-center", "modules_center"),
        ("modules-right", "modules_right"),
    ] {
        let names = bar
            .get(waybar_key)
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        let list = made.convert_list(&names, bar, notes);
        target.insert(ringbar_key.to_owned(), Value::Array(list));
    }
    for (key, value) in bar {
        let listed = made.listed.iter().any(|n| n == key);
        if !listed && (value.is_object() || is_module_key(key)) {
            notes.push(format!(
                "`{key}`: configured but on no module list; left out"
            ));
        }
    }
    made
}

/// Whether a bar's key is a module's config (`cpu`, `sway/window`, `battery#bat2`).
fn is_module_key(key: &str) -> bool {
    key.contains('/') || key.contains('#') || modules::has_counterpart(key)
}

fn bar_keys(bar: &Map<String, Json>, root: &mut Table, notes: &mut Vec<String>) {
    let vertical = matches!(
        bar.get("position").and_then(Json::as_str),
        Some("left" | "right")
    );
    // Waybar puts no gap between modules unless told.
    root.insert("spacing".into(), Value::Integer(0));
    for (key, value) in bar {
        match key.as_str() {
            "layer" => match value.as_str() {
                Some(layer @ ("background" | "bottom" | "top" | "overlay")) => {
                    root.insert("layer".into(), Value::String(layer.into()));
                }
                _ => notes.push(format!("`layer` {value}: not a layer ringbar knows")),
            },
            "position" => match value.as_str() {
                Some(edge @ ("top" | "bottom" | "left" | "right")) => {
                    root.insert("position".into(), Value::String(edge.into()));
                }
                _ => notes.push(format!(
                    "`position` {value}: ringbar's bar sits at the top, bottom, left or right"
                )),
            },
            "output" => match to_output(value) {
                Some(output) => {
                    root.insert("output".into(), output);
                }
                None => notes.push(format!("`output` {value}: not output names")),
            },
            "width" | "height" => size(key, value, vertical, root, notes),
            "margin-top" | "margin-bottom" | "margin-left" | "margin-right" => {
                match value.as_u64().and_then(|m| i64::try_from(m).ok()) {
                    Some(margin) => {
                        root.insert(key.replace('-', "_"), Value::Integer(margin));
                    }
                    None => notes.push(format!("`{key}` {value}: not a number of pixels")),
                }
            }
            "margin" => margin_shorthand(value, root, notes),
            "spacing" => match value.as_u64().and_then(|s| i64::try_from(s).ok()) {
                Some(spacing) => {
                    root.insert("spacing".into(), Value::Integer(spacing));
                }
                None => notes.push(format!("`spacing` {value}: not a number of pixels")),
            },
            "modules-left" | "modules-center" | "modules-right" | "include" => {}
            // A module's settings: converted with its module.
            _ if value.is_object() => {}
            other => {
                if let Some((_, why)) = BAR_KEYS_LEFT_OUT.iter().find(|(k, _)| *k == other) {
                    notes.push(format!("`{other}`: {why}"));
                } else if !is_module_key(other) {
                    notes.push(format!("`{other}`: no ringbar counterpart"));
                }
            }
        }
    }
}

/// `"output": "DP-1"` or a list of names (`!NAME` leaves one out), as ringbar reads it.
fn to_output(value: &Json) -> Option<Value> {
    match value {
        Json::String(name) => Some(Value::String(name.clone())),
        Json::Array(names) => names
            .iter()
            .map(|n| n.as_str().map(|n| Value::String(n.to_owned())))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        _ => None,
    }
}

/// Waybar's `width` and `height`: the bar's thickness (a top bar's height, a left bar's
/// width) carries over; 0 is Waybar's "as the content needs", as ringbar's default is;
/// the length along the edge has no counterpart, as a ringbar bar spans its output.
fn size(key: &str, value: &Json, vertical: bool, root: &mut Table, notes: &mut Vec<String>) {
    let thickness = (key == "width") == vertical;
    match value.as_u64() {
        Some(0) => {}
        Some(pixels) if !thickness => notes.push(format!(
            "`{key}` {pixels}: a ringbar bar spans its output's {}; not carried over",
            if vertical { "height" } else { "width" }
        )),
        Some(pixels @ 1..=500) => {
            root.insert(key.into(), Value::Integer(pixels as i64));
        }
        _ => notes.push(format!(
            "`{key}` {value}: not 1 to 500 pixels; ringbar's default applies"
        )),
    }
}

/// `"margin": 5` or `"margin": "5 10"`, CSS's shorthand with one to four lengths in
/// pixels.
fn margin_shorthand(value: &Json, root: &mut Table, notes: &mut Vec<String>) {
    let numbers: Option<Vec<i64>> = match value {
        Json::Number(number) => number.as_i64().filter(|n| *n >= 0).map(|n| vec![n]),
        _ => value.as_str().and_then(|text| {
            text.split_whitespace()
                .map(|part| {
                    part.trim_end_matches("px")
                        .parse::<i64>()
                        .ok()
                        .filter(|n| *n >= 0)
                })
                .collect()
        }),
    };
    let (top, right, bottom, left) = match numbers.as_deref() {
        Some([all]) => (*all, *all, *all, *all),
        Some([vertical, horizontal]) => (*vertical, *horizontal, *vertical, *horizontal),
        Some([top, horizontal, bottom]) => (*top, *horizontal, *bottom, *horizontal),
        Some([top, right, bottom, left]) => (*top, *right, *bottom, *left),
        _ => {
            notes.push(format!(
                "`margin` {value}: not one to four lengths in pixels"
            ));
            return;
        }
    };
    for (key, margin) in [
        ("margin_top", top),
        ("margin_right", right),
        ("margin_bottom", bottom),
        ("margin_left", left),
    ] {
        root.insert(key.into(), Value::Integer(margin));
    }
}
