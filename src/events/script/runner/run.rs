//! One run of `exec` or `exec-if`: started in a process group of its own, its pipes read,
//! its exit waited for (with a grace for pipes left open), killed at its time limit.

use std::time::{Duration, Instant};

use gtk4::gio;
use gtk4::glib::{self, JoinHandle};

use super::log::{printable, REASON_CHARS};
use super::orphans;
use super::output::Collected;
use super::pipe::{read_lines, Event, STDERR_CHUNK, STDOUT_CHUNK};
use super::process::{describe, end_run, exit_of, spawn_shell, with_stderr, Exit, Setup};
use super::{Kind, Mode, Run, ScriptRunner, ScriptState};

/// An interval run is killed after max(interval, this).
const MIN_TIMEOUT: Duration = Duration::from_secs(10);
const ONCE_TIMEOUT: Duration = Duration::from_secs(60);
const EXEC_IF_TIMEOUT: Duration = Duration::from_secs(10);
/// How long after its exit a script's pipes may stay open (a background child holding them).
const EXIT_GRACE: Duration = Duration::from_secs(1);

impl ScriptRunner {
    pub(super) fn spawn_run(&self, kind: Kind) {
        use gio::SubprocessFlags as F;
        let (command, flags) = match (kind, &self.config.exec_if) {
            (Kind::ExecIf, Some(exec_if)) => (exec_if.as_str(), F::STDOUT_SILENCE | F::STDERR_PIPE),
            _ => (self.config.exec.as_str(), F::STDOUT_PIPE | F::STDERR_PIPE),
        };
        let tag = orphans::new_tag();
        let (process, pgid) = match spawn_shell(command, flags, Setup::Group, Some(&tag)) {
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
            tag,
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
    pub(super) fn with_run<T>(&self, id: u64, f: impl FnOnce(&mut Run) -> T) -> Option<T> {
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
        let keep = self.keep;
        match event {
            Event::Line(line) => {
                let cut = line.cut;
                let current = self
                    .with_run(id, |run| run.collected.add(line, keep))
                    .is_some();
                if current && cut && self.mode != Mode::Continuous {
                    // Known now, not when the run ends (a long line takes long to read).
                    self.set_state(self.state_of(&[], true));
                }
                current
            }
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
                end_run(run.pgid, &run.tag);
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

    /// A run took longer than `limit`: killed, and `Failed` (hidden for `exec-if`).
    fn on_timeout(&self, id: u64, limit: Duration) {
        let Some(run) = self.take_run(id) else {
            return;
        };
        end_run(run.pgid, &run.tag);
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
}
