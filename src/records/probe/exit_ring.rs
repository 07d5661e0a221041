//! The exit reports' ring buffer (`exits` in bpf/ringbar.bpf.c), read into a queue at
//! each sample. While the bar takes no sample it is unmapped ([`ExitRing::close`]): its
//! mapping holds the whole ring twice (the kernel maps every page at once), and reports
//! of that time would only be dropped. The next drain maps it again.

use std::io;
use std::os::fd::BorrowedFd;
use std::sync::{Arc, Mutex, PoisonError};

use libbpf_rs::{MapCore, MapFlags, MapHandle, RingBuffer, RingBufferBuilder};

use crate::model::pid_namespace::PidNamespace;
use crate::model::record::{decode_exit, ExitRecord};

/// Reports the queue keeps room for between samples.
const INITIAL_EXITS: usize = 1024;

pub(super) struct ExitRing {
    map: MapHandle,
    /// `exits_lost`: the reports the kernel dropped because the ring was full.
    lost: MapHandle,
    /// The PID namespace whose groups the reports are kept of.
    reader: PidNamespace,
    /// Filled by the ring buffer's callback. Behind a mutex (never contended: the
    /// callback runs inside `consume`, on the sampling thread) so the probe is `Send`.
    queue: Arc<Mutex<Vec<ExitRecord>>>,
    /// The mapping, while open.
    ring: Option<RingBuffer<'static>>,
    lost_seen: u64,
}

impl ExitRing {
    /// Maps the ring of `map`; `lost` is the count of dropped reports.
    pub fn open(
        map: MapHandle,
        lost: MapHandle,
        reader: PidNamespace,
    ) -> Result<ExitRing, libbpf_rs::Error> {
        let mut ring = ExitRing {
            map,
            lost,
            reader,
            queue: Arc::new(Mutex::new(Vec::with_capacity(INITIAL_EXITS))),
            ring: None,
            lost_seen: 0,
        };
        ring.ring = Some(ring.map_ring()?);
        Ok(ring)
    }

    fn map_ring(&self) -> Result<RingBuffer<'static>, libbpf_rs::Error> {
        let queue = Arc::clone(&self.queue);
        let reader = self.reader;
        let mut builder = RingBufferBuilder::new();
        builder.add(&self.map, move |bytes: &[u8]| {
            // In a container's namespace: its own groups only, by its own pids.
            if let Some(mut exit) = decode_exit(bytes) {
                if exit.seen_from(reader) {
                    queue
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(exit);
                }
            }
            0
        })?;
        builder.build()
    }

    /// Unmaps the ring until the next [`ExitRing::drain`]; the kernel drops the reports
    /// that no longer fit meanwhile, which that drain does not report as lost.
    pub fn close(&mut self) {
        self.ring = None;
    }

    /// An fd that polls readable when reports wait (`None` while closed).
    pub fn ready_fd(&self) -> Option<BorrowedFd<'_>> {
        // SAFETY: the ring buffer's epoll fd lives as long as the ring buffer, which the
        // borrow of `self` keeps alive.
        self.ring
            .as_ref()
            .map(|ring| unsafe { BorrowedFd::borrow_raw(ring.epoll_fd()) })
    }

    /// Moves the reports received since the last call into `out` (cleared first).
    pub fn drain(&mut self, out: &mut Vec<ExitRecord>) -> io::Result<()> {
        out.clear();
        if self.ring.is_none() {
            // What was dropped while closed was of a time no sample covers.
            self.lost_seen = self.lost();
            self.ring = Some(self.map_ring().map_err(io::Error::other)?);
        }
        if let Some(ring) = &self.ring {
            ring.consume().map_err(io::Error::other)?;
        }
        // The callback pushes into the queue; hand its contents over by swapping buffers
        // so both keep their capacity.
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::swap(out, &mut *queue);
        crate::records::give_back_burst_room(&mut queue, INITIAL_EXITS.max(out.len()));
        drop(queue);
        self.log_lost();
        Ok(())
    }

    /// Reports the kernel had to drop because the ring was full.
    pub fn lost(&self) -> u64 {
        // `exits_lost` in bpf/ringbar.bpf.c: an array of one u64. lookup_into reads into
        // our buffer, so a tick allocates nothing.
        let mut value = [0u8; 8];
        match self
            .lost
            .lookup_into(&0u32.to_ne_bytes(), &mut value, MapFlags::ANY)
        {
            Ok(true) => u64::from_ne_bytes(value),
            Ok(false) | Err(_) => 0,
        }
    }

    fn log_lost(&mut self) {
        let lost = self.lost();
        if lost > self.lost_seen {
            tracing::warn!(
                lost = lost - self.lost_seen,
                "exit reports dropped: ring buffer full"
            );
            self.lost_seen = lost;
        }
    }
}
