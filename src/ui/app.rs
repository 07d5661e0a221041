//! The running bar: one monitor, one bar per output.
//!
//! The monitor samples on its own thread; each sample it hands over sets the modules'
//! text on the widgets. Nothing slow runs here. A tooltip's markup is
//! built only when GTK asks for it (it is about to show) or while it is on screen.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use gtk4::prelude::*;
use gtk4::{gdk, gio, glib};

use super::bar::{self, Bar};
use super::shown_readings::ShownReadings;
use super::sources::Sources;
#[cfg(feature = "test-support")]
use super::test_hook::TestHook;
use crate::app::monitor::Monitor;
use crate::app::startup::Started;
use crate::app::wallclock::LocalClock;
use crate::app::worker::{Taken, Watch};
use crate::config::Config;
use crate::events::control::Message;
use crate::modules::{Action, Update};
use crate::render::report;
use crate::sample::{Sample, Source};
use crate::text::Markup;

/// Sets `label` to the monitor's report as markup. `scratch` is a reused buffer.
fn fill_report(label: &gtk4::Label, sample: &Sample, scratch: &mut String) {
    scratch.clear();
    report::write(&mut Markup(scratch), sample);
    if label.label() != scratch.as_str() {
        label.set_markup(scratch);
    }
}

pub struct App {
    pub(super) monitor: RefCell<Monitor>,
    pub(super) config: RefCell<Config>,
    config_file: Option<PathBuf>,
    pub(super) bars: RefCell<Vec<Bar>>,
    /// The monitors followed, or `None` with the plain-window fallback.
    pub(super) monitors: RefCell<Option<gio::ListModel>>,
    /// Monitors without a name yet, each watched once for it (see `sync_monitors`).
    pub(super) unnamed: RefCell<Vec<gdk::Monitor>>,
    pub(super) main_loop: glib::MainLoop,
    /// Renders each sample the sampling thread hands over.
    samples: RefCell<Option<Watch>>,
    #[cfg(feature = "test-support")]
    pub(super) test_hook: Option<TestHook>,
    /// A reused buffer: steady ticks do not allocate for text.
    text: RefCell<String>,
    /// What the modules follow besides the sample: timer, compositor, scripts, tray.
    pub(super) sources: Sources,
    /// What the samples must read for what is on screen.
    readings: ShownReadings,
}

impl App {
    /// Starts the sampling thread: fails if it cannot start without privileges.
    pub fn new(started: Started, main_loop: glib::MainLoop) -> Result<Rc<App>, String> {
        let monitor = Monitor::start(started.sampler, started.controls, started.state_file)?;
        Ok(Rc::new_cyclic(|app: &std::rc::Weak<App>| App {
            monitor: RefCell::new(monitor),
            config: RefCell::new(started.config),
            config_file: started.config_file,
            bars: RefCell::new(Vec::new()),
            monitors: RefCell::new(None),
            unnamed: RefCell::new(Vec::new()),
            main_loop,
            samples: RefCell::new(None),
            #[cfg(feature = "test-support")]
            test_hook: TestHook::from_env(),
            text: RefCell::new(String::with_capacity(4096)),
            sources: {
                let app = app.clone();
                Sources::new(move |kind| {
                    if let Some(app) = app.upgrade() {
                        app.redraw(kind);
                    }
                })
            },
            readings: ShownReadings::default(),
        }))
    }

    /// Shows the modules and renders each sample as it comes.
    pub fn start(self: &Rc<Self>) {
        self.set_sampling(self.config.borrow().takes_samples);
        let config = self.config.borrow();
        self.sources
            .follow(&config.modules, config.compositor.as_deref());
        drop(config);
        self.want_shown_readings();
        self.render_all();
        let watch = self.monitor.borrow().watch(glib::clone!(
            #[weak(rename_to = app)]
            self,
            #[upgrade_or]
            glib::ControlFlow::Break,
            move || {
                app.receive();
                glib::ControlFlow::Continue
            }
        ));
        self.samples.replace(Some(watch));
    }

    /// Samples are taken only while the layout shows some (see [`Monitor::set_sampling`]).
    fn set_sampling(&self, sampling: bool) {
        self.monitor.borrow().set_sampling(sampling);
        #[cfg(feature = "test-support")]
        if let Some(hook) = &self.test_hook {
            hook.sampling(sampling);
        }
    }

    /// A sample was handed over: render it (and the ⚠ markers when its notices changed:
    /// a reload's config problems come with the sample after it).
    fn receive(&self) {
        let taken = self.monitor.borrow_mut().receive();
        let Taken::Sample { notices_changed } = taken else {
            return;
        };
        if notices_changed {
            for bar in self.bars.borrow().iter() {
                self.show_notices(bar);
            }
        }
        self.render();
        #[cfg(feature = "test-support")]
        if let Some(hook) = &self.test_hook {
            hook.sample_rendered(self.monitor.borrow().sample());
        }
    }

    /// What `ringbar msg` asks.
    pub fn obey(self: &Rc<Self>, command: Message) {
        match command {
            Message::Monitor(request) => self.perform(Action::Monitor(request)),
            Message::Reload => self.reload(),
        }
    }

    /// What a click on a module asks. The monitor's settings reach the sampling thread,
    /// which hands over a sample at once: a new one for a new interval, the latest one
    /// re-ranked for the kernel-thread and group-by settings.
    pub fn perform(self: &Rc<Self>, action: Action) {
        match action {
            Action::Monitor(request) => self.monitor.borrow_mut().apply(request),
            Action::Redraw => self.render_all(),
            // Routed by the module: see `clicked`.
            Action::Command(command) => self.sources.command(command),
            Action::NextLayout => self.sources.next_layout(),
            Action::FocusWorkspace(workspace) => self.sources.focus_workspace(&workspace),
            Action::StepWorkspace { forward, warp } => self.sources.step_workspace(forward, warp),
            Action::Script(_) | Action::Run(_) | Action::Spawn(_) | Action::Menu(_) => {}
        }
    }

    /// Reads the config again, rediscovers the sensors it names and rebuilds the bars
    /// (position, height and modules may have changed). The user style reloads apart.
    pub fn reload(self: &Rc<Self>) {
        let config = self
            .monitor
            .borrow_mut()
            .reload_config(self.config_file.as_deref());
        self.set_sampling(config.takes_samples);
        super::give_back_start_up_memory_later();
        self.config.replace(config);
        let config = self.config.borrow();
        self.sources
            .follow(&config.modules, config.compositor.as_deref());
        drop(config);
        self.want_shown_readings();

        // A window that still fits is kept, with new content: destroying one leaks the
        // last buffer the compositor held (GDK's, about a bar's size in shared memory).
        let old: Vec<Bar> = self.bars.borrow_mut().drain(..).collect();
        let had_bars = !old.is_empty();
        let mut kept = Vec::new();
        for mut bar in old {
            let config = self.config.borrow();
            let spec = config.bars.get(bar.spec).filter(|spec| {
                bar.fits(spec) && bar.monitor.as_ref().is_none_or(|m| bar::wants(spec, m))
            });
            match spec {
                Some(spec) => {
                    bar.refill(spec, &|module| self.button_row(module));
                    kept.push(bar);
                }
                None => bar.retire(),
            }
        }
        let fallback_kept = kept.iter().any(|bar| bar.monitor.is_none());
        for bar in kept {
            self.keep_bar(bar);
        }
        let monitors = self.monitors.borrow().clone();
        match monitors {
            Some(list) => self.sync_monitors(&list),
            None if had_bars && !fallback_kept => self.add_fallback(),
            None => self.render_all(),
        }
        self.monitor.borrow().sample_now();
    }

    /// The system readings the bar shows now, for a new or reloaded monitor.
    fn want_shown_readings(&self) {
        self.monitor
            .borrow()
            .set_wanted(self.readings.wanted(), false);
    }

    /// A monitor tooltip showed (`true`) or hid: the samples read what it shows only
    /// while one is open, and one comes at once when it opens.
    pub(super) fn monitor_tooltip_shown(&self, open: bool) {
        let Some(wanted) = self.readings.tooltip(open) else {
            return;
        };
        match self.monitor.try_borrow() {
            Ok(monitor) => monitor.set_wanted(wanted, open),
            // Only while the monitor reloads, which sets what is wanted anyway.
            Err(_) => tracing::debug!("tooltip {open} during a reload"),
        }
    }

    /// Sets every bar's sample-driven modules from the latest sample, and the tooltips
    /// that are shown.
    pub(super) fn render(&self) {
        self.render_of(Update::Sample);
    }

    /// The timer for the timed modules' next change, then the modules. Armed first: a
    /// clock set while they are drawn then cancels the timer (it fires, and they are drawn
    /// again); armed after, a clock set between the drawing and the arming went unseen,
    /// and the old time stayed up to a minute.
    fn render_timed(&self) {
        let clock = LocalClock;
        let now = crate::modules::WallClock::unix_ms(&clock);
        let next = self
            .config
            .borrow()
            .modules
            .all()
            .filter(|m| m.follows().contains(&Update::Timer))
            .filter_map(|m| m.next_update_ms(now))
            .min();
        if let Some(delay) = next {
            self.sources.arm_wall_timer(now + delay);
        }
        self.render_of(Update::Timer);
    }

    /// A source of events changed: redraw the modules that follow it.
    fn redraw(&self, kind: Update) {
        match kind {
            Update::Timer => self.render_timed(),
            kind => self.render_of(kind),
        }
    }

    /// Every module, whatever drives it (new bars, a click that changed a module).
    pub(super) fn render_all(&self) {
        self.render();
        self.render_timed();
        self.render_of(Update::Compositor);
        self.render_of(Update::Script);
        for source in self.sources.started() {
            self.render_of(Update::Event(source));
        }
    }

    /// Renders the modules that follow `kind`.
    pub(super) fn render_of(&self, kind: Update) {
        let inputs = self.inputs(kind == Update::Compositor);
        let sample = inputs.sample();
        let mut text = self.text.borrow_mut();
        for bar in self.bars.borrow_mut().iter_mut() {
            let output = inputs.output_of(bar);
            let input = inputs.input(&output);
            for slot in &mut bar.slots {
                if !slot.module.follows().contains(&kind) {
                    continue;
                }
                slot.render(&input, &mut text);
                if slot.tooltip.is_mapped() {
                    slot.fill_tooltip(&input, &mut text);
                    #[cfg(feature = "test-support")]
                    if let Some(hook) = &self.test_hook {
                        hook.write_tooltip(&slot.tooltip);
                        hook.write_graphs(slot.graphs.as_ref());
                    }
                }
            }
            if bar.notice_tooltip.is_mapped() {
                fill_report(&bar.notice_tooltip, sample, &mut text);
                #[cfg(feature = "test-support")]
                if let Some(hook) = &self.test_hook {
                    hook.write_tooltip(&bar.notice_tooltip);
                }
            }
        }
        #[cfg(feature = "test-support")]
        if let Some(hook) = &self.test_hook {
            hook.rendered(kind);
            hook.rendered_bars(&self.bars.borrow());
        }
    }

    /// `window` painted a frame: the test hook writes the bars' geometry once it is laid
    /// out.
    #[cfg(feature = "test-support")]
    pub(super) fn painted(&self, window: &gtk4::Window) {
        let (Some(hook), Ok(bars)) = (&self.test_hook, self.bars.try_borrow()) else {
            return;
        };
        if hook.painted(window) {
            hook.write_bars(&bars);
        }
    }

    /// Fills the ⚠ marker's tooltip of the bar on `window`.
    pub(super) fn fill_notice_tooltip(&self, window: &gtk4::Window) {
        let monitor = self.monitor.borrow();
        let bars = self.bars.borrow();
        let Some(bar) = bars.iter().find(|bar| &bar.window == window) else {
            return;
        };
        let sample = monitor.sample();
        fill_report(&bar.notice_tooltip, sample, &mut self.text.borrow_mut());
        #[cfg(feature = "test-support")]
        if let Some(hook) = &self.test_hook {
            hook.write_tooltip(&bar.notice_tooltip);
        }
    }

    /// Fills the tooltip of slot `index` of the bar on `window` (GTK is about to show it).
    pub(super) fn fill_tooltip(&self, window: &gtk4::Window, index: usize) {
        let bars = self.bars.borrow();
        let Some(bar) = bars.iter().find(|bar| &bar.window == window) else {
            return;
        };
        let Some(slot) = bar.slots.get(index) else {
            return;
        };
        let inputs = self.inputs(true);
        let output = inputs.output_of(bar);
        slot.fill_tooltip(&inputs.input(&output), &mut self.text.borrow_mut());
        #[cfg(feature = "test-support")]
        if let Some(hook) = &self.test_hook {
            hook.write_tooltip(&slot.tooltip);
            hook.write_graphs(slot.graphs.as_ref());
        }
    }

    /// Whether the numbers come from /proc: the bars then carry the `probe-off` class.
    pub(super) fn probe_off(&self) -> bool {
        self.monitor.borrow().sample().source == Source::Proc
    }

    /// The titles of the notices, for the ⚠ marker.
    pub(super) fn notice_titles(&self) -> Vec<String> {
        let monitor = self.monitor.borrow();
        let notices = &monitor.sample().notices;
        let mut titles: Vec<String> = Vec::new();
        for notice in notices {
            if !titles.contains(&notice.title) {
                titles.push(notice.title.clone());
            }
        }
        titles
    }
}
