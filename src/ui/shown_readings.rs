//! Which system readings the bar shows now (see [`Wanted`]): the tooltip's, while a
//! monitor tooltip is open. GTK maps a tooltip's content when the tooltip shows and
//! unmaps it when it hides; the count of those on screen decides.

use std::cell::Cell;

use crate::sensors::Wanted;

#[derive(Default)]
pub struct ShownReadings {
    open_tooltips: Cell<u32>,
}

impl ShownReadings {
    pub fn wanted(&self) -> Wanted {
        Wanted {
            tooltip: self.open_tooltips.get() > 0,
        }
    }

    /// A monitor tooltip opened (`true`) or closed; returns what the bar wants when that
    /// changed it.
    pub fn tooltip(&self, open: bool) -> Option<Wanted> {
        let before = self.wanted();
        let count = self.open_tooltips.get();
        self.open_tooltips.set(if open {
            count.saturating_add(1)
        } else {
            count.saturating_sub(1)
        });
        let after = self.wanted();
        (after != before).then_some(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_tooltips_decide() {
        let shown = ShownReadings::default();
        assert_eq!(shown.wanted(), Wanted::NONE);
        assert_eq!(shown.tooltip(true), Some(Wanted::ALL));
        // A second tooltip (another bar's) changes nothing; closing one of two neither.
        assert_eq!(shown.tooltip(true), None);
        assert_eq!(shown.tooltip(false), None);
        assert_eq!(shown.tooltip(false), Some(Wanted::NONE));
        // An unmatched close (a widget gone with its bar) never wraps around.
        assert_eq!(shown.tooltip(false), None);
        assert_eq!(shown.wanted(), Wanted::NONE);
    }
}
