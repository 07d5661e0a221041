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

use super::alt_format::AltFormat;
use super::clicks::Clicks;
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
    /// Its click keys, as every module's: a script's commands run through its runner.
    clicks: Clicks,
    alternative: AltFormat,
}

/// `custom/NAME` from its table `[custom.NAME]`.
pub fn make(
    name: &str,
    table: ValueDeserializer<'_>,
    clicks: Clicks,
) -> Result<Rc<dyn Module>, toml::de::Error> {
    let config = ScriptConfig::deserialize(table)?
        .checked()
        .map_err(<toml::de::Error as serde::de::Error>::custom)?;
    let short = name.trim_start_matches("custom/");
    let alternative = AltFormat::default();
    if let Some(button) = clicks.alt_toggle() {
        alternative.toggle_with(button);
    }
    Ok(Rc::new(Custom {
        name: name.to_owned(),
        css: format!("custom-{}", short),
        config,
        clicks,
        alternative,
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
            script::static_label(&self.config, self.alternative.shown(), out);
            return (!out.is_empty()).then(|| Status {
                markup: true,
                ..Status::default()
            });
        }
        match input.scripts.get(&self.name)? {
            ScriptState::Starting | ScriptState::Hidden => None,
            ScriptState::Output(output) => {
                script::format(&self.config, output, self.alternative.shown(), out);
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

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        if let Some(menu) = self.clicks.menu_of(button) {
            return Some(Action::Menu(menu.clone()));
        }
        // `format-alt`'s button switches the label, and runs its command too if it has one.
        let switched = (self.alternative).click_set(self.config.format_alt.as_deref(), button);
        let command = self.clicks.command(button);
        match self.config.is_static() {
            true => command.map(|_| Action::Run(button)),
            false => command.map(|_| Action::Script(button)),
        }
        .or(switched)
    }

    /// The command a click runs: alone for a static module, through the script's runner
    /// otherwise ([`Action::Script`]).
    fn command(&self, button: Button) -> Option<&str> {
        self.clicks.command(button)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::modules::tests::input;
    use crate::sample::Sample;

    fn label(module: &dyn Module) -> String {
        let sample = Sample::default();
        let mut out = String::new();
        module.text(&input(&sample), &mut out);
        out
    }

    #[test]
    fn format_alt_switches_on_its_button_and_the_click_still_runs() {
        let config = crate::config::parse(
            "modules_right = [\"custom/weather\", \"custom/power\"]\n\
             [custom.weather]\nformat = \"sun\"\nformat-alt = \"sun, 21°\"\n\
             format-alt-click = \"click-right\"\n\
             [custom.power]\nformat = \"off\"\nformat-alt = \"really?\"\non-click = \"true\"\n",
            Path::new("c.toml"),
        )
        .expect("valid");
        let [weather, power] = &config.modules.right[..] else {
            panic!("two modules");
        };
        assert_eq!(label(weather.as_ref()), "sun");
        assert_eq!(weather.action(Button::Left), None, "not its button");
        assert_eq!(weather.action(Button::Right), Some(Action::Redraw));
        assert_eq!(label(weather.as_ref()), "sun, 21°");
        weather.action(Button::Right);
        assert_eq!(label(weather.as_ref()), "sun");
        // A left click both switches and runs `on-click`, as in Waybar.
        assert_eq!(power.action(Button::Left), Some(Action::Run(Button::Left)));
        assert_eq!(label(power.as_ref()), "really?");
    }
}
