//! `on-click` and friends: commands run detached, at most [`MAX_ACTIONS`] of a module at
//! once, and the module runs again when one ends (or after [`ACTION_REFRESH_AFTER`]).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use gtk4::gio;
use gtk4::glib;

use super::pipe::{read_lines, Event, STDERR_CHUNK};
use super::process::{describe, exit_of, spawn_shell, Exit, Setup};
use super::ScriptRunner;

/// A click's command still running by then: the module runs again anyway.
const ACTION_REFRESH_AFTER: Duration = Duration::from_secs(1);
const MAX_ACTIONS: usize = 8;

impl ScriptRunner {
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
        let (process, _) = match spawn_shell(command, flags, Setup::Detached, None) {
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
}

/// Runs a module's click command (`on-click-right = "pavucontrol"`) with `sh -c`,
/// detached as an action is, its output discarded: for modules without a script.
pub fn run_detached(module: &str, command: &str) {
    if command.trim().is_empty() {
        return;
    }
    let flags = gio::SubprocessFlags::STDOUT_SILENCE | gio::SubprocessFlags::STDERR_SILENCE;
    if let Err(err) = spawn_shell(command, flags, Setup::Detached, None) {
        tracing::warn!("{module}: cannot run `{command}`: {err}");
    }
}
