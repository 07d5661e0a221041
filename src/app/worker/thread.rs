//! The sampling thread, `ringbar-sampler`, for samples too long for the main loop (see
//! [`super::placement`]): it owns the sampler while it runs, takes the main loop's
//! requests through a condition variable and hands each sample over (see
//! [`super::handover`]). Asked to, it parks the sampler for the main loop and ends.
//! It must be spawned after the capabilities are dropped, since capabilities belong to
//! threads: it checks that it holds none before it samples.

use std::sync::Arc;

use super::run::{self, Shared};
use super::{Handover, Parked, Requests};

/// The thread's name, as `/proc/PID/task/TID/comm` shows it (15 bytes at most).
pub const THREAD_NAME: &str = "ringbar-sampler";

/// The main loop's handle on a running sampling thread.
pub(super) struct SamplingThread {
    shared: Arc<Shared>,
}

impl SamplingThread {
    /// Starts a thread that samples from `parked` on. On failure (no thread, or one that
    /// still holds capabilities) the sampler comes back with the reason.
    pub fn spawn(
        parked: Parked,
        handover: Arc<Handover>,
    ) -> Result<SamplingThread, Box<(String, Parked)>> {
        let shared = Arc::new(Shared::new());
        let (checked, check) = std::sync::mpsc::sync_channel(1);
        // The sampler goes to the thread only once it holds no capability; a send that
        // fails (the thread is gone) gives it back.
        let (give, given) = std::sync::mpsc::sync_channel::<Parked>(1);
        let thread_shared = shared.clone();
        let spawned = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let holds_none = crate::records::privileges::check_this_thread_holds_none();
                let ok = holds_none.is_ok();
                let _ = checked.send(holds_none);
                if let (true, Ok(parked)) = (ok, given.recv()) {
                    run::run(&thread_shared, &handover, parked);
                }
            });
        if let Err(err) = spawned {
            return Err(Box::new((
                format!("cannot start the sampling thread: {err}"),
                parked,
            )));
        }
        match check.recv() {
            Ok(Ok(())) => {}
            Ok(Err(err)) => return Err(Box::new((err, parked))),
            Err(_) => {
                return Err(Box::new((
                    "the sampling thread ended at start".to_owned(),
                    parked,
                )))
            }
        }
        give.send(parked)
            .map_err(|std::sync::mpsc::SendError(parked)| {
                ("the sampling thread ended at start".to_owned(), parked)
            })?;
        Ok(SamplingThread { shared })
    }

    pub fn request(&self, change: impl FnOnce(&mut Requests)) {
        change(&mut self.shared.requests());
        self.shared.changed().notify_one();
    }

    /// Asks the thread to park the sampler and end; [`Self::parked`] has it afterwards.
    pub fn hand_back(&self) {
        self.request(|r| r.hand_back = true);
    }

    /// The sampler, once the thread handed it back, with the requests it had not yet
    /// applied (those asked after the hand-back included).
    pub fn parked(&self) -> Option<Parked> {
        let mut parked = self.shared.parked().take()?;
        let later = std::mem::take(&mut *self.shared.requests());
        parked.requests.then(later);
        Some(parked)
    }
}

impl Drop for SamplingThread {
    /// Asks the thread to stop after the sample it may be taking; does not wait for it.
    fn drop(&mut self) {
        self.request(|r| r.stop = true);
    }
}
