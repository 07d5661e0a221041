//! One GPU's users as the sample keeps them: a process with its busy share and memory,
//! and the ranked list of them each GPU holds. What computes them is `gpu_users.rs`.

use super::app::Label;
use super::record::COMM_LEN;
use super::top::{shown_name, Ranked, TopList};

/// Rows per GPU.
pub const GPU_USER_ROWS: usize = 5;

/// A process using a GPU, with what it used in the interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuProcess {
    pub pid: u32,
    /// With `pid`, the process's key (names are cached by it).
    pub start_ns: u64,
    pub comm: [u8; COMM_LEN],
    /// The real name (see `src/realnames.rs`); empty: `comm`.
    pub label: Label,
    /// Its share of the GPU's time, 0–100; `None` until two reads give a delta.
    pub busy_percent: Option<f64>,
    /// GPU memory it holds, in bytes, where the driver says.
    pub memory_bytes: Option<u64>,
}

impl GpuProcess {
    pub fn name(&self) -> &[u8] {
        shown_name(&self.label, &self.comm)
    }
}

impl Ranked for GpuProcess {
    /// Busier first, then more memory, then the lower PID (never hash-map order).
    fn ranks_before(&self, other: &GpuProcess) -> bool {
        let key = |p: &GpuProcess| {
            (
                p.busy_percent.unwrap_or(-1.0),
                p.memory_bytes.unwrap_or(0),
                std::cmp::Reverse(p.pid),
            )
        };
        key(self).partial_cmp(&key(other)) == Some(std::cmp::Ordering::Greater)
    }
}

/// The top [`GPU_USER_ROWS`] processes of one GPU; copied without allocating.
pub type GpuProcesses = TopList<GPU_USER_ROWS, GpuProcess>;
