//! What was counted for processes that are gone, so that their late exit reports add only
//! the rest.

use crate::model::net::NetBytes;
use crate::model::process::Process;
use crate::model::record::ExitRecord;

/// How many samples a vanished process is remembered for late exit reports.
pub(super) const DEPARTED_SAMPLES: u64 = 50;

/// The cumulative totals already counted for a process that is gone.
#[derive(Clone, Copy, Debug)]
pub(super) struct Departed {
    cpu_ns: u64,
    read_bytes: u64,
    write_bytes: u64,
    net: NetBytes,
    reported: bool,
    /// The sample in which it was last seen or reported.
    pub(super) sample: u64,
}

impl Departed {
    /// Last listed with these totals (and these network bytes), all of them counted.
    pub(super) fn seen(p: &Process, net: NetBytes, sample: u64) -> Self {
        Departed {
            cpu_ns: p.cpu_ns(),
            read_bytes: p.read_bytes(),
            write_bytes: p.write_bytes(),
            net,
            reported: false,
            sample,
        }
    }

    /// Never listed: nothing counted yet.
    pub(super) fn unseen(sample: u64) -> Self {
        Departed {
            cpu_ns: 0,
            read_bytes: 0,
            write_bytes: 0,
            net: NetBytes::default(),
            reported: false,
            sample,
        }
    }

    /// Counts a report: returns what it adds (cpu, read, write, network) and whether it
    /// is the group's first report.
    pub(super) fn count(&mut self, exit: &ExitRecord) -> (u64, u64, u64, NetBytes, bool) {
        let added = (
            exit.cpu_ns.saturating_sub(self.cpu_ns),
            exit.read_bytes.saturating_sub(self.read_bytes),
            exit.write_bytes.saturating_sub(self.write_bytes),
            NetBytes::of_exit(exit).since(self.net),
            !self.reported,
        );
        self.take(exit);
        added
    }

    /// Takes a report's totals as counted without counting them (its history is unknown).
    pub(super) fn take(&mut self, exit: &ExitRecord) {
        self.cpu_ns = self.cpu_ns.max(exit.cpu_ns);
        self.read_bytes = self.read_bytes.max(exit.read_bytes);
        self.write_bytes = self.write_bytes.max(exit.write_bytes);
        self.net = self.net.max(NetBytes::of_exit(exit));
        self.reported = true;
    }
}
