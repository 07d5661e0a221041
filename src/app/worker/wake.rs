//! The main loop's side of the hand-over: a glib source on the hand-over's eventfd, made
//! once, so that no closure is boxed per sample.

use std::os::fd::AsRawFd;
use std::sync::Arc;

use gtk4::glib;

use super::Handover;

/// Calls a closure on the main loop when a sample waits; removed on drop.
pub struct Watch {
    source: Option<glib::SourceId>,
    /// Keeps the watched eventfd open as long as the source.
    _handover: Arc<Handover>,
}

impl Watch {
    /// `on_wake` runs on the thread that owns the default main context; it must call
    /// [`Handover::take`] (which clears the wake-up), or return `Break` to stop watching.
    pub fn new(
        handover: Arc<Handover>,
        mut on_wake: impl FnMut() -> glib::ControlFlow + 'static,
    ) -> Watch {
        let fd = handover.wake_fd().as_raw_fd();
        let source = glib_unix::unix_fd_add_local(fd, glib::IOCondition::IN, move |_, _| on_wake());
        Watch {
            source: Some(source),
            _handover: handover,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(source) = self.source.take() {
            // Gone already if `on_wake` returned Break.
            if glib::MainContext::default()
                .find_source_by_id(&source)
                .is_some()
            {
                source.remove();
            }
        }
    }
}
