//! Network bytes of a process: what it sent and received through inet sockets since it
//! started (the probe counts them per thread; the group leader's record carries the
//! exited threads'), and of
//! those the ones to or from this machine itself (loopback, or its own address), which
//! the figures shown leave out unless `[network] include_loopback` says otherwise.

use super::record::{ExitRecord, TaskRecord};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetBytes {
    pub sent: u64,
    pub received: u64,
    pub local_sent: u64,
    pub local_received: u64,
}

/// A process's network bytes since it started, and since the previous sample.
#[derive(Clone, Copy, Debug, Default)]
pub struct NetCounts {
    pub total: NetBytes,
    pub delta: NetBytes,
}

impl NetBytes {
    /// Each count passed through `f`.
    pub fn map(self, f: impl Fn(u64) -> u64) -> NetBytes {
        NetBytes {
            sent: f(self.sent),
            received: f(self.received),
            local_sent: f(self.local_sent),
            local_received: f(self.local_received),
        }
    }

    pub fn of_task(rec: &TaskRecord) -> NetBytes {
        NetBytes {
            sent: rec.net_sent_bytes,
            received: rec.net_received_bytes,
            local_sent: rec.net_local_sent_bytes,
            local_received: rec.net_local_received_bytes,
        }
    }

    pub fn of_exit(exit: &ExitRecord) -> NetBytes {
        NetBytes {
            sent: exit.net_sent_bytes,
            received: exit.net_received_bytes,
            local_sent: exit.net_local_sent_bytes,
            local_received: exit.net_local_received_bytes,
        }
    }

    /// Each count the larger of the two: a group's final counts only grow.
    pub fn max(self, other: NetBytes) -> NetBytes {
        NetBytes {
            sent: self.sent.max(other.sent),
            received: self.received.max(other.received),
            local_sent: self.local_sent.max(other.local_sent),
            local_received: self.local_received.max(other.local_received),
        }
    }

    /// What was added since `old` (nothing where a count went backwards).
    pub fn since(self, old: NetBytes) -> NetBytes {
        NetBytes {
            sent: self.sent.saturating_sub(old.sent),
            received: self.received.saturating_sub(old.received),
            local_sent: self.local_sent.saturating_sub(old.local_sent),
            local_received: self.local_received.saturating_sub(old.local_received),
        }
    }

    pub fn add(&mut self, other: NetBytes) {
        self.sent = self.sent.saturating_add(other.sent);
        self.received = self.received.saturating_add(other.received);
        self.local_sent = self.local_sent.saturating_add(other.local_sent);
        self.local_received = self.local_received.saturating_add(other.local_received);
    }

    /// (received, sent) as shown: without the machine's own traffic unless
    /// `include_local`.
    pub fn shown(&self, include_local: bool) -> (u64, u64) {
        if include_local {
            return (self.received, self.sent);
        }
        (
            self.received.saturating_sub(self.local_received),
            self.sent.saturating_sub(self.local_sent),
        )
    }

    /// Received plus sent, as shown.
    pub fn shown_total(&self, include_local: bool) -> u64 {
        let (received, sent) = self.shown(include_local);
        received.saturating_add(sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_figures_leave_the_machines_own_traffic_out_unless_asked() {
        let bytes = NetBytes {
            sent: 1000,
            received: 5000,
            local_sent: 400,
            local_received: 4500,
        };
        assert_eq!(bytes.shown(false), (500, 600));
        assert_eq!(bytes.shown(true), (5000, 1000));
        assert_eq!(bytes.shown_total(false), 1100);
        // A local count larger than the whole (never from the probe) shows nothing.
        let odd = NetBytes {
            local_sent: 2000,
            ..bytes
        };
        assert_eq!(odd.shown(false).1, 0);
    }

    #[test]
    fn deltas_sums_and_maxima() {
        let old = NetBytes {
            sent: 10,
            received: 20,
            local_sent: 1,
            local_received: 2,
        };
        let new = NetBytes {
            sent: 15,
            received: 18,
            local_sent: 1,
            local_received: 7,
        };
        let delta = new.since(old);
        assert_eq!(
            delta,
            NetBytes {
                sent: 5,
                received: 0,
                local_sent: 0,
                local_received: 5
            }
        );
        assert_eq!(old.max(new).received, 20);
        let mut sum = delta;
        sum.add(NetBytes {
            sent: u64::MAX,
            ..NetBytes::default()
        });
        assert_eq!(sum.sent, u64::MAX, "saturates");
    }
}
