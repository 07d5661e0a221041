//! Which system readings the bar shows now (see [`Wanted`]): what the modules on the bars
//! read (`Module::readings`: pressure for `pressure`), and everything while a monitor
//! tooltip is open. GTK maps
//! a tooltip's content when the tooltip shows and unmaps it when it hides; the count of
//! those on screen decides.

use std::cell::Cell;

use crate::sensors::Wanted;

#[derive(Default)]
pub struct ShownReadings {
    open_tooltips: Cell<u32>,
    modules: Cell<Wanted>,
}

impl ShownReadings {
    pub fn wanted(&self) -> Wanted {
        match self.open_tooltips.get() > 0 {
            true => Wanted::ALL,
            false => self.modules.get(),
        }
    }

    /// The config's modules changed: what they read. Returns what the bar wants now.
    pub fn set_modules(&self, wanted: Wanted) -> Wanted {
        self.modules.set(wanted);
        self.wanted()
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

    const LABELS: Wanted = Wanted {
        pressure: false,
        tooltip: false,
    };

    #[test]
    fn tooltips_and_the_pressure_module_decide() {
        let shown = ShownReadings::default();
        assert_eq!(shown.wanted(), LABELS);
        assert_eq!(shown.tooltip(true), Some(Wanted::ALL));
        // A second tooltip (another bar's) changes nothing; closing one of two neither.
        assert_eq!(shown.tooltip(true), None);
        assert_eq!(shown.tooltip(false), None);
        assert_eq!(shown.tooltip(false), Some(LABELS));
        // An unmatched close (a widget gone with its bar) never wraps around.
        assert_eq!(shown.tooltip(false), None);
        assert_eq!(shown.wanted(), LABELS);

        let with_pressure = Wanted {
            pressure: true,
            tooltip: false,
        };
        assert_eq!(shown.set_modules(with_pressure), with_pressure);
        assert_eq!(shown.tooltip(true), Some(Wanted::ALL));
        assert_eq!(shown.tooltip(false), Some(with_pressure));
        assert_eq!(shown.set_modules(Wanted::NONE), LABELS);
    }
}
