//! A module as the config lists it, when that adds to the module itself:
//! - `NAME#ID`: a second module of the same kind with a table of its own
//!   (`["battery#bat2"]`), as in Waybar. Its label has the classes of the kind and `ID`
//!   (Waybar's `#battery.bat2`).
//! - the user's commands for clicks and scrolls ([`Clicks`]), run in place of the
//!   module's own actions.

use std::rc::Rc;

use super::alt_format::AltFormat;
use super::clicks::Clicks;
use super::{Action, Button, Input, Module, Status, Update};
use super::{Sampling, Widget};
use crate::events::SourceSettings;
use crate::sample::readings::{Reader, Roots};
use crate::text::Sink;

pub struct Listed {
    /// `battery#bat2`; `None` for the module's own name.
    name: Option<String>,
    clicks: Clicks,
    inner: Rc<dyn Module>,
}

/// Splits `battery#bat2` into the kind and the id; `None` for a plain name. An id is a
/// CSS class name: letters, digits, `-` and `_`.
pub fn split(name: &str) -> Option<(&str, &str)> {
    let (kind, id) = name.split_once('#')?;
    let css = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    (!kind.is_empty() && !id.is_empty() && id.chars().all(css)).then_some((kind, id))
}

/// `inner` as listed under `name`, with `clicks` over its own actions; `inner` itself
/// when that adds nothing.
pub fn wrap(name: &str, clicks: Clicks, inner: Rc<dyn Module>) -> Rc<dyn Module> {
    if let (Some(button), Some(alt)) = (clicks.alt_toggle(), inner.alt_format()) {
        alt.toggle_with(button);
    }
    let name = split(name).map(|_| name.to_owned());
    if name.is_none() && clicks.is_empty() {
        return inner;
    }
    Rc::new(Listed {
        name,
        clicks,
        inner,
    })
}

impl Module for Listed {
    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(self.inner.name())
    }

    fn css_class(&self) -> &str {
        self.inner.css_class()
    }

    fn instance_class(&self) -> Option<&str> {
        split(self.name.as_deref()?).map(|(_, id)| id)
    }

    fn next_update_ms(&self, unix_ms: u64) -> Option<u64> {
        self.inner.next_update_ms(unix_ms)
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        self.inner.text(input, out)
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        self.inner.tooltip(sink, input);
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        self.inner.reader(roots)
    }

    fn follows(&self) -> &[Update] {
        self.inner.follows()
    }

    fn source_settings(&self) -> Option<SourceSettings> {
        self.inner.source_settings()
    }

    fn command(&self, button: Button) -> Option<&str> {
        self.clicks
            .command(button)
            .or_else(|| self.inner.command(button))
    }

    fn on_update(&self) -> Option<&str> {
        self.clicks.on_update()
    }

    fn reading_in_report(&self) -> bool {
        self.inner.reading_in_report()
    }

    fn history_graphs(&self) -> bool {
        self.inner.history_graphs()
    }

    fn widget(&self) -> Widget<'_> {
        self.inner.widget()
    }

    fn sampling(&self) -> Option<Sampling> {
        self.inner.sampling()
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        self.inner.alt_format()
    }

    fn action(&self, button: Button) -> Option<Action> {
        if let Some(menu) = self.clicks.menu_of(button) {
            return Some(Action::Menu(menu.clone()));
        }
        match self.clicks.command(button) {
            Some(_) => Some(Action::Run(button)),
            None => self.inner.action(button),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn instances_have_their_own_table_class_and_reading() {
        let config = crate::config::parse(
            "modules_right = [\"disk\", \"disk#tmp\", \"battery#bat2\"]\n\
             [disk]\nmounts = [\"/\"]\n[\"disk#tmp\"]\nmounts = [\"/tmp\"]\nwarning = 5\n",
            Path::new("c.toml"),
        )
        .expect("valid");
        let right = &config.modules.right;
        let names: Vec<&str> = right.iter().map(|m| m.name()).collect();
        assert_eq!(names, ["disk", "disk#tmp", "battery#bat2"]);
        assert_eq!(right[1].css_class(), "disk");
        assert_eq!(right[1].instance_class(), Some("tmp"));
        assert_eq!(right[0].instance_class(), None);
        assert_eq!(right[2].css_class(), "battery");
        let readers = crate::modules::readers_of(right.iter(), &Roots::system());
        let listed = readers.iter().filter(|r| !r.only_while_shown());
        let keys: Vec<&str> = listed.map(|r| r.key()).collect();
        if cfg!(feature = "app") {
            assert_eq!(
                keys,
                ["disk", "disk#tmp", "battery#bat2"],
                "a reading per instance"
            );
        }
        for bad in ["battery#", "battery#a b", "#x", "nothing#x"] {
            let text = format!("modules_right = [{bad:?}]\n");
            assert!(
                crate::config::parse(&text, Path::new("c.toml")).is_err(),
                "{bad} is no module"
            );
        }
    }

    #[test]
    fn format_alt_click_moves_the_switch_to_its_button() {
        let config = crate::config::parse(
            "modules_right = [\"cpu\", \"battery\", \"disk\"]\n\
             [cpu]\nformat-alt = \"{usage}%\"\nformat-alt-click = \"click-right\"\n\
             [battery]\nformat-alt = \"{time}\"\n\
             [disk]\nformat-alt-click = \"click-middle\"\n",
            Path::new("c.toml"),
        )
        .expect("valid");
        let [cpu, battery, disk] = &config.modules.right[..] else {
            panic!("three modules");
        };
        assert_eq!(cpu.action(Button::Right), Some(Action::Redraw), "switches");
        assert_eq!(
            cpu.action(Button::Left),
            crate::modules::monitor_action(Button::Left),
            "the monitor's left click again"
        );
        assert_eq!(
            battery.action(Button::Left),
            Some(Action::Redraw),
            "by default"
        );
        // A module without `format-alt` has nothing to switch: its clicks stay its own.
        assert_ne!(disk.action(Button::Middle), Some(Action::Redraw));
        let bad = "modules_right = [\"cpu\"]\n[cpu]\nformat-alt-click = \"click-left\"\n";
        assert!(crate::config::parse(bad, Path::new("c.toml")).is_err());
    }
}
