//! `workspaces`: one button per workspace of the bar's own output, with the classes
//! `focused`, `visible`, `urgent`, `empty` or `occupied`, and `special` (Hyprland's special
//! workspaces, hidden unless `show_special`). A click switches to the workspace, scrolling
//! steps through them. `format` takes `{name}` (Waybar's `{value}` too), `{id}` (its
//! `{index}` too), `{output}`, `{total}` and `{icon}` (from `icons`, by workspace name,
//! then `urgent`, `focused`, `active`, `empty` and `default`). Waybar's hyphenated keys
//! (`all-outputs`, `format-icons`…) are read as well.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Deserialize;

use super::import::{Carried, Waybar};
use super::{format, ModuleKind};
use super::{Action, Button, Input, Module, Status, Table, Update};
use super::{ButtonRow, RowButton, Target, Widget};
use crate::events::compositor::{Workspace, WINDOWS_UNKNOWN};
use crate::text::Sink;

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
        }
    }
}

struct Workspaces {
    settings: Settings,
}

/// The `workspaces` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "workspaces",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        ..Waybar::named(&[
            "sway/workspaces",
            "hyprland/workspaces",
            "niri/workspaces",
            "ext/workspaces",
            "wlr/workspaces",
        ])
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
        "disable-scroll" => Carried::renamed("disable-scroll", value),
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
    Ok(Rc::new(Workspaces { settings }))
}

impl Workspaces {
    fn shown<'a>(&'a self, input: &'a Input<'_>) -> impl Iterator<Item = &'a Workspace> {
        let settings = &self.settings;
        input.compositor.workspaces.iter().filter(move |w| {
            (settings.show_special || !w.special)
                && (settings.all_outputs || input.output.is_empty() || w.output == input.output)
                && !(settings.hide_empty && w.windows == 0)
                && !(settings.current_only && !w.visible && !w.focused)
        })
    }

    fn icon<'a>(&'a self, w: &'a Workspace) -> &'a str {
        let icons = &self.settings.icons;
        let by_state = |key: &str, when: bool| when.then(|| icons.get(key)).flatten();
        icons
            .get(&w.name)
            .or_else(|| by_state("urgent", w.urgent))
            .or_else(|| by_state("focused", w.focused))
            .or_else(|| by_state("active", w.visible))
            .or_else(|| by_state("empty", w.windows == 0))
            .or_else(|| icons.get("default"))
            .map_or(w.name.as_str(), String::as_str)
    }

    /// `total` is how many workspaces the compositor has (special ones aside).
    fn label(&self, w: &Workspace, total: usize, out: &mut String) {
        let name = w.name.strip_prefix("special:").unwrap_or(&w.name);
        format::fill(&self.settings.format, out, |key, out| {
            let text = match key {
                "name" | "value" => name.to_owned(),
                "id" | "index" => w.id.to_string(),
                "output" => w.output.clone(),
                "total" => total.to_string(),
                "icon" => self.icon(w).to_owned(),
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
        for w in self.shown(input) {
            if any {
                out.push(' ');
            }
            any = true;
            if w.focused {
                out.push('[');
            }
            self.label(w, total, out);
            if w.focused {
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
        match button {
            Button::ScrollUp => Some(Action::StepWorkspace(false)),
            Button::ScrollDown => Some(Action::StepWorkspace(true)),
            _ => None,
        }
    }
}

impl ButtonRow for Workspaces {
    fn buttons(&self, input: &Input<'_>, out: &mut Vec<RowButton>) {
        out.clear();
        let total = total(input);
        for w in self.shown(input) {
            let mut label = String::new();
            self.label(w, total, &mut label);
            let mut classes = Vec::new();
            for (class, on) in [
                ("focused", w.focused),
                ("visible", w.visible),
                ("urgent", w.urgent),
                ("special", w.special),
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
                icon: None,
                icon_last: false,
                tooltip: None,
                target: Target::Workspace(w.clone()),
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
mod tests {
    use super::*;
    use crate::config;
    use crate::events::compositor::CompositorState;
    use crate::modules::tests::CLOCK;
    use crate::sample::Sample;

    fn workspace(id: i64, name: &str, output: &str) -> Workspace {
        Workspace {
            id,
            name: name.to_owned(),
            output: output.to_owned(),
            ..Workspace::default()
        }
    }

    fn state() -> CompositorState {
        let mut one = workspace(1, "1", "DP-1");
        one.focused = true;
        one.visible = true;
        one.windows = 2;
        let mut mail = workspace(-1, "mail", "DP-1");
        mail.urgent = true;
        mail.windows = 1;
        let mut two = workspace(2, "2", "HDMI-A-1");
        two.visible = true;
        let mut scratch = workspace(-98, "special:scratch", "DP-1");
        scratch.special = true;
        CompositorState {
            workspaces: vec![one, mail, two, scratch],
            ..CompositorState::default()
        }
    }

    fn buttons(config_text: &str, output: &str) -> Vec<(String, Vec<&'static str>)> {
        let config = config::parse(config_text, "c.toml".as_ref()).expect("valid");
        let state = state();
        let sample = Sample::default();
        let input = Input {
            sample: &sample,
            clock: &CLOCK,
            compositor: &state,
            output,
            scripts: &crate::modules::NO_SCRIPTS,
            events: &crate::modules::NO_EVENTS,
        };
        let mut out = Vec::new();
        let module = &config.modules.left[0];
        let Widget::Buttons(row) = module.widget() else {
            panic!("a row of workspace buttons");
        };
        row.buttons(&input, &mut out);
        out.into_iter().map(|b| (b.label, b.classes)).collect()
    }

    #[test]
    fn the_bars_own_output_with_classes() {
        let plain = "modules_left = [\"workspaces\"]\n";
        assert_eq!(
            buttons(plain, "DP-1"),
            [
                ("1".to_owned(), vec!["focused", "visible", "occupied"]),
                ("mail".to_owned(), vec!["urgent", "occupied"]),
            ]
        );
        assert_eq!(
            buttons(plain, "HDMI-A-1"),
            [("2".to_owned(), vec!["visible", "empty"])]
        );
        let all = "modules_left = [\"workspaces\"]\n[workspaces]\nall_outputs = true\nshow_special = true\n";
        let labels: Vec<String> = buttons(all, "DP-1").into_iter().map(|(l, _)| l).collect();
        assert_eq!(labels, ["1", "mail", "2", "scratch"]);
    }

    #[test]
    fn formats_and_icons() {
        let icons = "modules_left = [\"workspaces\"]\n[workspaces]\nformat = \"{id}:{icon}\"\n\
                     icons = { \"1\" = \"web\", urgent = \"!\", default = \"·\" }\n";
        let labels: Vec<String> = buttons(icons, "DP-1").into_iter().map(|(l, _)| l).collect();
        assert_eq!(labels, ["1:web", "-1:!"]);
        let config =
            config::parse("modules_left = [\"workspaces\"]\n", "c.toml".as_ref()).expect("valid");
        let state = state();
        let sample = Sample::default();
        let input = Input {
            sample: &sample,
            clock: &CLOCK,
            compositor: &state,
            output: "",
            scripts: &crate::modules::NO_SCRIPTS,
            events: &crate::modules::NO_EVENTS,
        };
        let mut out = String::new();
        config.modules.left[0].text(&input, &mut out);
        assert_eq!(out, "[1] mail 2", "every output's in a text output");
        let typo = config::parse("[workspaces]\nshow_specail = true\n", "c.toml".as_ref());
        assert!(typo.is_err());
    }

    #[test]
    fn waybars_fields_icons_and_filters() {
        let labels = |toml: &str| -> Vec<String> {
            let text = format!("modules_left = [\"workspaces\"]\n[workspaces]\n{toml}");
            buttons(&text, "DP-1").into_iter().map(|(l, _)| l).collect()
        };
        assert_eq!(
            labels("format = \"{value}/{index}@{output} of {total}\"\nall-outputs = true\n"),
            ["1/1@DP-1 of 3", "mail/-1@DP-1 of 3", "2/2@HDMI-A-1 of 3"]
        );
        assert_eq!(
            labels(
                "format = \"{icon}\"\nall-outputs = true\n\
                 format-icons = { active = \"A\", empty = \"E\", default = \"D\" }\n"
            ),
            ["A", "D", "A"]
        );
        assert_eq!(
            labels("all-outputs = true\nhide-empty = true\n"),
            ["1", "mail"]
        );
        assert_eq!(
            labels("all-outputs = true\ncurrent-only = true\n"),
            ["1", "2"]
        );
        let config = config::parse(
            "modules_left = [\"workspaces\"]\n[workspaces]\ndisable-click = true\n",
            "c.toml".as_ref(),
        )
        .expect("valid");
        let Widget::Buttons(row) = config.modules.left[0].widget() else {
            panic!("a row of workspace buttons");
        };
        let target = Target::Workspace(workspace(1, "1", "DP-1"));
        assert_eq!(row.press(&target, Button::Left, None), None);
        let scrolls = |toml: &str| {
            let text = format!("modules_left = [\"workspaces\"]\n[workspaces]\n{toml}");
            let config = config::parse(&text, "c.toml".as_ref()).expect("valid");
            config.modules.left[0].action(Button::ScrollDown)
        };
        assert_eq!(scrolls(""), Some(Action::StepWorkspace(true)));
        assert_eq!(scrolls("disable-scroll = true"), None);
    }
}
