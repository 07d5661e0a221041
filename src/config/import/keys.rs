//! Which of a Waybar module's settings carry over, one key at a time: what every module
//! takes (clicks, the label's size, `rotate`), what a script module takes, and what the
//! module's own mapping says ([`crate::modules::import::Waybar`]).

use serde_json::{Map, Value as Json};
use toml::Value;

use crate::modules::import::Carried;
use crate::modules::{registry, Clicks, ModuleKind};

/// The settings of a custom module ringbar's script modules read as Waybar does, besides
/// the click keys every module takes ([`Clicks::KEYS`]).
const SCRIPT_KEYS: [&str; 16] = [
    "exec",
    "interval",
    "return-type",
    "format",
    "format-icons",
    "format-alt",
    "exec-if",
    "signal",
    "exec-on-event",
    "restart-interval",
    "max-length",
    "min-length",
    "align",
    "tooltip",
    "tooltip-format",
    "escape",
];

/// Waybar's keys for the size of any module's label and its tooltip
/// (`config::label_shape`).
const LABEL_KEYS: [&str; 6] = [
    "max-length",
    "min-length",
    "align",
    "tooltip",
    "cursor",
    "tooltip-padding",
];

/// A custom module's keys that are about its script: not needed without `exec`.
const NEED_EXEC: [&str; 6] = [
    "interval",
    "return-type",
    "exec-if",
    "signal",
    "exec-on-event",
    "restart-interval",
];

/// The ringbar module a Waybar module becomes (`battery#bat2` → `battery`): a script
/// module, or one of the registry's.
pub enum Kind {
    Script,
    Module(&'static ModuleKind),
}

pub fn kind_of(name: &str) -> Option<Kind> {
    let base = name.split('#').next().unwrap_or(name);
    if base.starts_with("custom/") {
        return Some(Kind::Script);
    }
    registry::by_waybar_name(base).map(Kind::Module)
}

/// What becomes of `key` set to `value` in the settings of a module of `kind`.
pub fn carried(kind: &Kind, key: &str, value: &Json, settings: &Map<String, Json>) -> Carried {
    match (kind, key) {
        // Every module's text turns as Waybar's does, by quarters only.
        (_, "rotate") => Carried::one(
            value
                .as_i64()
                .filter(|degrees| [0, 90, 180, 270].contains(degrees))
                .map(|degrees| ("rotate".into(), Value::Integer(degrees))),
        ),
        // Waybar ignores a `tooltip` that is not true or false (the tooltip stays).
        (_, "tooltip") if !value.is_boolean() => Carried::Refused(
            "Waybar reads only true or false here and ignores anything else".to_owned(),
        ),
        // Waybar reads any other value as the left button.
        (_, "format-alt-click") => {
            let named = [
                "click-middle",
                "click-right",
                "click-backward",
                "click-forward",
            ];
            let button = value
                .as_str()
                .filter(|v| named.contains(v))
                .unwrap_or("click");
            Carried::one(Some((key.to_owned(), Value::String(button.to_owned()))))
        }
        (_, "menu" | "menu-file" | "menu-actions") => super::menu::carry(key, settings),
        // GTK gathers a touchpad's smooth scrolling into the wheel's steps, and
        // each step is one scroll action.
        (_, "smooth-scrolling-threshold") => Carried::NotNeeded,
        // Without `exec` Waybar ignores what is about running one; ringbar refuses it.
        (Kind::Script, key) if !settings.contains_key("exec") && NEED_EXEC.contains(&key) => {
            Carried::NotNeeded
        }
        (Kind::Script, key)
            if SCRIPT_KEYS.contains(&key)
                || Clicks::KEYS.contains(&key)
                || LABEL_KEYS.contains(&key) =>
        {
            Carried::renamed(key, value)
        }
        (Kind::Script, _) => Carried::No,
        // Every module runs the user's commands for clicks and scrolls.
        (Kind::Module(_), key) if Clicks::KEYS.contains(&key) => Carried::renamed(key, value),
        (Kind::Module(kind), key) => match &kind.waybar {
            Some(waybar) => match waybar.carry(key, value) {
                // Any label's size, as the bar reads it for every module.
                Carried::No if LABEL_KEYS.contains(&key) => Carried::renamed(key, value),
                carried => carried,
            },
            None if LABEL_KEYS.contains(&key) => Carried::renamed(key, value),
            None => Carried::No,
        },
    }
}
