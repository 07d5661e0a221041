//! Waybar's `format-alt`: a left click switches a module between its `format` and its
//! `format-alt`, and the next one back.

use std::cell::Cell;

use super::{Action, Button};

/// Whether a module shows its alternative format.
#[derive(Debug, Default)]
pub struct AltFormat(Cell<bool>);

impl AltFormat {
    /// `alt` after an odd number of left clicks, else `format`.
    pub fn pick<'a>(&self, format: &'a str, alt: &'a str) -> &'a str {
        match self.0.get() {
            true => alt,
            false => format,
        }
    }

    /// The format to fill: `alt` while it is switched on, else `format` (`None`: the
    /// module's own text).
    pub fn chosen<'a>(&self, format: Option<&'a str>, alt: Option<&'a str>) -> Option<&'a str> {
        match alt {
            Some(alt) if self.0.get() => Some(alt),
            _ => format,
        }
    }

    /// A monitor module's click: with a `format-alt` (`has_alt`), a left click switches
    /// formats; the other clicks are the monitor's.
    pub fn monitor_click(&self, has_alt: bool, button: Button) -> Option<Action> {
        match has_alt && button == Button::Left {
            true => self.click(button),
            false => super::monitor_action(button),
        }
    }

    /// A left click switches the format, and the module is drawn again; other buttons
    /// are not its.
    pub fn click(&self, button: Button) -> Option<Action> {
        (button == Button::Left).then(|| {
            self.0.set(!self.0.get());
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
    }
}
