//! The machine's CPU time from `/proc/stat`, held open like the processes' files.

use super::{files, ProcWalk};
use crate::model::procstat::parse_cpu_ticks;
use crate::model::SystemCpu;

impl ProcWalk {
    /// Busy and total CPU time of all CPUs since boot, in ns, from `/proc/stat`.
    pub fn cpu_time_ns(&mut self) -> Option<SystemCpu> {
        if self.proc_stat.is_none() {
            if self.dir.is_none() {
                self.dir = Some(files::open_dir(&self.root).ok()?);
            }
            self.proc_stat = files::open_relative(self.dir.as_ref()?, "stat").ok();
        }
        let text = files::read_whole(self.proc_stat.as_ref()?, &mut self.buf).ok()?;
        let (busy, total) = parse_cpu_ticks(text)?;
        Some(SystemCpu {
            busy: busy.saturating_mul(self.tick_ns),
            total: total.saturating_mul(self.tick_ns),
        })
    }
}
