//! When runs start: at once, after the interval, after a backoff when a continuous script
//! ended, or when `exec-if` is due to be checked again.

use std::time::Duration;

use gtk4::glib;

use super::{Kind, Mode, ScriptRunner};

/// How often a continuous module hidden by `exec-if` checks again.
const EXEC_IF_RECHECK: Duration = Duration::from_secs(10);
pub(super) const BACKOFF_START: Duration = Duration::from_secs(1);
const BACKOFF_MAX: Duration = Duration::from_secs(60);
/// A continuous run this long resets the backoff.
const STABLE_RUN: Duration = Duration::from_secs(30);

impl ScriptRunner {
    /// Starts the next cycle after `delay`, replacing any wait already set.
    pub(super) fn schedule(&self, delay: Duration) {
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

    /// After an interval run: the next one after the interval, at once if a refresh came
    /// meanwhile; `once` only on refresh.
    pub(super) fn after_interval_run(&self) {
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
    pub(super) fn after_failure(&self, kind: Kind, ran_for: Duration) {
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
}
