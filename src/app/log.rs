//! The log: lines to stderr, at a level `RINGBAR_LOG` may change. A long-running
//! program (the bar, the probe service) moves the writing to a thread of its own once
//! its capabilities are gone ([`log_in_background`]), so that a slow stderr never holds
//! up its main loop: a pipe to a journal that is behind, or a file on a disk busy
//! writing back. Before that, lines are written directly: a thread keeps the
//! capabilities the process had when the thread was made.

use std::io::Stderr;
use std::sync::{Mutex, OnceLock};

use tracing_appender::non_blocking::{NonBlocking, NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::writer::{EitherWriter, MakeWriter};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Lines the log thread holds at most; one that finds it full is dropped, not waited
/// for. A bar logs a few lines a minute (tracing-appender's default of 128,000 lines
/// costs 4 MiB).
const BUFFERED_LINES: usize = 1024;

/// The log thread's writer, once it runs.
static BACKGROUND: OnceLock<NonBlocking> = OnceLock::new();
/// Dropping it writes what the log thread still holds.
static GUARD: Mutex<Option<WorkerGuard>> = Mutex::new(None);

/// Where each line goes: the log thread once it runs, stderr before.
struct LogWriter;

impl<'a> MakeWriter<'a> for LogWriter {
    type Writer = EitherWriter<NonBlocking, Stderr>;

    fn make_writer(&'a self) -> Self::Writer {
        match BACKGROUND.get() {
            Some(background) => EitherWriter::A(background.clone()),
            None => EitherWriter::B(std::io::stderr()),
        }
    }
}

/// Logs to stderr at `default_level` (or as `RINGBAR_LOG` says).
pub fn init_logging(default_level: &str) {
    let filter = log_filter(std::env::var("RINGBAR_LOG").ok().as_deref(), default_level);
    let lines = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(LogWriter);
    tracing_subscriber::registry()
        .with(lines)
        .with(filter)
        .init();
}

/// What `RINGBAR_LOG` asks for: a level (`debug`), or targets with levels
/// (`ringbar::events=debug,warn`); `default_level` when it is unset, empty or unreadable.
pub fn log_filter(value: Option<&str>, default_level: &str) -> Targets {
    value
        .filter(|value| !value.trim().is_empty())
        .and_then(|value| value.parse().ok())
        .or_else(|| default_level.parse().ok())
        .unwrap_or_default()
}

/// From now on the lines are written by a thread of their own. Call it once the
/// capabilities are dropped, and [`flush_log`] before the program ends.
pub fn log_in_background() {
    if BACKGROUND.get().is_some() {
        return;
    }
    let (writer, guard) = NonBlockingBuilder::default()
        .buffered_lines_limit(BUFFERED_LINES)
        .lossy(true)
        .thread_name("ringbar-log")
        .finish(std::io::stderr());
    if BACKGROUND.set(writer).is_ok() {
        if let Ok(mut slot) = GUARD.lock() {
            *slot = Some(guard);
        }
    }
}

/// Writes what the log thread still holds, and ends it.
pub fn flush_log() {
    let guard = GUARD.lock().ok().and_then(|mut slot| slot.take());
    drop(guard);
}

#[cfg(test)]
mod tests {
    use super::log_filter;
    use tracing::Level;

    #[test]
    fn ringbar_log_sets_the_level_or_per_target_levels_and_falls_back_to_the_default() {
        let level = log_filter(Some("debug"), "warn");
        assert!(level.would_enable("ringbar::ui", &Level::DEBUG));
        assert!(!level.would_enable("ringbar::ui", &Level::TRACE));

        let targets = log_filter(Some("ringbar::events=trace,error"), "info");
        assert!(targets.would_enable("ringbar::events::audio", &Level::TRACE));
        assert!(!targets.would_enable("ringbar::ui", &Level::WARN));
        assert!(targets.would_enable("ringbar::ui", &Level::ERROR));

        for unset in [None, Some(""), Some("  "), Some("ringbar=loud")] {
            let default = log_filter(unset, "warn");
            assert!(default.would_enable("ringbar", &Level::WARN), "{unset:?}");
            assert!(!default.would_enable("ringbar", &Level::INFO), "{unset:?}");
        }
    }
}
