//! `workspaces`: one button per workspace of the bar's own output, with the classes
//! `focused`, `visible`, `urgent`, `empty` or `occupied`, and `special` (Hyprland's special
//! workspaces, hidden unless `show_special`). A click switches to the workspace, scrolling
//! steps through them. `format` takes `{name}` (Waybar's `{value}` too), `{id}` (its
//! `{index}` too), `{output}`, `{total}`, `{icon}` (from `icons`, by workspace name,
//! then `urgent`, `focused`, `active`, `empty`, `persistent` and `default`) and
//! `{windows}` (the windows it holds, by Waybar's `window-rewrite` rules:
//! `window_rewrite.rs`). Waybar's
//! hyphenated keys (`all-outputs`, `format-icons`…) are read as well, and its
//! `persistent-workspaces` add buttons, of class `persistent`, for workspaces the
//! compositor has not made yet (`persistent.rs`).

mod order;
mod persistent;
mod window_rewrite;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Deserialize;

use super::import::{Carried, Waybar};
use super::{format, ModuleKind};
use super::{Action, Button, Input, Module, Status, Table, Update};
use super::{ButtonRow, RowButton, Target, Widget};
use crate::events::compositor::{Workspace, WINDOWS_UNKNOWN};
use crate::text::Sink;
use order::{Order, SortBy};
use persistent::Persistent;
use window_rewrite::{Rules, WindowRewrite};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    format: String,
    #[serde(alias = "format-icons")]
    icons: BTreeMap<String, String>,
    #[serde(alias = "show-special")]
    show_special: bool,
    /// Every output's workspaces on every bar, not just the bar's own.
    #[serde(alias = "all-outputs")]
    all_outputs: bool,
    /// Workspaces without windows get no button (where the compositor says).
    #[serde(rename = "hide-empty")]
    hide_empty: bool,
    /// Only the workspaces shown on an output.
    #[serde(rename = "current-only")]
    current_only: bool,
    /// Clicks switch nothing.
    #[serde(rename = "disable-click")]
    disable_click: bool,
    /// Scrolling over the buttons switches nothing.
    #[serde(rename = "disable-scroll")]
    disable_scroll: bool,
    /// Sway warps the pointer to a workspace scrolled to (its `mouse_warping`).
    #[serde(rename = "warp-on-scroll")]
    warp_on_scroll: bool,
    #[serde(rename = "persistent-workspaces", alias = "persistent_workspaces")]
    persistent: Persistent,
    /// Only the persistent workspaces.
    #[serde(rename = "persistent-only")]
    persistent_only: bool,
    /// `{windows}`: a pattern for `class<APP_ID> title<TITLE>` → the window's text.
    #[serde(rename = "window-rewrite")]
    window_rewrite: BTreeMap<String, String>,
    #[serde(rename = "window-rewrite-default")]
    window_rewrite_default: String,
    #[serde(rename = "format-window-separator")]
    window_separator: String,
    #[serde(rename = "window-rewrite-group-threshold")]
    group_threshold: u32,
    #[serde(rename = "window-rewrite-group-format")]
    group_format: String,
    /// The buttons' order (`order.rs`).
    #[serde(rename = "sort-by")]
    sort_by: SortBy,
    /// Names to put first, in this order.
    #[serde(rename = "custom-sort")]
    custom_sort: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{name}".to_owned(),
            icons: BTreeMap::new(),
            show_special: false,
            all_outputs: false,
            hide_empty: false,
            current_only: false,
            disable_click: false,
            disable_scroll: false,
            warp_on_scroll: true,
            persistent: Persistent::default(),
            persistent_only: false,
            window_rewrite: BTreeMap::new(),
            window_rewrite_default: "?".to_owned(),
            window_separator: " ".to_owned(),
            group_threshold: 0,
            group_format: "{icon}×{count}".to_owned(),
            sort_by: SortBy::Default,
            custom_sort: Vec::new(),
        }
    }
}

struct Workspaces {
    settings: Settings,
    windows: WindowRewrite,
}

/// The `workspaces` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "workspaces",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        // Its Waybar names are the compositors' (`sway/workspaces`): theirs to give.
        ..Waybar::named(&[])
    }),
};

/// Waybar's `{value}` and `{index}` are read as they are.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "format" => Carried::renamed("format", value),
        "format-icons" => Carried::renamed("icons", value),
        "all-outputs" => Carried::renamed("all_outputs", value),
        "show-special" => Carried::renamed("show_special", value),
        "hide-empty" => Carried::renamed("hide-empty", value),
        "current-only" => Carried::renamed("current-only", value),
        "disable-click" => Carried::renamed("disable-click", value),
        "disable-scroll" | "warp-on-scroll" => Carried::renamed(key, value),
        "persistent-workspaces" | "persistent_workspaces" => {
            Carried::renamed("persistent-workspaces", value)
        }
        "persistent-only" => Carried::renamed("persistent-only", value),
        "window-rewrite"
        | "window-rewrite-default"
        | "format-window-separator"
        | "window-rewrite-group-threshold"
        | "window-rewrite-group-format" => Carried::renamed(key, value),
        // ringbar's order: numbers by number, then names, then special workspaces.
        "sort-by-number" if value.as_bool() == Some(true) => Carried::NotNeeded,
        "sort-by" if matches!(value.as_str(), Some("default" | "number")) => Carried::NotNeeded,
        "sort-by" if matches!(value.as_str(), Some("name" | "id" | "special-centered")) => {
            Carried::renamed("sort-by", value)
        }
        // niri's and ext-workspace's switches, and sway's, for the same orders.
        "sort-by-name" | "alphabetical_sort" | "sort-by-id" if value.as_bool() == Some(false) => {
            Carried::NotNeeded
        }
        "sort-by-name" | "alphabetical_sort" if value.as_bool() == Some(true) => {
            Carried::renamed("sort-by", &serde_json::json!("name"))
        }
        "sort-by-id" if value.as_bool() == Some(true) => {
            Carried::renamed("sort-by", &serde_json::json!("id"))
        }
        "custom-sort" => Carried::renamed("custom-sort", value),
        // Hyprland's name for showing the active workspace alone.
        "active-only" => Carried::renamed("current-only", value),
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let windows = WindowRewrite::new(&Rules {
        rules: &settings.window_rewrite,
        default: &settings.window_rewrite_default,
        separator: &settings.window_separator,
        group_threshold: settings.group_threshold,
        group_format: &settings.group_format,
    })
    .map_err(serde::de::Error::custom)?;
    Ok(Rc::new(Workspaces { settings, windows }))
}

/// A workspace with a button, and whether it is persistent.
struct Shown<'a> {
    workspace: Cow<'a, Workspace>,
    persistent: bool,
}

impl Workspaces {
    /// The workspaces with buttons on the bar of `input.output`, in display order:
    /// the compositor's, with the persistent ones it has not made yet among them.
    fn shown<'a>(&self, input: &'a Input<'_>) -> Vec<Shown<'a>> {
        let settings = &self.settings;
        let all = &input.compositor.workspaces;
        let persistent = match settings.persistent.is_empty() {
            true => Vec::new(),
            false => {
                let monitor = all.iter().find(|w| w.output == input.output);
                let monitor = monitor.and_then(|w| w.monitor_id).unwrap_or(0);
                settings.persistent.names(input.output, monitor)
            }
        };
        let is_persistent = |name: &str| persistent.iter().any(|p| p == name);
        let mut shown: Vec<Shown<'a>> = all
            .iter()
            .filter(|w| {
                let kept = is_persistent(&w.name);
                (settings.show_special || !w.special)
                    && (settings.all_outputs || input.output.is_empty() || w.output == input.output)
                    && (kept || !(settings.hide_empty && w.windows == 0))
                    && (kept || !(settings.current_only && !w.visible && !w.focused))
                    && (kept || !settings.persistent_only)
            })
            .map(|w| Shown {
                persistent: is_persistent(&w.name),
                workspace: Cow::Borrowed(w),
            })
            .collect();
        let mut added = false;
        for name in &persistent {
            if all.iter().any(|w| w.name == *name) {
                continue;
            }
            added = true;
            shown.push(Shown {
                workspace: Cow::Owned(Workspace {
                    // Sway's number for a name without one, and Hyprland's to make it by name.
                    id: name.parse().unwrap_or(-1),
                    name: name.clone(),
                    output: input.output.to_owned(),
                    windows: 0,
                    ..Workspace::default()
                }),
                persistent: true,
            });
        }
        let order = Order {
            by: settings.sort_by,
            custom: &settings.custom_sort,
        };
        if added || !order.is_display_order() {
            order.sort(&mut shown, |s| &s.workspace);
        }
        shown
    }

    fn icon<'a>(&'a self, w: &'a Workspace, persistent: bool) -> &'a str {
        let icons = &self.settings.icons;
        let by_state = |key: &str, when: bool| when.then(|| icons.get(key)).flatten();
        icons
            .get(&w.name)
            .or_else(|| by_state("urgent", w.urgent))
            .or_else(|| by_state("focused", w.focused))
            .or_else(|| by_state("active", w.visible))
            .or_else(|| by_state("empty", w.windows == 0))
            .or_else(|| by_state("persistent", persistent))
            .or_else(|| icons.get("default"))
            .map_or(w.name.as_str(), String::as_str)
    }

    /// `total` is how many workspaces the compositor has (special ones aside).
    fn label(&self, shown: &Shown<'_>, total: usize, out: &mut String) {
        let w = &*shown.workspace;
        let name = w.name.strip_prefix("special:").unwrap_or(&w.name);
        format::fill(&self.settings.format, out, |key, out| {
            let text = match key {
                "name" | "value" => name.to_owned(),
                "id" | "index" => w.id.to_string(),
                "output" => w.output.clone(),
                "total" => total.to_string(),
                "icon" => self.icon(w, shown.persistent).to_owned(),
                "windows" => {
                    let mut windows = String::new();
                    self.windows.write(&w.window_names, &mut windows);
                    windows
                }
                _ => return false,
            };
            out.extend(crate::text::shown(&text, ' '));
            true
        });
    }
}

/// Waybar's `{total}`: the compositor's workspaces, special ones aside.
fn total(input: &Input<'_>) -> usize {
    input
        .compositor
        .workspaces
        .iter()
        .filter(|w| !w.special)
        .count()
}

impl Module for Workspaces {
    fn name(&self) -> &str {
        "workspaces"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    /// For text outputs: the labels, the focused one in brackets; hidden without any.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let mut any = false;
        let total = total(input);
        for shown in self.shown(input) {
            if any {
                out.push(' ');
            }
            any = true;
            let focused = shown.workspace.focused;
            if focused {
                out.push('[');
            }
            self.label(&shown, total, out);
            if focused {
                out.push(']');
            }
        }
        any.then(Status::default)
    }

    fn tooltip(&self, _sink: &mut dyn Sink, _input: &Input<'_>) {}

    fn widget(&self) -> Widget<'_> {
        Widget::Buttons(self)
    }

    /// Clicks go to the buttons (switch) and scrolling to the module (step).
    fn action(&self, button: Button) -> Option<Action> {
        if self.settings.disable_scroll {
            return None;
        }
        let warp = self.settings.warp_on_scroll;
        match button {
            Button::ScrollUp => Some(Action::StepWorkspace {
                forward: false,
                warp,
            }),
            Button::ScrollDown => Some(Action::StepWorkspace {
                forward: true,
                warp,
            }),
            _ => None,
        }
    }
}

impl ButtonRow for Workspaces {
    fn buttons(&self, input: &Input<'_>, out: &mut Vec<RowButton>) {
        out.clear();
        let total = total(input);
        for shown in self.shown(input) {
            let mut label = String::new();
            self.label(&shown, total, &mut label);
            let w = shown.workspace;
            let mut classes = Vec::new();
            for (class, on) in [
                ("focused", w.focused),
                ("visible", w.visible),
                ("urgent", w.urgent),
                ("special", w.special),
                ("persistent", shown.persistent),
            ] {
                if on {
                    classes.push(class);
                }
            }
            match w.windows {
                0 => classes.push("empty"),
                WINDOWS_UNKNOWN => {}
                _ => classes.push("occupied"),
            }
            out.push(RowButton {
                label,
                classes,
                class: None,
                icon: None,
                icon_last: false,
                tooltip: None,
                // A click needs the workspace, not the list of its windows.
                target: Target::Workspace(Workspace {
                    window_names: Vec::new(),
                    ..w.into_owned()
                }),
            });
        }
    }

    /// A left click shows the button's workspace, unless `disable-click`.
    fn press(&self, target: &Target, which: Button, _configured: Option<&str>) -> Option<Action> {
        if self.settings.disable_click {
            return None;
        }
        match (target, which) {
            (Target::Workspace(workspace), Button::Left) => {
                Some(Action::FocusWorkspace(workspace.clone()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
