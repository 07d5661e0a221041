//! Waybar's modules into ringbar's: the names, and the settings whose meaning matches.

use std::path::Path;

use serde_json::{Map, Value as Json};
use toml::{Table, Value};

/// Waybar's module kinds that ringbar has, by Waybar's name.
const KINDS: [(&str, &str); 26] = [
    ("sway/workspaces", "workspaces"),
    ("hyprland/workspaces", "workspaces"),
    ("wlr/workspaces", "workspaces"),
    ("sway/window", "window"),
    ("hyprland/window", "window"),
    ("sway/language", "language"),
    ("hyprland/language", "language"),
    ("sway/mode", "mode"),
    ("hyprland/submap", "mode"),
    ("power-profiles-daemon", "power_profile"),
    ("clock", "clock"),
    ("cpu", "cpu"),
    ("memory", "memory"),
    ("temperature", "cpu"),
    ("battery", "battery"),
    ("disk", "disk"),
    ("network", "network"),
    ("bluetooth", "bluetooth"),
    // ringbar's `audio`, by the names Waybar users know (and style).
    ("pulseaudio", "pulseaudio"),
    ("wireplumber", "wireplumber"),
    // ringbar's `media`, by Waybar's name.
    ("mpris", "mpris"),
    ("idle_inhibitor", "idle_inhibitor"),
    ("backlight", "backlight"),
    ("privacy", "privacy"),
    ("tray", "tray"),
    ("custom", "custom"),
];

/// The settings of a custom module ringbar's script modules read as Waybar does.
const SCRIPT_KEYS: [&str; 17] = [
    "exec",
    "interval",
    "return-type",
    "format",
    "format-icons",
    "exec-if",
    "signal",
    "on-click",
    "on-click-middle",
    "on-click-right",
    "on-scroll-up",
    "on-scroll-down",
    "exec-on-event",
    "restart-interval",
    "max-length",
    "tooltip",
    "escape",
];

/// The ringbar kind of a Waybar module name (`battery#bat2` → `battery`).
pub fn waybar_kind(name: &str) -> Option<&'static str> {
    let kind = name.split('#').next().unwrap_or(name);
    if kind.starts_with("custom/") {
        return Some("custom");
    }
    KINDS.iter().find(|(w, _)| *w == kind).map(|(_, r)| *r)
}

/// The converted modules, their tables and the one interval of the monitor modules.
#[derive(Default)]
pub struct Layout {
    /// Waybar's names on the module lists, converted or not.
    pub listed: Vec<String>,
    /// The ringbar names they became, each once.
    pub ringbar_names: Vec<String>,
    tables: Vec<(String, Table)>,
    /// The shortest `interval` of the sampled modules, in ms.
    pub interval_ms: Option<u32>,
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
            let Some(ringbar) = self.convert(name, bar, notes) else {
                continue;
            };
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
        let Some(kind) = waybar_kind(name) else {
            notes.push(format!("`{name}`: no ringbar module yet; left out"));
            return None;
        };
        let id = name.split_once('#').map(|(_, id)| id);
        let ringbar = match (kind, id) {
            ("custom", None) => name.to_owned(),
            ("custom", Some(_)) => {
                notes.push(format!(
                    "`{name}`: ringbar's script modules have no instances; left out"
                ));
                return None;
            }
            (kind, Some(id)) => format!("{kind}#{id}"),
            (kind, None) => kind.to_owned(),
        };
        if self.ringbar_names.contains(&ringbar) {
            let why = if name.starts_with("temperature") {
                "the CPU temperature is in ringbar's `cpu` label"
            } else {
                "another Waybar module already became it"
            };
            notes.push(format!("`{name}`: {why}; left out"));
            return None;
        }
        if name.starts_with("temperature") {
            notes.push(format!(
                "`{name}`: shown in ringbar's `cpu` label, which it becomes"
            ));
        }
        let empty = Map::new();
        let settings = bar.get(name).and_then(Json::as_object).unwrap_or(&empty);
        let table = self.settings(kind, name, settings, notes);
        let table = checked(&ringbar, table, notes);
        if kind == "custom" && table.is_none() {
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
        kind: &str,
        name: &str,
        settings: &Map<String, Json>,
        notes: &mut Vec<String>,
    ) -> Table {
        let mut table = Table::new();
        for (key, value) in settings {
            let carried = match (kind, key.as_str()) {
                // Every module's text turns as Waybar's does, by quarters only.
                (_, "rotate") => value
                    .as_i64()
                    .filter(|degrees| [0, 90, 180, 270].contains(degrees))
                    .map(|degrees| ("rotate".into(), Value::Integer(degrees))),
                ("custom", key) if SCRIPT_KEYS.contains(&key) => {
                    to_toml(value).map(|v| (key.to_owned(), v))
                }
                ("cpu" | "memory" | "battery" | "disk", "states") => {
                    states(value, &mut table);
                    continue;
                }
                ("cpu" | "memory" | "battery" | "disk", "interval") => {
                    self.interval(value);
                    continue;
                }
                ("disk", "path") => value
                    .as_str()
                    .map(|p| ("mounts".into(), Value::Array(vec![Value::String(p.into())]))),
                ("disk", "format") => to_toml(value).map(|v| ("format".into(), v)),
                ("network", key) if crate::modules::network::SETTINGS.contains(&key) => {
                    checked_format(key, value, &crate::modules::network::KEYS)
                }
                ("pulseaudio" | "wireplumber", key)
                    if crate::modules::audio::SETTINGS.contains(&key) =>
                {
                    audio_setting(key, value)
                }
                ("bluetooth", key) if crate::modules::bluetooth::SETTINGS.contains(&key) => {
                    checked_format(key, value, &crate::modules::bluetooth::KEYS)
                }
                ("mpris", "status-icons") => to_toml(value).map(|v| ("format-icons".into(), v)),
                ("mpris", key) if crate::modules::media::SETTINGS.contains(&key) => {
                    checked_format(key, value, &crate::modules::media::KEYS)
                }
                ("backlight", key) if crate::modules::backlight::SETTINGS.contains(&key) => {
                    checked_format(key, value, &crate::modules::backlight::KEYS)
                }
                ("idle_inhibitor", key)
                    if crate::modules::idle_inhibitor::SETTINGS.contains(&key) =>
                {
                    checked_format(key, value, &crate::modules::idle_inhibitor::KEYS)
                }
                ("power_profile", "format" | "format-icons") => {
                    checked_format(key, value, &crate::modules::power_profile::KEYS)
                }
                ("language", "format" | "on-click") => {
                    checked_format(key, value, &crate::modules::language::KEYS)
                }
                // Waybar's `{}` is the mode's name; its markup (Debian's config has
                // `<span style="italic">{}</span>`) becomes the text it shows, as
                // ringbar's label is plain text.
                ("mode", "format") => value.as_str().and_then(|f| {
                    let mut visible = String::new();
                    crate::text::markup::visible_text(&f.replace("{}", "{mode}"), &mut visible);
                    checked_format(key, &Json::String(visible), &crate::modules::mode::KEYS)
                }),
                ("clock", "format") => value
                    .as_str()
                    .map(|f| ("format".into(), Value::String(strftime(f)))),
                ("clock", "format-alt") => value
                    .as_str()
                    .map(|f| ("format_alt".into(), Value::String(strftime(f)))),
                ("workspaces", "format") => value
                    .as_str()
                    .map(|f| ("format".into(), Value::String(workspace_format(f)))),
                ("workspaces", "format-icons") => to_toml(value).map(|v| ("icons".into(), v)),
                ("workspaces", "all-outputs") => to_toml(value).map(|v| ("all_outputs".into(), v)),
                ("workspaces", "show-special") => {
                    to_toml(value).map(|v| ("show_special".into(), v))
                }
                ("window", "format") => value
                    .as_str()
                    .map(|f| ("format".into(), Value::String(window_format(f)))),
                ("window", "max-length") => to_toml(value).map(|v| ("max_length".into(), v)),
                ("tray", "icon-size") => to_toml(value).map(|v| ("icon_size".into(), v)),
                ("tray", "spacing") => to_toml(value).map(|v| ("spacing".into(), v)),
                ("tray", "show-passive-items") => {
                    to_toml(value).map(|v| ("show_passive".into(), v))
                }
                _ => None,
            };
            match carried {
                Some((key, value)) => {
                    table.insert(key, value);
                }
                None => notes.push(format!("`{name}` `{key}`: {}", left_out_reason(kind, key))),
            }
        }
        table
    }

    /// The sampled modules share one interval in ringbar: the shortest wins.
    fn interval(&mut self, value: &Json) {
        let Some(seconds) = value.as_f64().filter(|s| *s > 0.0) else {
            return;
        };
        let ms = (seconds * 1000.0).round().clamp(50.0, 60_000.0) as u32;
        self.interval_ms = Some(self.interval_ms.map_or(ms, |old| old.min(ms)));
    }

    /// The module tables into the config: `[cpu]`, `["battery#bat2"]`, `[custom.NAME]`.
    pub fn tables_into(self, root: &mut Table) {
        for (name, table) in self.tables {
            match name.strip_prefix("custom/") {
                Some(script) => {
                    let custom = root
                        .entry("custom")
                        .or_insert_with(|| Value::Table(Table::new()));
                    if let Value::Table(custom) = custom {
                        custom.insert(script.to_owned(), Value::Table(table));
                    }
                }
                None => {
                    root.insert(name, Value::Table(table));
                }
            }
        }
    }
}

fn left_out_reason(kind: &str, key: &str) -> &'static str {
    match (kind, key) {
        (_, "rotate") => "ringbar turns text by 0, 90, 180 or 270 degrees only; not carried over",
        ("network", k) if crate::modules::network::SETTINGS.contains(&k) => {
            "a field ringbar's network module does not fill (see man 5 ringbar); not carried over"
        }
        ("pulseaudio" | "wireplumber", k) if crate::modules::audio::SETTINGS.contains(&k) => {
            "a field ringbar's audio module does not fill (see man 5 ringbar); not carried over"
        }
        ("bluetooth", k) if crate::modules::bluetooth::SETTINGS.contains(&k) => {
            "a field ringbar's bluetooth module does not fill (see man 5 ringbar); not carried over"
        }
        ("backlight", k) if crate::modules::backlight::SETTINGS.contains(&k) => {
            "a field ringbar's backlight module does not fill (see man 5 ringbar); not carried over"
        }
        ("mpris", k) if crate::modules::media::SETTINGS.contains(&k) => {
            "a field ringbar's media module does not fill (see man 5 ringbar); not carried over"
        }
        (_, k) if k.starts_with("format") || k.starts_with("tooltip-format") => {
            "ringbar draws this module's text and tooltip itself; not carried over"
        }
        (_, k) if k.starts_with("on-click") || k.starts_with("on-scroll") => {
            "ringbar's clicks on this module are its own (see man 5 ringbar); not carried over"
        }
        ("cpu" | "memory" | "battery" | "disk" | "clock", "interval") => "not needed",
        _ => "no ringbar counterpart; not carried over",
    }
}

/// A setting whose value ringbar reads as Waybar does: a format only if every field in
/// it is one of `keys`.
fn checked_format(key: &str, value: &Json, keys: &[&str]) -> Option<(String, Value)> {
    if key.starts_with("format") && key != "format-icons" {
        crate::modules::format::check(value.as_str()?, keys).ok()?;
    }
    to_toml(value).map(|v| (key.to_owned(), v))
}

/// An audio setting: the source's formats take their own fields.
fn audio_setting(key: &str, value: &Json) -> Option<(String, Value)> {
    use crate::modules::audio::{KEYS, SOURCE_KEYS};
    let keys: &[&str] = match key.starts_with("format-source") {
        true => &SOURCE_KEYS,
        false => &KEYS,
    };
    checked_format(key, value, keys)
}

/// Waybar's `states` (`{"warning": 70, "critical": 90}`) as `warning` and `critical`.
fn states(value: &Json, table: &mut Table) {
    for level in ["warning", "critical"] {
        if let Some(share) = value.get(level).and_then(Json::as_f64) {
            table.insert(level.to_owned(), Value::Float(share));
        }
    }
}

/// Waybar's clock formats put strftime codes in braces (`{:%H:%M}`); ringbar's are plain.
pub(super) fn strftime(format: &str) -> String {
    let mut out = String::new();
    let mut rest = format;
    while let Some(open) = rest.find("{:") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let close = after.find('}').unwrap_or(after.len());
        out.push_str(&after[..close]);
        rest = after.get(close + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Sway's `{value}` is the workspace's name and `{index}` its number.
fn workspace_format(format: &str) -> String {
    format
        .replace("{value}", "{name}")
        .replace("{index}", "{id}")
}

/// Waybar's window title is `{}` or `{title}`; Hyprland's `{class}` is the app id.
fn window_format(format: &str) -> String {
    format
        .replace("{}", "{title}")
        .replace("{class}", "{app_id}")
}

/// A JSON value as TOML; `None` for what TOML cannot hold (`null`, anywhere in it).
fn to_toml(value: &Json) -> Option<Value> {
    Value::try_from(value).ok()
}

/// The table if ringbar's parser takes it; else a note, and the module's defaults (`None`
/// for a script module, which cannot run without its `exec`).
fn checked(ringbar: &str, table: Table, notes: &mut Vec<String>) -> Option<Table> {
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
    match crate::config::parse(&text, Path::new(ringbar)) {
        Ok(_) => Some(table),
        Err(err) => {
            let problem = &err.message;
            if ringbar.starts_with("custom/") {
                notes.push(format!("`{ringbar}`: {problem}; left out"));
                None
            } else {
                notes.push(format!("`{ringbar}`: {problem}; its defaults are used"));
                Some(Table::new())
            }
        }
    }
}
