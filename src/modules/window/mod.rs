//! `window`: the focused window's title (`{title}`, or `{app_id}` or both through
//! `format`), cut to `max_length` characters with `…`. Titles come from any program: the
//! text is data, escaped by every markup output, and any bytes are safe. Hidden while no
//! window has the focus. With `separate-outputs`, each bar shows the window focused on
//! its own output (the focused one, or the last focused on the workspace it shows), as
//! Waybar does. Waybar's `rewrite` rules turn the whole label (before the cut)
//! into another (`text::rewrite`).

use std::cell::RefCell;
use std::rc::Rc;

use serde::Deserialize;

use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table, Update};
use crate::events::compositor::Workspace;
use crate::text::rewrite::{self, Rewrite};
use crate::text::{untrusted, Sink};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    format: String,
    max_length: usize,
    #[serde(deserialize_with = "rewrite::deserialize")]
    rewrite: Rewrite,
    #[serde(rename = "separate-outputs")]
    separate_outputs: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{title}".to_owned(),
            max_length: 60,
            rewrite: Rewrite::default(),
            separate_outputs: false,
        }
    }
}

struct Window {
    settings: Settings,
    /// With `rewrite`: the last label before and after the rules, and a scratch buffer
    /// (the rules run again only when the label changes).
    rewritten: RefCell<[String; 3]>,
}

/// The `window` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "window",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        // Its Waybar names are the compositors' (`sway/window`): theirs to give.
        ..Waybar::named(&[])
    }),
};

/// Waybar's title is `{}` or `{title}`; Hyprland's `{class}` is the app id.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "format" => Carried::one(value.as_str().map(|format| {
            let format = format
                .replace("{}", "{title}")
                .replace("{class}", "{app_id}");
            ("format".to_owned(), toml::Value::String(format))
        })),
        "max-length" => Carried::renamed("max_length", value),
        "rewrite" => Carried::renamed("rewrite", value),
        "separate-outputs" => Carried::renamed("separate-outputs", value),
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Window {
        settings,
        rewritten: RefCell::default(),
    }))
}

/// Appends `text` with control characters as spaces and no deceptive ones, at most `room` characters of it
/// (the last one `…` when it was cut); returns the room left.
fn push_capped(out: &mut String, text: &str, room: usize) -> usize {
    let mut left = room;
    let mut chars = crate::text::shown(text, ' ').peekable();
    while let Some(c) = chars.next() {
        if left == 0 {
            break;
        }
        if left == 1 && chars.peek().is_some() {
            out.push('…');
            return 0;
        }
        out.push(c);
        left -= 1;
    }
    left
}

impl Window {
    /// The title and app id the bar on `input.output` shows.
    fn shown<'a>(&self, input: &Input<'a>) -> Option<(&'a str, &'a str)> {
        let state = input.compositor;
        let focused = || {
            let title = state.window_title.as_deref()?;
            Some((title, state.window_app_id.as_deref().unwrap_or("")))
        };
        let output = input.output;
        let here = |w: &&Workspace| w.output == output;
        if !self.settings.separate_outputs
            || output.is_empty()
            || state.workspaces.iter().filter(here).any(|w| w.focused)
        {
            return focused();
        }
        // The special workspace open over the output, else the one it shows.
        let shown = || state.workspaces.iter().filter(here).filter(|w| w.visible);
        let workspace = shown().find(|w| w.special).or_else(|| shown().next())?;
        let last = workspace.last_window.as_ref()?;
        Some((last.title.as_str(), last.app_id.as_deref().unwrap_or("")))
    }

    /// The label from `format`, at most `room` characters of it.
    fn fill(&self, title: &str, app_id: &str, mut room: usize, out: &mut String) {
        let mut rest = self.settings.format.as_str();
        while !rest.is_empty() && room > 0 {
            let (literal, field, after) = match rest.find('{') {
                Some(at) => match rest[at..].find('}') {
                    Some(end) => (&rest[..at], &rest[at..=at + end], &rest[at + end + 1..]),
                    None => (rest, "", ""),
                },
                None => (rest, "", ""),
            };
            room = push_capped(out, literal, room);
            room = match field {
                "{title}" => push_capped(out, title, room),
                "{app_id}" => push_capped(out, app_id, room),
                other => push_capped(out, other, room),
            };
            rest = after;
        }
    }
}

impl Module for Window {
    fn name(&self) -> &str {
        "window"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let (title, app_id) = self.shown(input)?;
        let max_length = self.settings.max_length.max(1);
        if self.settings.rewrite.is_empty() {
            self.fill(title, app_id, max_length, out);
            return Some(Status::default());
        }
        let mut guard = self.rewritten.borrow_mut();
        let [before, after, scratch] = &mut *guard;
        scratch.clear();
        self.fill(title, app_id, usize::MAX, scratch);
        if scratch != before {
            std::mem::swap(before, scratch);
            after.clone_from(before);
            self.settings.rewrite.apply(after, scratch);
        }
        push_capped(out, after, max_length);
        Some(Status::default())
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if let Some((title, app_id)) = self.shown(input) {
            untrusted(sink, title);
            if !app_id.is_empty() {
                sink.out().push('\n');
                untrusted(sink, app_id);
            }
        }
    }

    fn action(&self, _button: Button) -> Option<Action> {
        None
    }
}

#[cfg(test)]
mod tests;
