//! `image` with `multiple`, as Waybar's: a row of pictures, each with its own `marker`
//! (a CSS class), tooltip and `on-click`, listed in `entries` or printed by a script
//! (`exec`) as a JSON array of the same objects. An entry whose file is not a regular
//! file is left out; a module with none to show hides. Each picture is decoded off the
//! main loop, and again when its file changes. The text `--once --json` gives is the
//! files' paths, space-separated.

use std::cell::RefCell;
use std::rc::Rc;

use serde::Deserialize;

use super::{is_file, Refresh};
use crate::events::script::{safe_class, ScriptConfig, ScriptState};
use crate::modules::{
    Action, Button, ButtonRow, IconStyle, Input, Module, RowButton, Status, Target, Update, Widget,
};
use crate::text::Sink;

/// The most pictures a row shows: a script that prints thousands draws these.
pub const MAX_ENTRIES: usize = 64;

/// One picture: Waybar's keys.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    path: String,
    /// A CSS class of the user's (`#image .dimmed`); one that is no CSS name is left out.
    #[serde(default)]
    marker: String,
    tooltip: Option<String>,
    #[serde(rename = "on-click")]
    on_click: Option<String>,
}

pub struct ImageRow {
    /// `image`, or `image#ID`.
    pub name: String,
    pub size: i32,
    /// The pictures listed in the config, where there is no script.
    pub entries: Rc<[Entry]>,
    /// The script that prints them, where `exec` is set instead of `entries`.
    pub refresh: Refresh,
    pub tooltip: bool,
    /// The script's last output and the entries read from it, read once per output.
    pub printed: RefCell<(String, Rc<[Entry]>)>,
}

impl ImageRow {
    /// The entries to draw: the config's, or those the script last printed.
    fn entries(&self, input: &Input<'_>) -> Rc<[Entry]> {
        let Some(script) = &self.refresh.script else {
            return self.entries.clone();
        };
        let output = match input.scripts.get(&self.name) {
            Some(ScriptState::Output(output)) => output.text.as_str(),
            _ => "",
        };
        let mut printed = self.printed.borrow_mut();
        if printed.0 != output {
            let entries = match read_entries(output) {
                Ok(entries) => entries,
                Err(err) => {
                    tracing::warn!("{}: `{}` printed {err}", self.name, script.exec);
                    Vec::new()
                }
            };
            *printed = (output.to_owned(), entries.into());
        }
        printed.1.clone()
    }

    /// The entries whose files can be shown.
    fn shown<'e>(&self, entries: &'e [Entry]) -> impl Iterator<Item = &'e Entry> {
        entries
            .iter()
            .filter(|entry| entry.path.starts_with('/') && is_file(&entry.path))
            .take(MAX_ENTRIES)
    }
}

/// A script's output: a JSON array of entries (nothing at all: none).
fn read_entries(output: &str) -> Result<Vec<Entry>, String> {
    if output.trim().is_empty() {
        return Ok(Vec::new());
    }
    serde_json::from_str::<Vec<Entry>>(output)
        .map_err(|err| format!("no JSON array of pictures: {err}"))
}

impl Module for ImageRow {
    fn name(&self) -> &str {
        &self.name
    }

    fn css_class(&self) -> &str {
        "image"
    }

    fn follows(&self) -> &[Update] {
        self.refresh.follows()
    }

    fn next_update_ms(&self, unix_ms: u64) -> Option<u64> {
        self.refresh.next_update_ms(unix_ms)
    }

    fn widget(&self) -> Widget<'_> {
        Widget::Buttons(self)
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let entries = self.entries(input);
        for entry in self.shown(&entries) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&entry.path);
        }
        (!out.is_empty()).then(Status::default)
    }

    /// Each picture has its own.
    fn tooltip(&self, _sink: &mut dyn Sink, _input: &Input<'_>) {}

    fn action(&self, _button: Button) -> Option<Action> {
        None
    }

    fn history_graphs(&self) -> bool {
        false
    }
}

impl ButtonRow for ImageRow {
    fn buttons(&self, input: &Input<'_>, out: &mut Vec<RowButton>) {
        out.clear();
        let entries = self.entries(input);
        out.extend(self.shown(&entries).map(|entry| RowButton {
            label: String::new(),
            classes: Vec::new(),
            class: safe_class(&entry.marker),
            icon: Some(entry.path.clone()),
            icon_last: false,
            tooltip: entry.tooltip.clone().filter(|_| self.tooltip),
            target: Target::Item(entry.on_click.clone().filter(|c| !c.is_empty())),
        }));
    }

    /// A left click runs the picture's own `on-click`, else the module's; the other
    /// buttons run the module's.
    fn press(&self, target: &Target, which: Button, configured: Option<&str>) -> Option<Action> {
        let Target::Item(own) = target else {
            return None;
        };
        match (own, which) {
            (Some(command), Button::Left) => Some(Action::Spawn(command.clone())),
            _ => configured.map(|_| Action::Run(which)),
        }
    }

    fn icons(&self) -> IconStyle {
        IconStyle {
            size: self.size,
            ..IconStyle::default()
        }
    }

    fn script(&self) -> Option<&ScriptConfig> {
        self.refresh.script.as_ref()
    }
}
