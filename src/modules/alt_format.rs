//! Waybar's `format-alt`: a left click (or the button `format-alt-click` names) switches a
//! module between its `format` and its `format-alt`, and the next one back.

use std::cell::Cell;

use super::{Action, Button};

/// Whether a module shows its alternative format, and the button that switches it.
#[derive(Debug)]
pub struct AltFormat {
    shown: Cell<bool>,
    toggle: Cell<Button>,
}

impl Default for AltFormat {
    fn default() -> Self {
        AltFormat {
            shown: Cell::new(false),
            toggle: Cell::new(Button::Left),
        }
    }
}

impl AltFormat {
    /// Switches on `button` from now on (Waybar's `format-alt-click`).
    pub fn toggle_with(&self, button: Button) {
        self.toggle.set(button);
    }

    /// Whether the alternative format is shown now.
    pub fn shown(&self) -> bool {
        self.shown.get()
    }

    /// `alt` after an odd number of left clicks, else `format`.
    pub fn pick<'a>(&self, format: &'a str, alt: &'a str) -> &'a str {
        match self.shown.get() {
            true => alt,
            false => format,
        }
    }

    /// [`AltFormat::pick`] for a module whose `format-alt` may be unset: `format` then.
    pub fn pick_set<'a>(&self, format: &'a str, alt: Option<&'a str>) -> &'a str {
        alt.map_or(format, |alt| self.pick(format, alt))
    }

    /// [`AltFormat::click`] for a module whose `format-alt` may be unset: no switch then.
    pub fn click_set(&self, alt: Option<&str>, button: Button) -> Option<Action> {
        alt.and_then(|_| self.click(button))
    }

    /// The format to fill: `alt` while it is switched on, else `format` (`None`: the
    /// module's own text).
    pub fn chosen<'a>(&self, format: Option<&'a str>, alt: Option<&'a str>) -> Option<&'a str> {
        match alt {
            Some(alt) if self.shown.get() => Some(alt),
            _ => format,
        }
    }

    /// A monitor module's click: with a `format-alt` (`has_alt`), its button switches
    /// formats; the other clicks are the monitor's.
    pub fn monitor_click(&self, has_alt: bool, button: Button) -> Option<Action> {
        match has_alt && button == self.toggle.get() {
            true => self.click(button),
            false => super::monitor_action(button),
        }
    }

    /// Its button switches the format, and the module is drawn again; other buttons are
    /// not its.
    pub fn click(&self, button: Button) -> Option<Action> {
        (button == self.toggle.get()).then(|| {
            self.shown.set(!self.shown.get());
            Action::Redraw
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_left_click_switches_and_the_next_switches_back() {
        let alt = AltFormat::default();
        assert_eq!(alt.pick("f", "a"), "f");
        assert_eq!(alt.click(Button::Right), None);
        assert_eq!(alt.pick("f", "a"), "f");
        assert_eq!(alt.click(Button::Left), Some(Action::Redraw));
        assert_eq!(alt.pick("f", "a"), "a");
        assert_eq!(alt.click(Button::Left), Some(Action::Redraw));
        assert_eq!(alt.pick("f", "a"), "f");
        // `format-alt-click = "click-right"`: the right button, not the left.
        alt.toggle_with(Button::Right);
        assert_eq!(alt.click(Button::Left), None);
        assert_eq!(alt.click(Button::Right), Some(Action::Redraw));
        assert_eq!(alt.pick("f", "a"), "a");
        assert_eq!(
            alt.monitor_click(true, Button::Left),
            super::super::monitor_action(Button::Left)
        );
        assert_eq!(alt.monitor_click(true, Button::Right), Some(Action::Redraw));
    }
}
