//! A module's log: its stderr and its commands' output at info level, at most
//! [`LOG_LINES`] a minute, as printable text.

use std::time::{Duration, Instant};

const LOG_WINDOW: Duration = Duration::from_secs(60);
const LOG_LINES: u32 = 20;
const LOG_CHARS: usize = 300;
pub(super) const REASON_CHARS: usize = 200;

/// Logs a module's stderr and its commands' output, at most [`LOG_LINES`] a minute.
pub(super) struct Log {
    pub(super) prefix: String,
    pub(super) window: Instant,
    pub(super) lines: u32,
    pub(super) dropped: u32,
}

impl Log {
    pub(super) fn line(&mut self, what: &str, bytes: &[u8]) {
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

/// Bytes for a log line: invalid UTF-8 as U+FFFD, controls as `?`, at most `max` chars.
pub(super) fn printable(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text
        .chars()
        .take(max)
        .filter_map(|c| crate::text::shown_char(c, '?'))
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}
