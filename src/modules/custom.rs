//! `custom/NAME`: a script, as in Waybar's custom module, with its settings in
//! `[custom.NAME]` under Waybar's own (hyphenated) keys, so scripts come over unchanged.
//! The script runs beside the bar (`src/script/runner.rs`); this module shows what it
//! last said: its text (Pango markup, checked safe), its tooltip and classes, a `⚠`
//! marker with the reason while it fails, nothing while it is hidden or starting. Without
//! `exec` it runs nothing and shows its `format` alone, its clicks running their commands
//! (Waybar's launchers, separators and static buttons).

use std::rc::Rc;

use serde::Deserialize;

use toml::de::ValueDeserializer;

use super::Widget;
use super::{Action, Button, Input, Level, Module, Status, Update};
use crate::events::script::{self, ScriptConfig, ScriptState};
use crate::text::{untrusted, Sink};

struct Custom {
    /// `custom/NAME`.
    name: String,
    /// `custom-NAME`, as Waybar names it.
    css: String,
    config: ScriptConfig,
}

/// `custom/NAME` from its table `[custom.NAME]`.
pub fn make(name: &str, table: ValueDeserializer<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let config = ScriptConfig::deserialize(table)?
        .checked()
        .map_err(<toml::de::Error as serde::de::Error>::custom)?;
    let short = name.trim_start_matches("custom/");
    Ok(Rc::new(Custom {
        name: name.to_owned(),
        css: format!("custom-{}", short),
        config,
    }))
}

impl Module for Custom {
    fn name(&self) -> &str {
        &self.name
    }

    fn css_class(&self) -> &str {
        &self.css
    }

    fn follows(&self) -> &[Update] {
        &[Update::Script]
    }

    fn widget(&self) -> Widget<'_> {
        match self.config.is_static() {
            true => Widget::Label,
            false => Widget::Script(&self.config),
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        if self.config.is_static() {
            script::static_label(&self.config, out);
            return (!out.is_empty()).then(|| Status {
                markup: true,
                ..Status::default()
            });
        }
        match input.scripts.get(&self.name)? {
            ScriptState::Starting | ScriptState::Hidden => None,
            ScriptState::Output(output) => {
                script::format(&self.config, output, out);
                if out.is_empty() {
                    return None;
                }
                Some(Status {
                    markup: true,
                    classes: output.classes.clone(),
                    percentage: output.percentage,
                    ..Status::default()
                })
            }
            ScriptState::Failed { .. } => {
                out.push('⚠');
                Some(Status {
                    level: Level::Warning,
                    class: Some("failed"),
                    ..Status::default()
                })
            }
        }
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        match input.scripts.get(&self.name) {
            Some(ScriptState::Output(output)) => {
                // Checked markup; a plain-text output takes its visible text.
                let mut markup = String::new();
                if script::tooltip_markup(&self.config, output, &mut markup) {
                    sink.checked_markup(&markup);
                }
            }
            Some(ScriptState::Failed { reason }) => {
                untrusted(sink, &self.name);
                sink.out().push_str(": ");
                untrusted(sink, reason);
            }
            // A label without a script: its `tooltip-format`, if any.
            _ if self.config.is_static() => {
                let mut markup = String::new();
                let nothing = script::ScriptOutput::default();
                if script::tooltip_markup(&self.config, &nothing, &mut markup) {
                    sink.checked_markup(&markup);
                }
            }
            _ => {}
        }
    }

    fn action(&self, button: Button) -> Option<Action> {
        let c = &self.config;
        let command = match button {
            Button::Left => &c.on_click,
            Button::Middle => &c.on_click_middle,
            Button::Right => &c.on_click_right,
            Button::ScrollUp => &c.on_scroll_up,
            Button::ScrollDown => &c.on_scroll_down,
            Button::Back => &c.on_click_backward,
            Button::Forward => &c.on_click_forward,
        };
        match self.config.is_static() {
            true => command.as_ref().map(|_| Action::Run(button)),
            false => command.as_ref().map(|_| Action::Script(button)),
        }
    }

    /// A static module's click command (a script's are its runner's).
    fn command(&self, button: Button) -> Option<&str> {
        self.config
            .is_static()
            .then(|| command(&self.config, button))
            .flatten()
    }
}

/// The command a click runs, for the runner.
pub fn command(config: &ScriptConfig, button: Button) -> Option<&str> {
    let c = config;
    match button {
        Button::Left => c.on_click.as_deref(),
        Button::Middle => c.on_click_middle.as_deref(),
        Button::Right => c.on_click_right.as_deref(),
        Button::ScrollUp => c.on_scroll_up.as_deref(),
        Button::ScrollDown => c.on_scroll_down.as_deref(),
        Button::Back => c.on_click_backward.as_deref(),
        Button::Forward => c.on_click_forward.as_deref(),
    }
}
