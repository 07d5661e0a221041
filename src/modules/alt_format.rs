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
