//! Reads a script's pipe without blocking the main loop or spinning on a flood: bounded
//! chunks, at most one per [`READ_GAP`], split into lines of at most [`MAX_LINE`] bytes.

use std::time::Duration;

use gtk4::gio::{self, prelude::*};
use gtk4::glib::{self, Priority};

use super::MAX_LINE;
use crate::events::script::lines::{Line, LineSplitter};

pub(super) const STDOUT_CHUNK: usize = 64 * 1024;
pub(super) const STDERR_CHUNK: usize = 16 * 1024;
/// Each pipe is read at most this often.
const READ_GAP: Duration = Duration::from_millis(20);

/// What a pipe reader reports.
pub(super) enum Event<'a> {
    Line(Line<'a>),
    /// The lines of one chunk have been reported.
    Chunk,
    End,
}

/// Reads `stream` to its end in chunks of `chunk` bytes, at most one chunk per
/// [`READ_GAP`], and reports its lines; stops early when `on_event` returns false.
pub(super) async fn read_lines(
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
