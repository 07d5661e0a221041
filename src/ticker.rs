//! The sample tick: one glib timeout source, re-armed when the wanted interval changes,
//! for the bar and for `--waybar`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use gtk4::glib;

#[derive(Default)]
pub struct Ticker {
    source: RefCell<Option<glib::SourceId>>,
    armed_ms: Cell<u32>,
}

impl Ticker {
    /// Calls `tick` every `ms`. `tick` returns the interval it wants from then on (it
    /// re-arms when that changed) or `None` to stop, when its owner is gone.
    pub fn arm(self: &Rc<Self>, ms: u32, tick: Rc<dyn Fn() -> Option<u32>>) {
        if let Some(source) = self.source.take() {
            source.remove();
        }
        let ticker = Rc::downgrade(self);
        let next = tick.clone();
        let source = glib::timeout_add_local(Duration::from_millis(u64::from(ms)), move || {
            let (Some(ticker), Some(wanted)) = (ticker.upgrade(), tick()) else {
                return glib::ControlFlow::Break;
            };
            if ticker.armed_ms.get() == wanted {
                return glib::ControlFlow::Continue;
            }
            // This source ends by returning Break: forget it so arm() does not remove it.
            ticker.source.take();
            ticker.arm(wanted, next.clone());
            glib::ControlFlow::Break
        });
        self.source.replace(Some(source));
        self.armed_ms.set(ms);
    }
}
