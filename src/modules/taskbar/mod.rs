//! `taskbar` (Waybar's `wlr/taskbar`): one button per open window on the bar's output
//! (every output's with `all-outputs`), with its app's icon and `format`'s text, and the
//! classes `active`, `minimized`, `maximized` and `fullscreen`. A left click activates
//! the window, a middle click closes it and a right click minimizes it; `on-click*` set
//! to one of Waybar's actions (`activate`, `minimize`, `minimize-raise`, `maximize`,
//! `fullscreen`, `close`) does that instead, and to anything else runs it as a command.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table, Update};
use super::{ButtonRow, IconStyle, RowButton, Target, Widget};
use crate::events::tasks::{Task, TaskAction, TaskCommand, TaskSettings, Tasks};
use crate::events::{EventSource, SourceCommand, SourceSettings};
use crate::text::rewrite::{self, Rewrite};
use crate::text::Sink;

pub const KEYS: [&str; 6] = ["icon", "title", "name", "app_id", "state", "short_state"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    tooltip: bool,
    #[serde(deserialize_with = "checked_format")]
    tooltip_format: String,
    icon_size: u16,
    #[serde(deserialize_with = "one_or_many")]
    icon_theme: Vec<String>,
    all_outputs: bool,
    active_first: bool,
    active_only: bool,
    sort_by_app_id: bool,
    /// App ids and titles whose windows get no button.
    ignore_list: Vec<String>,
    #[serde(rename = "app_ids-mapping")]
    app_ids_mapping: BTreeMap<String, String>,
    /// Waybar's rules for a button's whole text and tooltip.
    #[serde(deserialize_with = "rewrite::deserialize")]
    rewrite: Rewrite,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{icon}".to_owned(),
            tooltip: true,
            tooltip_format: "{title}".to_owned(),
            icon_size: 16,
            icon_theme: Vec::new(),
            all_outputs: false,
            active_first: false,
            active_only: false,
            sort_by_app_id: false,
            ignore_list: Vec::new(),
            app_ids_mapping: BTreeMap::new(),
            rewrite: Rewrite::default(),
        }
    }
}

/// A format whose fields are [`KEYS`], each with fmt's precision as a length in
/// characters or not (`{title:.15}`).
fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if format_fields_known(&text) {
        return Ok(text);
    }
    Err(serde::de::Error::custom(format!(
        "a field here that the taskbar does not fill; it takes {{{}}}, each with a length \
         such as {{title:.15}} or none",
        KEYS.join("}, {")
    )))
}

/// Waybar's formats carry over when each field is one the taskbar fills, with a length
/// or none (`{title:.15}`).
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "format" | "tooltip-format" => match value.as_str() {
            Some(text) if format_fields_known(text) => {
                Carried::one(Some((key.to_owned(), toml::Value::String(text.to_owned()))))
            }
            _ => Carried::UnknownField,
        },
        "rewrite" => Carried::renamed("rewrite", value),
        _ => Carried::No,
    }
}

/// Whether every field of `format` is one the taskbar fills.
fn format_fields_known(format: &str) -> bool {
    let mut known = true;
    format::fill(format, &mut String::new(), |key, _| {
        known &= field(key).is_some();
        true
    });
    known
}

/// A field's name and its length in characters, if it has one; `None` for a field
/// the taskbar does not fill.
fn field(key: &str) -> Option<(&str, Option<usize>)> {
    let (name, length) = match key.split_once(':') {
        None => (key, None),
        Some((name, spec)) => (name, Some(spec.strip_prefix('.')?.parse().ok()?)),
    };
    KEYS.contains(&name).then_some((name, length))
}

/// Waybar's `icon-theme`: one name or a list of them.
fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(name) => vec![name],
        OneOrMany::Many(names) => names,
    })
}

struct Taskbar {
    settings: Settings,
    /// The text around `{icon}` in the format, and whether the icon comes last.
    label_format: String,
    icon_last: bool,
    with_icon: bool,
}

/// The `taskbar` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "taskbar",
    make,
    waybar: Some(Waybar {
        settings: &[
            "tooltip",
            "icon-size",
            "icon-theme",
            "all-outputs",
            "active-first",
            "active-only",
            "sort-by-app-id",
            "ignore-list",
            "app_ids-mapping",
        ],
        fields: &KEYS,
        convert: from_waybar,
        ..Waybar::named(&["wlr/taskbar"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let trimmed = settings.format.trim();
    let with_icon = trimmed.contains("{icon}");
    let icon_last = with_icon && trimmed.ends_with("{icon}") && !trimmed.starts_with("{icon}");
    let label_format = trimmed.replacen("{icon}", "", 1).trim().to_owned();
    Ok(Rc::new(Taskbar {
        settings,
        label_format,
        icon_last,
        with_icon,
    }))
}

/// `{state}`'s words and `{short_state}`'s letters, in Waybar's order.
fn states(task: &Task, short: bool, out: &mut String) {
    let all = [
        (task.minimized, "minimized", "m"),
        (task.maximized, "maximized", "M"),
        (task.active, "active", "A"),
        (task.fullscreen, "fullscreen", "F"),
    ];
    for (_, long, letter) in all.iter().filter(|(on, _, _)| *on) {
        if short {
            out.push_str(letter);
        } else {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push_str(long);
        }
    }
}

/// `format` for `task`; the outside text is shown as text, its control characters
/// made harmless.
fn fill(format: &str, task: &Task, out: &mut String) {
    format::fill(format, out, |key, out| {
        let Some((key, length)) = field(key) else {
            return false;
        };
        let text = match key {
            "title" => &task.title,
            "app_id" => &task.app_id,
            "name" => task.app_name.as_ref().unwrap_or(&task.app_id),
            "icon" => return true,
            "state" | "short_state" => {
                let mut words = String::new();
                states(task, key == "short_state", &mut words);
                out.push_str(&words);
                return true;
            }
            _ => return false,
        };
        let shown = crate::text::shown(text, ' ');
        out.extend(shown.take(length.unwrap_or(usize::MAX)));
        true
    });
}

/// A theme's icon name made of what such names are made of; else not taken as one (an
/// app id such as `/etc/x` would name a file).
fn icon_name(app_id: &str) -> Option<&str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_');
    (!app_id.is_empty() && app_id.len() <= 255 && app_id.chars().all(plain)).then_some(app_id)
}

impl Taskbar {
    fn shown<'a>(&self, input: &Input<'a>) -> Vec<&'a Task> {
        let Some(tasks) = input.events.get::<Tasks>() else {
            return Vec::new();
        };
        let settings = &self.settings;
        let ignored = |task: &Task| {
            settings
                .ignore_list
                .iter()
                .any(|i| *i == task.app_id || *i == task.title)
        };
        let on_output = |task: &Task| {
            settings.all_outputs
                || input.output.is_empty()
                || task.outputs.iter().any(|o| o == input.output)
        };
        let mut shown: Vec<&Task> = tasks
            .list
            .iter()
            .filter(|t| on_output(t) && !ignored(t))
            .filter(|t| !settings.active_only || t.active)
            .collect();
        if settings.sort_by_app_id {
            shown.sort_by(|a, b| a.app_id.cmp(&b.app_id));
        } else if settings.active_first {
            shown.sort_by_key(|t| !t.active);
        }
        shown
    }

    fn button(&self, task: &Task) -> RowButton {
        let mut label = String::new();
        fill(&self.label_format, task, &mut label);
        let mut scratch = String::new();
        self.settings.rewrite.apply(&mut label, &mut scratch);
        let classes = [
            (task.active, "active"),
            (task.minimized, "minimized"),
            (task.maximized, "maximized"),
            (task.fullscreen, "fullscreen"),
        ]
        .into_iter()
        .filter_map(|(on, class)| on.then_some(class))
        .collect();
        let icon = self.with_icon.then(|| {
            task.icon
                .clone()
                .or_else(|| icon_name(&task.app_id).map(str::to_owned))
                .unwrap_or_else(|| "application-x-executable".to_owned())
        });
        let tooltip = self.settings.tooltip.then(|| {
            let mut tooltip = String::new();
            fill(&self.settings.tooltip_format, task, &mut tooltip);
            self.settings.rewrite.apply(&mut tooltip, &mut scratch);
            tooltip
        });
        RowButton {
            label,
            classes,
            class: None,
            icon,
            icon_last: self.icon_last,
            tooltip: tooltip.filter(|t| !t.is_empty()),
            target: Target::Task(task.id),
        }
    }
}

impl Module for Taskbar {
    fn name(&self) -> &str {
        "taskbar"
    }

    fn follows(&self) -> &[Update] {
        const FOLLOWS: [Update; 1] = [Update::Event(EventSource::of::<Tasks>())];
        &FOLLOWS
    }

    fn source_settings(&self) -> Option<SourceSettings> {
        let app_ids = self.settings.app_ids_mapping.clone();
        Some(SourceSettings::of::<Tasks>(TaskSettings { app_ids }))
    }

    /// For text outputs: each window's text (its title where the format has none), the
    /// active one in brackets; hidden without any.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let shown = self.shown(input);
        for (index, task) in shown.iter().enumerate() {
            if index > 0 {
                out.push(' ');
            }
            if task.active {
                out.push('[');
            }
            let format = match self.label_format.is_empty() {
                true => "{title}",
                false => &self.label_format,
            };
            fill(format, task, out);
            if task.active {
                out.push(']');
            }
        }
        (!shown.is_empty()).then(Status::default)
    }

    /// Each button has its own.
    fn tooltip(&self, _sink: &mut dyn Sink, _input: &Input<'_>) {}

    fn widget(&self) -> Widget<'_> {
        Widget::Buttons(self)
    }

    fn action(&self, _button: Button) -> Option<Action> {
        None
    }

    fn history_graphs(&self) -> bool {
        false
    }
}

impl ButtonRow for Taskbar {
    fn buttons(&self, input: &Input<'_>, out: &mut Vec<RowButton>) {
        out.clear();
        out.extend(self.shown(input).into_iter().map(|task| self.button(task)));
    }

    fn press(&self, target: &Target, which: Button, configured: Option<&str>) -> Option<Action> {
        let Target::Task(task) = *target else {
            return None;
        };
        let action = match configured {
            Some(name) => match TaskAction::named(name) {
                Some(action) => action,
                None => return Some(Action::Run(which)),
            },
            None => match which {
                Button::Left => TaskAction::Activate,
                Button::Middle => TaskAction::Close,
                Button::Right => TaskAction::Minimize,
                _ => return None,
            },
        };
        let command = TaskCommand { task, action };
        Some(Action::Command(SourceCommand::to::<Tasks>(command)))
    }

    fn icons(&self) -> IconStyle {
        IconStyle {
            size: i32::from(self.settings.icon_size.clamp(8, 256)),
            themes: self.settings.icon_theme.clone(),
            ..IconStyle::default()
        }
    }
}

#[cfg(test)]
mod tests;
