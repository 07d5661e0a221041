//! What the clicks change: the sample interval and whether kernel threads are counted.

/// A change to the monitor's settings, the same from a click, `ringbar msg` and
/// `--waybar`'s control socket; the monitor applies it whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// 2000 → 1000 → 500 → 250 → 100 ms, and around.
    CycleInterval,
    /// Include or exclude kernel threads in the process lists.
    ToggleKernelThreads,
    /// Rank apps instead of processes in the lists, or back (`group_by`).
    ToggleGroupBy,
}

/// Left click steps through these, wrapping around.
pub const INTERVAL_CYCLE_MS: [u32; 5] = [2000, 1000, 500, 250, 100];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controls {
    pub interval_ms: u32,
    pub kernel_threads: bool,
}

impl Controls {
    /// Left click: the next interval of the cycle. An interval from the config that is not
    /// in the cycle steps to the next shorter one of the cycle, or back to its start.
    pub fn cycle_interval(&mut self) -> u32 {
        let current = self.interval_ms;
        self.interval_ms = match INTERVAL_CYCLE_MS.iter().position(|&ms| ms == current) {
            Some(i) => INTERVAL_CYCLE_MS[(i + 1) % INTERVAL_CYCLE_MS.len()],
            None => INTERVAL_CYCLE_MS
                .iter()
                .copied()
                .find(|&ms| ms < current)
                .unwrap_or(INTERVAL_CYCLE_MS[0]),
        };
        self.interval_ms
    }

    /// Middle click: include or exclude kernel threads.
    pub fn toggle_kernel_threads(&mut self) -> bool {
        self.kernel_threads = !self.kernel_threads;
        self.kernel_threads
    }

    /// The log line for the current interval: `interval=1000ms`.
    pub fn interval_line(&self) -> String {
        format!("interval={}ms", self.interval_ms)
    }

    /// The log line for the kernel-thread setting: `kernel-threads=on`.
    pub fn kernel_threads_line(&self) -> String {
        format!(
            "kernel-threads={}",
            if self.kernel_threads { "on" } else { "off" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_click_cycles_the_whole_list_and_wraps() {
        let mut c = Controls {
            interval_ms: 2000,
            kernel_threads: false,
        };
        let seen: Vec<u32> = (0..6).map(|_| c.cycle_interval()).collect();
        assert_eq!(seen, [1000, 500, 250, 100, 2000, 1000]);
        assert_eq!(c.interval_line(), "interval=1000ms");
    }

    #[test]
    fn an_interval_outside_the_cycle_joins_it() {
        let mut c = Controls {
            interval_ms: 750,
            kernel_threads: false,
        };
        assert_eq!(c.cycle_interval(), 500);
        c.interval_ms = 5000;
        assert_eq!(c.cycle_interval(), 2000);
        c.interval_ms = 50;
        assert_eq!(c.cycle_interval(), 2000);
    }

    #[test]
    fn middle_click_toggles() {
        let mut c = Controls {
            interval_ms: 2000,
            kernel_threads: false,
        };
        assert!(c.toggle_kernel_threads());
        assert_eq!(c.kernel_threads_line(), "kernel-threads=on");
        assert!(!c.toggle_kernel_threads());
        assert_eq!(c.kernel_threads_line(), "kernel-threads=off");
    }
}
