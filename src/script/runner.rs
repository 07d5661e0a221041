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
//!   of a continuous script kill the whole group with SIGKILL, so no orphan outlives the
//!   module. If ringbar crashes, the shell dies with it (`PR_SET_PDEATHSIG`) and what the
//!   shell started dies of SIGPIPE at its next line, as nobody reads the pipe any more.
//! - `on-click` and friends run detached (a session of their own, output to the log): they
//!   may start programs that must outlive the click (`pavucontrol`), so they are not killed.
//!   The module runs again (`exec-on-event`) when the command ends, or after 1 s if it is
//!   still running; at most 8 commands of a module run at once.
//! - `signal: N`: SIGRTMIN+N refreshes, through a self-pipe (see `signals`), since GLib's
//!   unix signal sources refuse realtime signals.

use std::cell::{Cell, RefCell};
use std::ffi::OsStr;
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use gtk4::gio::{self, prelude::*};
use gtk4::glib::{self, JoinHandle, Priority};
use gtk4::pango;

use super::lines::{Line, LineSplitter};
pub use super::ScriptState;
use super::{markup, parse_line, signals, ScriptConfig, ScriptOutput};

/// The longest output line read.
pub const MAX_LINE: usize = 64 * 1024;
const STDOUT_CHUNK: usize = 64 * 1024;
const STDERR_CHUNK: usize = 16 * 1024;
/// Each pipe is read at most this often.
const READ_GAP: Duration = Duration::from_millis(20);
/// An interval run is killed after max(interval, this).
const MIN_TIMEOUT: Duration = Duration::from_secs(10);
const ONCE_TIMEOUT: Duration = Duration::from_secs(60);
const EXEC_IF_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a continuous module hidden by `exec-if` checks again.
const EXEC_IF_RECHECK: Duration = Duration::from_secs(10);
/// How long after its exit a script's pipes may stay open (a background child holding them).
const EXIT_GRACE: Duration = Duration::from_secs(1);
const BACKOFF_START: Duration = Duration::from_secs(1);
const BACKOFF_MAX: Duration = Duration::from_secs(60);
/// A continuous run this long resets the backoff.
const STABLE_RUN: Duration = Duration::from_secs(30);
/// A click's command still running by then: the module runs again anyway.
const ACTION_REFRESH_AFTER: Duration = Duration::from_secs(1);
const MAX_ACTIONS: usize = 8;
const LOG_WINDOW: Duration = Duration::from_secs(60);
const LOG_LINES: u32 = 20;
const LOG_CHARS: usize = 300;
const REASON_CHARS: usize = 200;

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

#[derive(Clone, Copy, Debug, PartialEq)]
enum Exit {
    Code(i32),
    Signal(i32),
}

/// A running `exec` or `exec-if`.
struct Run {
    id: u64,
    kind: Kind,
    pgid: i32,
    started: Instant,
    exit: Option<Exit>,
    /// Pipes not at their end yet.
    open_pipes: u8,
    tasks: Vec<JoinHandle<()>>,
    collected: Collected,
    last_stderr: Option<String>,
}

/// The output kept from a run: the latest line (continuous, and JSON interval runs), or
/// the first three lines (plain interval runs).
#[derive(Default)]
struct Collected {
    latest: Vec<u8>,
    latest_cut: bool,
    /// `latest` is newer than the state.
    fresh: bool,
    first: Vec<(Vec<u8>, bool)>,
}

impl Collected {
    fn add(&mut self, line: Line<'_>, mode: Mode, json: bool) {
        let blank = line.bytes.iter().all(u8::is_ascii_whitespace);
        if mode == Mode::Continuous || (json && !blank) {
            self.latest.clear();
            self.latest.extend_from_slice(line.bytes);
            self.latest_cut = line.cut;
            self.fresh = true;
        } else if !json && self.first.len() < 3 {
            self.first.push((line.bytes.to_vec(), line.cut));
        }
    }
}

/// What a pipe reader reports.
enum Event<'a> {
    Line(Line<'a>),
    /// The lines of one chunk have been reported.
    Chunk,
    End,
}

/// Logs a module's stderr and its commands' output, at most [`LOG_LINES`] a minute.
struct Log {
    prefix: String,
    window: Instant,
    lines: u32,
    dropped: u32,
}

impl Log {
    fn line(&mut self, what: &str, bytes: &[u8]) {
        let now = Instant::now();
        if now.duration_since(self.window) >= LOG_WINDOW {
            if self.dropped > 0 {
                tracing::info!(
                    "{}: {} more lines were not logged",
                    self.prefix,
                    self.dropped
                );
            }
            (self.window, self.lines, self.dropped) = (now, 0, 0);
        }
        if self.lines >= LOG_LINES {
            if self.dropped == 0 {
                tracing::info!("{}: more output within a minute is not logged", self.prefix);
            }
            self.dropped += 1;
            return;
        }
        self.lines += 1;
        tracing::info!("{}{what}: {}", self.prefix, printable(bytes, LOG_CHARS));
    }
}

pub struct ScriptRunner {
    name: String,
    config: ScriptConfig,
    mode: Mode,
    json: bool,
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

    /// Runs an `on-click` (etc.) command with `sh -c`, detached: in a session of its own,
    /// its output to the log, never killed (it may start a program that outlives the
    /// click). Unless `exec-on-event` is false, the module runs again when the command ends,
    /// or after 1 s if it is still running.
    pub fn run_action(&self, command: &str) {
        if self.inner.borrow().stopped || command.trim().is_empty() {
            return;
        }
        let prefix = self.log.borrow().prefix.clone();
        if self.actions.get() >= MAX_ACTIONS {
            tracing::warn!("{prefix}: {MAX_ACTIONS} commands still run, not starting `{command}`");
            return;
        }
        let flags = gio::SubprocessFlags::STDOUT_PIPE | gio::SubprocessFlags::STDERR_MERGE;
        let (process, _) = match spawn_shell(command, flags, Setup::Detached) {
            Ok(spawned) => spawned,
            Err(err) => {
                tracing::warn!("{prefix}: cannot run `{command}`: {err}");
                return;
            }
        };
        self.actions.set(self.actions.get() + 1);
        // The command's output is read to its end even if the module goes: closing the pipe
        // early would kill it with SIGPIPE.
        if let Some(output) = process.stdout_pipe() {
            let log = self.log.clone();
            self.context
                .spawn_local(read_lines(output, STDERR_CHUNK, move |event| {
                    if let Event::Line(line) = event {
                        log.borrow_mut().line(" (command)", line.bytes);
                    }
                    true
                }));
        }
        let refreshed = Rc::new(Cell::new(self.config.exec_on_event == Some(false)));
        let (weak, again, actions) = (self.weak.clone(), refreshed.clone(), self.actions.clone());
        let command = command.to_owned();
        self.context.spawn_local(async move {
            let waited = process.wait_future().await;
            actions.set(actions.get().saturating_sub(1));
            let status = match waited {
                Ok(()) => exit_of(&process),
                Err(_) => return,
            };
            if status != Exit::Code(0) {
                let status = describe(status);
                tracing::info!("{prefix}: `{command}` {status}");
            }
            if !again.replace(true) {
                if let Some(runner) = weak.upgrade() {
                    runner.refresh();
                }
            }
        });
        let weak = self.weak.clone();
        self.context.spawn_local(async move {
            glib::timeout_future(ACTION_REFRESH_AFTER).await;
            if !refreshed.replace(true) {
                if let Some(runner) = weak.upgrade() {
                    runner.refresh();
                }
            }
        });
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
            kill_group(run.pgid);
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

    /// Starts the next cycle after `delay`, replacing any wait already set.
    fn schedule(&self, delay: Duration) {
        if self.stopped() {
            return;
        }
        let weak = self.weak.clone();
        let task = self.context.spawn_local(async move {
            if !delay.is_zero() {
                glib::timeout_future(delay).await;
            }
            if let Some(runner) = weak.upgrade() {
                runner.cycle();
            }
        });
        if let Some(old) = self.inner.borrow_mut().timer.replace(task) {
            old.abort();
        }
    }

    /// One cycle: `exec-if`, then `exec`.
    fn cycle(&self) {
        let kind = {
            let mut inner = self.inner.borrow_mut();
            // This runs in the timer's own task, which ends here.
            inner.timer = None;
            if inner.stopped || inner.run.is_some() {
                return;
            }
            inner.refresh_pending = false;
            match self.config.exec_if {
                Some(_) => Kind::ExecIf,
                None => Kind::Exec,
            }
        };
        self.spawn_run(kind);
    }

    fn spawn_run(&self, kind: Kind) {
        use gio::SubprocessFlags as F;
        let (command, flags) = match (kind, &self.config.exec_if) {
            (Kind::ExecIf, Some(exec_if)) => (exec_if.as_str(), F::STDOUT_SILENCE | F::STDERR_PIPE),
            _ => (self.config.exec.as_str(), F::STDOUT_PIPE | F::STDERR_PIPE),
        };
        let (process, pgid) = match spawn_shell(command, flags, Setup::Group) {
            Ok(spawned) => spawned,
            Err(err) => {
                let reason = format!("cannot start sh: {err}");
                self.set_state(ScriptState::Failed { reason });
                self.after_failure(kind, Duration::ZERO);
                return;
            }
        };
        let id = {
            let mut inner = self.inner.borrow_mut();
            inner.next_id += 1;
            inner.next_id
        };
        let mut run = Run {
            id,
            kind,
            pgid,
            started: Instant::now(),
            exit: None,
            open_pipes: 0,
            tasks: Vec::new(),
            collected: Collected::default(),
            last_stderr: None,
        };
        let weak = self.weak.clone();
        let waited = process.clone();
        run.tasks.push(self.context.spawn_local(async move {
            let ok = waited.wait_future().await.is_ok();
            match weak.upgrade() {
                Some(runner) if ok => runner.on_exit(id, exit_of(&waited)),
                _ => {}
            }
        }));
        if let Some(stderr) = process.stderr_pipe() {
            let weak = self.weak.clone();
            run.open_pipes += 1;
            run.tasks.push(self.context.spawn_local(read_lines(
                stderr,
                STDERR_CHUNK,
                move |event| weak.upgrade().is_some_and(|r| r.on_stderr(id, event)),
            )));
        }
        if let Some(stdout) = process.stdout_pipe() {
            let weak = self.weak.clone();
            run.open_pipes += 1;
            run.tasks.push(self.context.spawn_local(read_lines(
                stdout,
                STDOUT_CHUNK,
                move |event| weak.upgrade().is_some_and(|r| r.on_stdout(id, event)),
            )));
        }
        if let Some(limit) = self.time_limit(kind) {
            let weak = self.weak.clone();
            run.tasks.push(self.context.spawn_local(async move {
                glib::timeout_future(limit).await;
                if let Some(runner) = weak.upgrade() {
                    runner.on_timeout(id, limit);
                }
            }));
        }
        self.inner.borrow_mut().run = Some(run);
    }

    fn time_limit(&self, kind: Kind) -> Option<Duration> {
        match (kind, self.mode) {
            (Kind::ExecIf, _) => Some(EXEC_IF_TIMEOUT),
            (Kind::Exec, Mode::Continuous) => None,
            (Kind::Exec, Mode::Once) => Some(ONCE_TIMEOUT),
            (Kind::Exec, Mode::Every(every)) => Some(every.max(MIN_TIMEOUT)),
        }
    }

    /// Runs `f` on run `id` if it is still the current one.
    fn with_run<T>(&self, id: u64, f: impl FnOnce(&mut Run) -> T) -> Option<T> {
        let mut inner = self.inner.borrow_mut();
        inner.run.as_mut().filter(|run| run.id == id).map(f)
    }

    fn take_run(&self, id: u64) -> Option<Run> {
        let mut inner = self.inner.borrow_mut();
        match &inner.run {
            Some(run) if run.id == id => inner.run.take(),
            _ => None,
        }
    }

    fn on_stdout(&self, id: u64, event: Event<'_>) -> bool {
        let (mode, json) = (self.mode, self.json);
        match event {
            Event::Line(line) => self
                .with_run(id, |run| run.collected.add(line, mode, json))
                .is_some(),
            Event::Chunk => self.apply_fresh(id),
            Event::End => {
                self.apply_fresh(id);
                self.pipe_closed(id);
                false
            }
        }
    }

    fn on_stderr(&self, id: u64, event: Event<'_>) -> bool {
        match event {
            Event::Line(line) => {
                let text = printable(line.bytes, REASON_CHARS);
                let current = self.with_run(id, |run| {
                    if !text.trim().is_empty() {
                        run.last_stderr = Some(text);
                    }
                });
                if current.is_some() {
                    self.log.borrow_mut().line("", line.bytes);
                }
                current.is_some()
            }
            Event::Chunk => self.with_run(id, |_| ()).is_some(),
            Event::End => {
                self.pipe_closed(id);
                false
            }
        }
    }

    /// Continuous mode: shows the latest line if it is new.
    fn apply_fresh(&self, id: u64) -> bool {
        if self.mode != Mode::Continuous {
            return self.with_run(id, |_| ()).is_some();
        }
        let state = self.with_run(id, |run| {
            let c = &mut run.collected;
            std::mem::take(&mut c.fresh).then(|| (c.latest.clone(), c.latest_cut))
        });
        match state {
            None => false,
            Some(None) => true,
            Some(Some((line, cut))) => {
                let state = self.state_of(&line, cut);
                self.set_state(state);
                true
            }
        }
    }

    /// What output `line` makes the module show.
    fn state_of(&self, line: &[u8], cut: bool) -> ScriptState {
        if cut {
            let reason = format!("an output line is longer than {} KiB", MAX_LINE / 1024);
            return ScriptState::Failed { reason };
        }
        match parse_line(line, self.json) {
            Ok(output) if output.text.is_empty() => ScriptState::Hidden,
            Ok(mut output) => {
                self.pango_safe(&mut output);
                ScriptState::Output(output)
            }
            Err(reason) => ScriptState::Failed { reason },
        }
    }

    /// Escapes what Pango would refuse (see the module docs of `script`): the structure is
    /// checked by `format`, the values only Pango knows.
    fn pango_safe(&self, output: &mut ScriptOutput) {
        if self.config.escapes() {
            return;
        }
        let mut refused = None;
        let fields = [
            (Some(&mut output.text), false),
            (output.tooltip.as_mut(), true),
            (output.alt.as_mut(), false),
        ];
        for (field, multiline) in fields {
            let Some(field) = field else { continue };
            let markup = field.contains(['<', '&']) && markup::check(field, multiline).is_ok();
            if let Err(err) = markup.then(|| pango::parse_markup(field, '\0')).transpose() {
                refused = Some(err.to_string());
                let mut escaped = String::new();
                crate::render::push_escaped(&mut escaped, field);
                *field = escaped;
            }
        }
        let mut inner = self.inner.borrow_mut();
        match refused {
            Some(err) if !inner.markup_logged => {
                inner.markup_logged = true;
                drop(inner);
                let err = printable(err.as_bytes(), REASON_CHARS);
                tracing::info!("custom/{}: markup shown as text: {err}", self.name);
            }
            None => inner.markup_logged = false,
            Some(_) => {}
        }
    }

    fn pipe_closed(&self, id: u64) {
        let done = self.with_run(id, |run| {
            run.open_pipes = run.open_pipes.saturating_sub(1);
            run.open_pipes == 0 && run.exit.is_some()
        });
        if done == Some(true) {
            self.finish(id);
        }
    }

    fn on_exit(&self, id: u64, exit: Exit) {
        let continuous = self.mode == Mode::Continuous;
        let done = self.with_run(id, |run| {
            run.exit = Some(exit);
            if continuous && run.kind == Kind::Exec {
                // What the script left behind (a `sleep` of its loop) goes too.
                kill_group(run.pgid);
            }
            run.open_pipes == 0
        });
        match done {
            Some(true) => self.finish(id),
            Some(false) => {
                let weak = self.weak.clone();
                let grace = self.context.spawn_local(async move {
                    glib::timeout_future(EXIT_GRACE).await;
                    if let Some(runner) = weak.upgrade() {
                        runner.finish(id);
                    }
                });
                // The run is still current: on_exit just found it.
                let _ = self.with_run(id, |run| run.tasks.push(grace));
            }
            None => {}
        }
    }

    /// Run `id` exited and its pipes are closed (or their grace is over).
    fn finish(&self, id: u64) {
        let Some(run) = self.take_run(id) else {
            return;
        };
        run.tasks.iter().for_each(JoinHandle::abort);
        let exit = run.exit.unwrap_or(Exit::Code(-1));
        match (run.kind, self.mode) {
            (Kind::ExecIf, _) if exit == Exit::Code(0) => {
                if !self.stopped() {
                    self.spawn_run(Kind::Exec);
                }
            }
            (Kind::ExecIf, _) => {
                let why = with_stderr(describe(exit), &run.last_stderr);
                tracing::debug!("custom/{}: exec-if {why}: hidden", self.name);
                self.set_state(ScriptState::Hidden);
                self.after_failure(Kind::ExecIf, Duration::ZERO);
            }
            (Kind::Exec, Mode::Continuous) => {
                let ran_for = run.started.elapsed();
                let restart = self.config.restart_interval.and_then(|r| r.duration());
                match restart {
                    Some(restart) if exit == Exit::Code(0) => self.schedule(restart),
                    _ => {
                        let reason = with_stderr(describe(exit), &run.last_stderr);
                        self.fail(reason);
                        self.after_failure(Kind::Exec, ran_for);
                    }
                }
            }
            (Kind::Exec, _) => {
                let state = match exit {
                    Exit::Code(0) => self.interval_state(&run.collected),
                    Exit::Code(_) => {
                        let why = with_stderr(describe(exit), &run.last_stderr);
                        tracing::debug!("custom/{}: {why}: hidden", self.name);
                        ScriptState::Hidden
                    }
                    Exit::Signal(_) => ScriptState::Failed {
                        reason: with_stderr(describe(exit), &run.last_stderr),
                    },
                };
                match state {
                    ScriptState::Failed { reason } => self.fail(reason),
                    state => self.set_state(state),
                }
                self.after_interval_run();
            }
        }
    }

    /// The state an interval run's output makes.
    fn interval_state(&self, collected: &Collected) -> ScriptState {
        if self.json {
            return self.state_of(&collected.latest, collected.latest_cut);
        }
        if collected.first.iter().any(|(_, cut)| *cut) {
            return self.state_of(&[], true);
        }
        let lines: Vec<&[u8]> = collected.first.iter().map(|(l, _)| l.as_slice()).collect();
        self.state_of(&lines.join(&b'\n'), false)
    }

    /// A run took longer than `limit`: killed, and `Failed` (hidden for `exec-if`).
    fn on_timeout(&self, id: u64, limit: Duration) {
        let Some(run) = self.take_run(id) else {
            return;
        };
        kill_group(run.pgid);
        run.tasks.iter().for_each(JoinHandle::abort);
        let reason = format!("timed out after {} s", limit.as_secs_f64());
        match run.kind {
            Kind::ExecIf => {
                tracing::info!("custom/{}: exec-if {reason}: hidden", self.name);
                self.set_state(ScriptState::Hidden);
                self.after_failure(Kind::ExecIf, Duration::ZERO);
            }
            Kind::Exec => {
                self.fail(with_stderr(reason, &run.last_stderr));
                self.after_interval_run();
            }
        }
    }

    fn fail(&self, reason: String) {
        self.set_state(ScriptState::Failed { reason });
    }

    /// After an interval run: the next one after the interval, at once if a refresh came
    /// meanwhile; `once` only on refresh.
    fn after_interval_run(&self) {
        let pending = std::mem::take(&mut self.inner.borrow_mut().refresh_pending);
        match self.mode {
            _ if pending => self.schedule(Duration::ZERO),
            Mode::Every(every) => self.schedule(every),
            Mode::Once => {}
            Mode::Continuous => self.schedule(EXEC_IF_RECHECK),
        }
    }

    /// After an `exec-if` that failed, or a continuous script that ended (having run for
    /// `ran_for`).
    fn after_failure(&self, kind: Kind, ran_for: Duration) {
        match (self.mode, kind) {
            (Mode::Continuous, Kind::ExecIf) => self.schedule(EXEC_IF_RECHECK),
            (Mode::Continuous, Kind::Exec) => {
                let delay = {
                    let mut inner = self.inner.borrow_mut();
                    if ran_for >= STABLE_RUN {
                        inner.backoff = BACKOFF_START;
                    }
                    let delay = inner.backoff;
                    inner.backoff = (delay * 2).min(BACKOFF_MAX);
                    delay
                };
                self.schedule(delay);
            }
            _ => self.after_interval_run(),
        }
    }

    fn set_state(&self, state: ScriptState) {
        if *self.state.borrow() == state || self.stopped() {
            return;
        }
        if let ScriptState::Failed { reason } = &state {
            self.log.borrow_mut().line("", reason.as_bytes());
        }
        self.state.replace(state.clone());
        (self.on_update)(&state);
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

/// Reads `stream` to its end in chunks of `chunk` bytes, at most one chunk per
/// [`READ_GAP`], and reports its lines; stops early when `on_event` returns false.
async fn read_lines(
    stream: gio::InputStream,
    chunk: usize,
    mut on_event: impl FnMut(Event<'_>) -> bool,
) {
    let mut splitter = LineSplitter::new(MAX_LINE);
    let mut buf = vec![0u8; chunk];
    loop {
        let n = match stream.read_future(buf, Priority::DEFAULT).await {
            Ok((b, n)) => {
                buf = b;
                n
            }
            Err((b, _)) => {
                buf = b;
                0
            }
        };
        if n == 0 {
            break;
        }
        let mut go = true;
        splitter.feed(&buf[..n], |line| go = go && on_event(Event::Line(line)));
        if !go || !on_event(Event::Chunk) {
            return;
        }
        glib::timeout_future(READ_GAP).await;
    }
    let mut go = true;
    splitter.finish(|line| go = go && on_event(Event::Line(line)));
    if go {
        on_event(Event::End);
    }
}

#[derive(Clone, Copy)]
enum Setup {
    /// A process group of its own, killed with ringbar.
    Group,
    /// A session of its own, left alone.
    Detached,
}

/// Starts `sh -c command`; the process and its process group id.
fn spawn_shell(
    command: &str,
    flags: gio::SubprocessFlags,
    setup: Setup,
) -> Result<(gio::Subprocess, i32), glib::Error> {
    let launcher = gio::SubprocessLauncher::new(flags);
    let parent = std::process::id() as i32;
    launcher.set_child_setup(move || child_setup(setup, parent));
    let argv = [OsStr::new("/bin/sh"), OsStr::new("-c"), OsStr::new(command)];
    let process = launcher.spawn(&argv)?;
    let pid = process
        .identifier()
        .and_then(|id| id.parse().ok())
        .unwrap_or(0);
    Ok((process, pid))
}

/// Runs in the child between fork and exec: only async-signal-safe calls.
fn child_setup(setup: Setup, parent: i32) {
    // SAFETY: setsid, setpgid, prctl, getppid, _exit, signal, sigemptyset and sigprocmask
    // are async-signal-safe; `set` is a valid sigset_t on this stack.
    unsafe {
        match setup {
            Setup::Detached => {
                libc::setsid();
            }
            Setup::Group => {
                libc::setpgid(0, 0);
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() != parent {
                    libc::_exit(127);
                }
            }
        }
        // Rust ignores SIGPIPE, and ignored signals survive exec: scripts expect the default.
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    }
}

/// SIGKILL to the process group `pgid` (never to ours or to every process).
fn kill_group(pgid: i32) {
    if pgid > 1 {
        // SAFETY: kill takes plain integers; a negative pid names the group we created.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
}

fn exit_of(process: &gio::Subprocess) -> Exit {
    if process.has_signaled() {
        Exit::Signal(process.term_sig())
    } else {
        Exit::Code(process.exit_status())
    }
}

fn describe(exit: Exit) -> String {
    match exit {
        Exit::Code(code) => format!("exited with status {code}"),
        Exit::Signal(signal) => {
            let name = match signal {
                libc::SIGHUP => " (SIGHUP)",
                libc::SIGINT => " (SIGINT)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGPIPE => " (SIGPIPE)",
                libc::SIGTERM => " (SIGTERM)",
                _ => "",
            };
            format!("killed by signal {signal}{name}")
        }
    }
}

fn with_stderr(reason: String, stderr: &Option<String>) -> String {
    match stderr {
        Some(line) => format!("{reason}: {line}"),
        None => reason,
    }
}

/// Bytes for a log line: invalid UTF-8 as U+FFFD, controls as `?`, at most `max` chars.
fn printable(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}
