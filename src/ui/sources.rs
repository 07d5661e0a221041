//! The event sources the bar's modules follow besides the sample tick, started and
//! stopped in one place: the wall-clock timer (`Update::Timer`), the compositor's IPC
//! (`Update::Compositor`), the script modules' runners (`Update::Script`), the tray's
//! StatusNotifierHost (`Update::Bus`), and the [`EventSource`]s the modules name
//! (`Update::Event`: rtnetlink, the sound server, BlueZ…). Each runs on
//! the main loop through gio's async IO and, when it changes, asks the bar to redraw the
//! modules that follow its kind, at most once per frame (`paced`). `follow` starts what the config's modules need and
//! stops the scripts no longer listed; a script that kept its name and settings goes on
//! as it was.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use gtk4 as gtk;

use super::tray::TrayHost;
use crate::app::wallclock::WallTimer;
use crate::events::compositor::{Compositor, CompositorState, Workspace};
use crate::events::script::runner::{self, ScriptRunner};
use crate::events::script::ScriptState;
use crate::events::source::Running;
use crate::events::{EventSource, Events, SourceCommand, SourceSettings};
use crate::modules::{Layout, Scripts, TraySettings, Update};

/// A source started, with the settings it started with and its client (`None`: it could
/// not start).
type StartedSource = (
    EventSource,
    Option<SourceSettings>,
    Option<Box<dyn Running>>,
);

pub struct Sources {
    /// Redraws the modules of one kind.
    redraw: Rc<dyn Fn(Update)>,
    wall_timer: RefCell<Option<WallTimer>>,
    compositor: RefCell<Option<Rc<Compositor>>>,
    /// The config's `compositor` when the connection was made.
    compositor_choice: RefCell<Option<String>>,
    runners: RefCell<Vec<Rc<ScriptRunner>>>,
    /// What each script module's script last said, by module name.
    script_states: Rc<RefCell<Scripts>>,
    /// Started by the first bar with a `tray` module.
    tray: RefCell<Option<Rc<TrayHost>>>,
    /// The event sources started, each once (`None`: it could not start).
    watches: RefCell<Vec<StartedSource>>,
    /// What the event sources other than the compositor and the scripts last said.
    events: Rc<RefCell<Events>>,
}

impl Sources {
    pub fn new(redraw: impl Fn(Update) + 'static) -> Sources {
        Sources {
            redraw: super::paced::paced(redraw),
            wall_timer: RefCell::new(None),
            compositor: RefCell::new(None),
            compositor_choice: RefCell::new(None),
            runners: RefCell::new(Vec::new()),
            script_states: Rc::new(RefCell::new(Scripts::new())),
            tray: RefCell::new(None),
            watches: RefCell::new(Vec::new()),
            events: Rc::new(RefCell::new(Events::default())),
        }
    }

    /// Starts the sources `modules` follow that are not running yet, and stops the
    /// scripts they no longer list. `compositor`: the config's choice of backend; a
    /// new choice drops the connection made for the old one.
    pub fn follow(&self, modules: &Layout, compositor: Option<&str>) {
        self.start_wall_timer();
        if self.compositor_choice.borrow().as_deref() != compositor {
            self.compositor.take();
            self.compositor_choice
                .replace(compositor.map(str::to_owned));
        }
        let needs = |kind: Update| modules.all().any(|m| m.follows().contains(&kind));
        if needs(Update::Compositor) && self.compositor.borrow().is_none() {
            let redraw = self.redraw.clone();
            let on_change = move |_: &CompositorState| redraw(Update::Compositor);
            let compositor = Compositor::connect_from_env(compositor, on_change);
            self.compositor.replace(compositor);
        }
        for (source, settings) in crate::modules::event_sources(modules.all()) {
            self.follow_source(source, settings);
        }
        self.follow_scripts(modules);
    }

    /// Starts `source` unless it runs with these settings; one that ran with others is
    /// stopped first, and what it said forgotten.
    fn follow_source(&self, source: EventSource, settings: Option<SourceSettings>) {
        let mut watches = self.watches.borrow_mut();
        if let Some(at) = watches.iter().position(|(s, _, _)| *s == source) {
            if watches[at].1 == settings {
                return;
            }
            drop(watches.remove(at));
            self.events.borrow_mut().clear(source);
        }
        drop(watches);
        let redraw = self.redraw.clone();
        let changed = Rc::new(move || redraw(Update::Event(source)));
        let watch = source.start(settings.as_ref(), &self.events, changed);
        self.watches.borrow_mut().push((source, settings, watch));
    }

    /// A click's or a scroll's command, for the source that carries it out.
    pub fn command(&self, command: SourceCommand) {
        let watches = self.watches.borrow();
        let source = command.source();
        if let Some((_, _, Some(watch))) = watches.iter().find(|(s, _, _)| *s == source) {
            watch.command(&command);
        }
    }

    /// The event sources started.
    pub fn started(&self) -> Vec<EventSource> {
        self.watches.borrow().iter().map(|(s, _, _)| *s).collect()
    }

    pub fn events(&self) -> Ref<'_, Events> {
        self.events.borrow()
    }

    fn start_wall_timer(&self) {
        if self.wall_timer.borrow().is_some() {
            return;
        }
        let redraw = self.redraw.clone();
        match WallTimer::new(move || redraw(Update::Timer)) {
            Ok(timer) => {
                self.wall_timer.replace(Some(timer));
            }
            Err(err) => tracing::warn!("no wall-clock timer, the clock will not advance: {err}"),
        }
    }

    /// Wakes the timed modules at `unix_ms` (wall-clock time).
    pub fn arm_wall_timer(&self, unix_ms: u64) {
        if let Some(timer) = self.wall_timer.borrow().as_ref() {
            if let Err(err) = timer.arm_at(unix_ms) {
                tracing::warn!("cannot arm the wall-clock timer: {err}");
            }
        }
    }

    /// One runner per script module; an unchanged one keeps running (a reload neither
    /// restarts its script nor resets its backoff).
    fn follow_scripts(&self, modules: &Layout) {
        // The keeper of the scripts' processes only once a layout has a script: a bar
        // without one starts no process.
        if modules
            .all()
            .any(|module| module.widget().script().is_some())
        {
            runner::adopt_orphans();
        }
        let mut old: Vec<Rc<ScriptRunner>> = self.runners.borrow_mut().drain(..).collect();
        self.script_states.borrow_mut().clear();
        let mut started: Vec<String> = Vec::new();
        for module in modules.all() {
            let Some(script) = module.widget().script() else {
                continue;
            };
            let name = module.name().to_owned();
            if started.contains(&name) {
                continue; // listed twice: one script feeds both places
            }
            started.push(name.clone());
            let short = module.name().trim_start_matches("custom/");
            if let Some(at) = old
                .iter()
                .position(|r| r.name() == short && r.config() == script)
            {
                let runner = old.swap_remove(at);
                self.script_states.borrow_mut().insert(name, runner.state());
                self.runners.borrow_mut().push(runner);
                continue;
            }
            self.script_states
                .borrow_mut()
                .insert(name.clone(), ScriptState::Starting);
            let (states, redraw) = (self.script_states.clone(), self.redraw.clone());
            let on_update = move |state: &ScriptState| {
                states.borrow_mut().insert(name.clone(), state.clone());
                redraw(Update::Script);
            };
            let runner = ScriptRunner::start(short, script.clone(), on_update);
            self.runners.borrow_mut().push(runner);
        }
        for runner in old {
            runner.stop();
        }
    }

    /// Runs a click's `command` through the runner of script module `name`.
    pub fn run_script_action(&self, name: &str, command: &str) {
        let short = name.trim_start_matches("custom/");
        let runners = self.runners.borrow();
        if let Some(runner) = runners.iter().find(|r| r.name() == short) {
            runner.run_action(command);
        }
    }

    pub fn script_states(&self) -> Ref<'_, Scripts> {
        self.script_states.borrow()
    }

    /// The compositor's workspaces and focused window, if it is followed.
    pub fn compositor_state(&self) -> Option<CompositorState> {
        self.compositor.borrow().as_ref().map(|c| c.state())
    }

    pub fn focus_workspace(&self, workspace: &Workspace) {
        if let Some(compositor) = self.compositor.borrow().as_ref() {
            compositor.focus_workspace(workspace);
        }
    }

    pub fn next_layout(&self) {
        if let Some(compositor) = self.compositor.borrow().as_ref() {
            compositor.next_layout();
        }
    }

    pub fn step_workspace(&self, forward: bool, warp: bool) {
        if let Some(compositor) = self.compositor.borrow().as_ref() {
            compositor.step_workspace(forward, warp);
        }
    }

    /// Puts a bar's tray box under the tray host, starting the host on first use.
    pub fn attach_tray(&self, container: &gtk::Box, settings: &TraySettings) {
        let host = self
            .tray
            .borrow_mut()
            .get_or_insert_with(|| {
                let redraw = self.redraw.clone();
                TrayHost::start(Box::new(move || redraw(Update::Bus)))
            })
            .clone();
        host.attach(container, settings);
    }
}
