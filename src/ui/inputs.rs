//! What the bar's modules render from, gathered in one place: the latest sample, what
//! each script last said and, where the compositor's modules are drawn, its state. Every
//! render and every tooltip builds its `Input` here, so none can leave a part out.

use std::cell::Ref;

use super::app::App;
use super::bar::Bar;
use crate::app::monitor::Monitor;
use crate::app::wallclock::LocalClock;
use crate::events::compositor::CompositorState;
use crate::modules::{Events, Input, Scripts, NO_COMPOSITOR};
use crate::sample::Sample;

pub(super) struct Inputs<'a> {
    monitor: Ref<'a, Monitor>,
    scripts: Ref<'a, Scripts>,
    events: Ref<'a, Events>,
    compositor: Option<CompositorState>,
}

impl App {
    /// The inputs of a render; the compositor's state is copied only `with_compositor`
    /// (a sample tick copies nothing).
    pub(super) fn inputs(&self, with_compositor: bool) -> Inputs<'_> {
        Inputs {
            monitor: self.monitor.borrow(),
            scripts: self.sources.script_states(),
            events: self.sources.events(),
            compositor: with_compositor
                .then(|| self.sources.compositor_state())
                .flatten(),
        }
    }
}

impl Inputs<'_> {
    pub(super) fn sample(&self) -> &Sample {
        self.monitor.sample()
    }

    /// The name of `bar`'s output, where the compositor's modules need it (else empty,
    /// which allocates nothing).
    pub(super) fn output_of(&self, bar: &Bar) -> String {
        match &self.compositor {
            Some(_) => bar.connector(),
            None => String::new(),
        }
    }

    /// The input of the modules of the bar on `output` (from [`Inputs::output_of`]).
    pub(super) fn input<'a>(&'a self, output: &'a str) -> Input<'a> {
        Input {
            sample: self.monitor.sample(),
            clock: &LocalClock,
            compositor: self.compositor.as_ref().unwrap_or(&NO_COMPOSITOR),
            output,
            scripts: &self.scripts,
            events: &self.events,
        }
    }
}
