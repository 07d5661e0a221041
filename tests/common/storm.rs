//! What a hotplug storm is checked with: a replayable order of plugs and unplugs, and the
//! bar's footprint before and after.

use super::status_kib;

/// A small xorshift: the order of plugs and unplugs, printed so a failure can be replayed.
pub struct Dice(pub u64);

impl Dice {
    pub fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides as u64) as usize
    }
}

/// The bar's memory and file descriptors at one moment.
#[derive(Debug, Clone, Copy)]
pub struct Footprint {
    pub rss_kib: u64,
    /// Shared memory: the windows' buffers.
    pub shared_kib: u64,
    pub fds: usize,
    /// GDK's window buffers mapped.
    pub buffers: usize,
}

impl Footprint {
    pub fn of(pid: u32) -> Footprint {
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
        Footprint {
            rss_kib: status_kib(pid, "VmRSS"),
            shared_kib: status_kib(pid, "RssShmem"),
            fds: std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count),
            buffers: maps
                .lines()
                .filter(|l| l.contains("memfd:gdk-wayland"))
                .count(),
        }
    }

    /// Checks that the bar is back within 10 % of `before` with the same outputs, and
    /// that only `windows` windows' buffers are mapped.
    pub fn assert_back_to(&self, before: &Footprint, windows: usize) {
        // How many buffers the live windows hold varies (a tooltip's is over 1 MiB), so
        // the rest of the memory is compared, and the buffers are counted.
        let private = |f: &Footprint| f.rss_kib - f.shared_kib;
        assert!(
            private(self) <= private(before) * 11 / 10,
            "RSS {} → {} KiB, of it shared {} → {} KiB",
            before.rss_kib,
            self.rss_kib,
            before.shared_kib,
            self.shared_kib
        );
        self.assert_fds_back_to(before);
        // GDK draws a window into two buffers, and into a third while the compositor
        // still holds both.
        assert!(
            self.buffers <= 3 * windows,
            "{} window buffers are mapped for {windows} windows",
            self.buffers
        );
    }

    /// Checks that the bar's whole memory, the windows' buffers in it, and its file
    /// descriptors are back within 10 % of `before`.
    pub fn assert_whole_back_to(&self, before: &Footprint) {
        assert!(
            self.rss_kib <= before.rss_kib * 11 / 10,
            "RSS {} → {} KiB",
            before.rss_kib,
            self.rss_kib
        );
        self.assert_fds_back_to(before);
    }

    fn assert_fds_back_to(&self, before: &Footprint) {
        assert!(
            self.fds <= before.fds * 11 / 10,
            "fds {} → {}",
            before.fds,
            self.fds
        );
    }
}
