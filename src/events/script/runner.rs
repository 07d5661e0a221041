//! Runs a custom module's script on the glib main loop, never blocking it: `sh -c` through
//! `gio::Subprocess`, its output read by futures spawned on the module's main context (no
//! other runtime, no thread of ours).
//!
//! - Continuous mode (no `interval`): every line is an update. A script that exits or dies
//!   is `Failed` with the reason (status or signal, and its last line on stderr) and starts
//!   again after a backoff: 1 s, doubling to 60 s, back to 1 s once a run lasted 30 s. With
//!   `restart-interval`, a script that exits with status 0 keeps its last output and starts
//!   again after that interval instead.
//! - Interval mode: run, take the output at its end, wait `interval`, run again (`once`: run
//!   once). A run is killed after max(interval, 10 s) (`once`: 60 s) and is `Failed`. As in
//!   Waybar, a run that exits with a non-zero status hides the module (scripts use that to
//!   hide), one killed by a signal is `Failed`.
//! - `exec-if` runs before each run (before each start in continuous mode); a non-zero
//!   status hides the module until it is checked again: at the next interval, after 10 s in
//!   continuous mode, on refresh in `once` mode.
//! - Limits: a line is at most [`MAX_LINE`] bytes, longer lines are `Failed` the moment they
//!   pass it and the rest is skipped to the newline; of a flood of lines only the latest
//!   counts, and each pipe is read at most every 20 ms, so a flooding script blocks on its
//!   full pipe instead of spinning the bar. Stderr goes to the log at info level, prefixed
//!   `custom/NAME`, at most 20 lines a minute.
//! - The script runs in a process group of its own; `stop()`, drop, a timeout and the end
//!   of a continuous script kill the whole group with SIGKILL, and what the run started
//!   outside the group (`setsid`, a daemon), which ringbar adopts as a child subreaper and
//!   knows by the run's tag in its environment (`orphans.rs`), so no orphan outlives the
//!   module. If ringbar crashes or is killed, the shell dies with it (`PR_SET_PDEATHSIG`),
//!   and a keeper started with the first script (`keeper.rs`) kills the rest of each run.
//! - `on-click` and friends run detached (a session of their own, output to the log): they
//!   may start programs that must outlive the click (`pavucontrol`), so they are not killed.
//!   The module runs again (`exec-on-event`) when the command ends, or after 1 s if it is
//!   still running; at most 8 commands of a module run at once.
//! - `signal: N`: SIGRTMIN+N refreshes, through a self-pipe (see `signals`), since GLib's
//!   unix signal sources refuse realtime signals.
//!
//! Here the runner and its state; `schedule.rs` decides when runs start, `run.rs` runs them
//! (start, pipes, exit, timeout), `output.rs` turns their output into the module's state and
//! `action.rs` runs the click commands; `pipe.rs`, `process.rs`, `orphans.rs`, `keeper.rs`
//! and `log.rs` are the plumbing.

mod action;
mod keeper;
mod log;
mod orphans;
mod output;
mod pipe;
mod process;
mod run;
mod schedule;

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use gtk4::glib::{self, JoinHandle};

pub use self::action::run_detached;
use self::log::Log;
pub use self::orphans::adopt_orphans;
use self::output::Collected;
use self::process::{end_run, Exit};
use self::schedule::BACKOFF_START;
pub use super::ScriptState;
use super::{signals, ScriptConfig};

/// The longest output line read.
pub const MAX_LINE: usize = 64 * 1024;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Continuous,
    Every(Duration),
    Once,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    ExecIf,
    Exec,
}

/// A running `exec` or `exec-if`.
struct Run {
    id: u64,
    kind: Kind,
    pgid: i32,
    /// `RINGBAR_SCRIPT_RUN` of its processes (see `orphans.rs`).
    tag: String,
    started: Instant,
    exit: Option<Exit>,
    /// Pipes not at their end yet.
    open_pipes: u8,
    tasks: Vec<JoinHandle<()>>,
    collected: Collected,
    last_stderr: Option<String>,
}

pub struct ScriptRunner {
    name: String,
    config: ScriptConfig,
    mode: Mode,
    json: bool,
    /// Which lines of a run are kept.
    keep: output::Keep,
    context: glib::MainContext,
    weak: Weak<ScriptRunner>,
    on_update: Box<dyn Fn(&ScriptState)>,
    state: RefCell<ScriptState>,
    inner: RefCell<Inner>,
    log: Rc<RefCell<Log>>,
    actions: Rc<Cell<usize>>,
}

struct Inner {
    stopped: bool,
    run: Option<Run>,
    next_id: u64,
    /// The wait for the next run.
    timer: Option<JoinHandle<()>>,
    refresh_pending: bool,
    backoff: Duration,
    signal: Option<signals::Subscription>,
    /// Pango refused some markup and that was logged; reset by markup it takes.
    markup_logged: bool,
}

impl ScriptRunner {
    /// Starts running `config` on the thread-default glib main context; `on_update` runs
    /// there after each change of state (never from within `start`). `name` is the NAME of
    /// `custom/NAME`, for the log.
    pub fn start(
        name: &str,
        config: ScriptConfig,
        on_update: impl Fn(&ScriptState) + 'static,
    ) -> Rc<ScriptRunner> {
        let mode = match config.interval.map(|i| i.duration()) {
            None => Mode::Continuous,
            Some(None) => Mode::Once,
            Some(Some(every)) => Mode::Every(every),
        };
        let runner = Rc::new_cyclic(|weak| ScriptRunner {
            name: name.to_owned(),
            json: config.is_json(),
            keep: output::Keep::of(mode, config.is_json(), config.whole_output),
            config,
            mode,
            context: glib::MainContext::ref_thread_default(),
            weak: weak.clone(),
            on_update: Box::new(on_update),
            state: RefCell::new(ScriptState::Starting),
            inner: RefCell::new(Inner {
                stopped: false,
                run: None,
                next_id: 0,
                timer: None,
                refresh_pending: false,
                backoff: BACKOFF_START,
                signal: None,
                markup_logged: false,
            }),
            log: Rc::new(RefCell::new(Log {
                prefix: format!("custom/{name}"),
                window: Instant::now(),
                lines: 0,
                dropped: 0,
            })),
            actions: Rc::new(Cell::new(0)),
        });
        if let Some(offset) = runner.config.signal {
            let weak = runner.weak.clone();
            let refresh = move || {
                if let Some(runner) = weak.upgrade() {
                    runner.refresh();
                }
            };
            match signals::subscribe(offset, &runner.context, refresh) {
                Ok(subscription) => runner.inner.borrow_mut().signal = Some(subscription),
                Err(reason) => tracing::warn!("custom/{name}: no signal: {reason}"),
            }
        }
        runner.schedule(Duration::ZERO);
        runner
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn config(&self) -> &ScriptConfig {
        &self.config
    }

    pub fn state(&self) -> ScriptState {
        self.state.borrow().clone()
    }

    /// Runs the script again now (signal, click). An interval run under way is followed by
    /// another at once; a continuous script that is running is left alone (as in Waybar),
    /// one waiting to restart starts now.
    pub fn refresh(&self) {
        let mut inner = self.inner.borrow_mut();
        if inner.stopped {
            return;
        }
        if inner.run.is_some() {
            inner.refresh_pending |= self.mode != Mode::Continuous;
            return;
        }
        drop(inner);
        self.schedule(Duration::ZERO);
    }

    /// Kills the script (its whole process group) and removes every source of this module;
    /// the state stays as it was and `on_update` is not called again. Drop does the same.
    pub fn stop(&self) {
        let (run, timer, signal) = {
            let mut inner = self.inner.borrow_mut();
            if inner.stopped {
                return;
            }
            inner.stopped = true;
            (inner.run.take(), inner.timer.take(), inner.signal.take())
        };
        if let Some(run) = run {
            end_run(run.pgid, &run.tag);
            run.tasks.iter().for_each(JoinHandle::abort);
        }
        if let Some(timer) = timer {
            timer.abort();
        }
        drop(signal);
    }

    fn stopped(&self) -> bool {
        self.inner.borrow().stopped
    }
}

impl Drop for ScriptRunner {
    fn drop(&mut self) {
        self.stop();
    }
}

impl std::fmt::Debug for ScriptRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ScriptRunner(custom/{})", self.name)
    }
}
