//! The main loop's side of the sampling: glib sources on the hand-over's eventfd and on
//! the tick's timerfd, made once, so that no closure is boxed per sample.

use std::os::fd::AsRawFd;
use std::rc::Rc;
use std::sync::Arc;

use gtk4::glib;

use super::{Handover, Ticker};

/// Calls a closure on the main loop when a sample waits or a tick is due; removed on
/// drop.
pub struct Watch {
    sources: Vec<glib::SourceId>,
    /// Keep the watched fds open as long as the sources.
    _handover: Arc<Handover>,
    _ticker: Option<Arc<Ticker>>,
}

impl Watch {
    /// `on_wake` runs on the thread that owns the default main context; it must call
    /// [`super::Worker::receive`] or [`Handover::take`] (which clear the wake-up), or
    /// return `Break` to stop watching.
    pub fn new(
        handover: Arc<Handover>,
        ticker: Option<Arc<Ticker>>,
        on_wake: impl FnMut() -> glib::ControlFlow + 'static,
    ) -> Watch {
        let on_wake = Rc::new(std::cell::RefCell::new(on_wake));
        let fds = std::iter::once(handover.wake_fd().as_raw_fd())
            .chain(ticker.as_ref().map(|ticker| ticker.fd().as_raw_fd()));
        let sources = fds
            .map(|fd| {
                let on_wake = on_wake.clone();
                glib_unix::unix_fd_add_local(fd, glib::IOCondition::IN, move |_, _| {
                    // Not re-entered: a source's callback does not run inside another's.
                    match on_wake.try_borrow_mut() {
                        Ok(mut on_wake) => on_wake(),
                        Err(_) => glib::ControlFlow::Continue,
                    }
                })
            })
            .collect();
        Watch {
            sources,
            _handover: handover,
            _ticker: ticker,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        for source in self.sources.drain(..) {
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
