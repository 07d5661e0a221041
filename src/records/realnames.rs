//! Real names for the rows shown (see [`crate::model::realname`]): `/proc/PID/cmdline` is
//! read only for a process that reaches a list, once per (PID, start time), and cached.
//! The read is the bar's own, so /proc's rules (hidepid) apply to it: what /proc hides
//! keeps its `comm`. Reading reuses one buffer and a path on the stack, and the cache has
//! a fixed room, emptied when full: naming the rows of a steady sample allocates nothing.

use std::collections::HashMap;
use std::fs::File;

use crate::model::app::Label;
use crate::model::realname::real_name;
use crate::model::record::COMM_LEN;
use crate::model::top::Row;
use crate::model::{Gpu, Snapshot};
use crate::records::procfs::{read_whole, stack_path};

/// Processes remembered at most; then the cache starts again.
const CACHE_ROOM: usize = 256;
/// Bytes of a command line read at most: enough for the program and its script.
const CMDLINE_MAX: usize = 4096;

#[derive(Debug)]
pub struct RealNames {
    cache: HashMap<(u32, u64), Label>,
    buf: Vec<u8>,
}

impl Default for RealNames {
    fn default() -> Self {
        RealNames {
            cache: HashMap::with_capacity(CACHE_ROOM),
            buf: vec![0; CMDLINE_MAX],
        }
    }
}

impl RealNames {
    /// Names every process row of the snapshot's lists; app rows and kernel threads keep
    /// theirs.
    pub fn name_rows(&mut self, snap: &mut Snapshot) {
        let lists = [
            snap.top_cpu.rows_mut(),
            snap.top_memory.rows_mut(),
            snap.top_io.rows_mut(),
            snap.apps.cpu.rows_mut(),
            snap.apps.memory.rows_mut(),
            snap.apps.io.rows_mut(),
            snap.stuck.rows_mut(),
        ];
        for rows in lists {
            for row in rows.iter_mut().filter(|r| !r.app && !r.kthread) {
                row.label = self.name_of(row);
            }
        }
    }

    /// Whether a process's name was read (tests: the cache is keyed by PID and start).
    #[cfg(feature = "test-support")]
    pub fn is_cached(&self, tgid: u32, start_ns: u64) -> bool {
        self.cache.contains_key(&(tgid, start_ns))
    }

    /// Names the GPUs' process rows.
    pub fn name_gpu_rows(&mut self, gpus: &mut [Gpu]) {
        for gpu in gpus {
            for row in gpu.processes.rows_mut() {
                row.label = self.name_of_process(row.pid, row.start_ns, &row.comm);
            }
        }
    }

    fn name_of(&mut self, row: &Row) -> Label {
        self.name_of_process(row.tgid, row.start_ns, &row.comm)
    }

    fn name_of_process(&mut self, tgid: u32, start_ns: u64, comm: &[u8; COMM_LEN]) -> Label {
        let key = (tgid, start_ns);
        if let Some(label) = self.cache.get(&key) {
            return *label;
        }
        let label = self
            .read_cmdline(tgid)
            .and_then(|cmdline| real_name(comm, cmdline))
            .unwrap_or_default();
        if self.cache.len() >= CACHE_ROOM {
            self.cache.clear();
        }
        self.cache.insert(key, label);
        label
    }

    fn read_cmdline(&mut self, tgid: u32) -> Option<&[u8]> {
        let mut path = [0u8; 48];
        let path = stack_path(&mut path, format_args!("/proc/{tgid}/cmdline"))?;
        let file = File::open(path).ok()?;
        let filled = read_whole(&file, &mut self.buf).ok()?;
        Some(&self.buf[..filled])
    }
}
