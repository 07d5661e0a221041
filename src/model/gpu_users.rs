//! Who uses each GPU: per-process busy share and memory, from the DRM clients' fdinfo
//! counters (see `fdinfo.rs`) or from NVML, ranked into a fixed-size list per GPU.
//!
//! [`DrmUsage`] keeps each DRM client's previous counters to turn them into shares. The
//! edge (`src/sensors/drm_users.rs`) feeds it the fdinfo of every DRM fd it watches; one
//! client may be open through several fds, and several processes after fork or fd
//! passing: it is counted once per GPU, for the first process offered (the edge offers
//! them in PID order, so the parent, usually).

use super::app::Label;
use super::fdinfo::{DrmFdinfo, PciSlot};
pub use super::gpu_process::{GpuProcess, GpuProcesses, GPU_USER_ROWS};
use super::hardware::{Gpu, GpuDriver};
use super::record::COMM_LEN;

/// A process as the edge knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    pub pid: u32,
    pub start_ns: u64,
    pub comm: [u8; COMM_LEN],
}

/// How a client is told apart: its `drm-client-id` (unique per device), or, from a
/// driver that prints none, the fd it was read through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClientId {
    Drm(u64),
    Fd { pid: u32, start_ns: u64, fd: u32 },
}

#[derive(Debug)]
struct Client {
    gpu: usize,
    id: ClientId,
    /// The tick it was last read in: a second fd of it in the same tick is not counted.
    seen: u64,
    at_ns: u64,
    /// The largest counters read so far (a counter that goes back is held, as the
    /// documentation asks, until it catches up).
    last: DrmFdinfo,
}

/// The DRM clients' previous counters, and this tick's per-process sums.
#[derive(Debug, Default)]
pub struct DrmUsage {
    clients: Vec<Client>,
    users: Vec<(usize, GpuProcess)>,
    tick: u64,
}

impl DrmUsage {
    /// Starts a tick.
    pub fn begin(&mut self) {
        self.tick += 1;
        self.users.clear();
    }

    /// Adds one fd's fdinfo, read at `now_ns`, of `owner`, on GPU `gpu` (an index into
    /// `Hardware::gpus`, see [`gpu_of`]).
    pub fn add_fd(&mut self, now_ns: u64, gpu: usize, owner: Owner, fd: u32, info: &DrmFdinfo) {
        let id = match info.client_id {
            Some(id) => ClientId::Drm(id),
            None => ClientId::Fd {
                pid: owner.pid,
                start_ns: owner.start_ns,
                fd,
            },
        };
        let tick = self.tick;
        let busy = match self.clients.iter_mut().find(|c| c.gpu == gpu && c.id == id) {
            Some(client) if client.seen == tick => return, // counted through another fd
            Some(client) => {
                let busy = busy_share(&client.last, info, now_ns.saturating_sub(client.at_ns));
                client.seen = tick;
                client.at_ns = now_ns;
                hold_largest(&mut client.last, info);
                busy
            }
            None => {
                self.clients.push(Client {
                    gpu,
                    id,
                    seen: tick,
                    at_ns: now_ns,
                    last: *info,
                });
                None
            }
        };
        self.add_user(gpu, owner, busy, info.memory_bytes());
    }

    /// Adds a process's use of a GPU as a driver reports it whole (NVML), or one more
    /// client of it: shares and memory add up.
    pub fn add_user(
        &mut self,
        gpu: usize,
        owner: Owner,
        busy_percent: Option<f64>,
        memory_bytes: Option<u64>,
    ) {
        let add_f = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => Some((a + b).min(100.0)),
            (a, b) => a.or(b),
        };
        let add_u = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.saturating_add(b)),
            (a, b) => a.or(b),
        };
        let same = |(g, p): &&mut (usize, GpuProcess)| {
            *g == gpu && p.pid == owner.pid && p.start_ns == owner.start_ns
        };
        match self.users.iter_mut().find(same) {
            Some((_, user)) => {
                user.busy_percent = add_f(user.busy_percent, busy_percent);
                user.memory_bytes = add_u(user.memory_bytes, memory_bytes);
            }
            None => self.users.push((
                gpu,
                GpuProcess {
                    pid: owner.pid,
                    start_ns: owner.start_ns,
                    comm: owner.comm,
                    label: Label::default(),
                    busy_percent: busy_percent.map(|p| p.clamp(0.0, 100.0)),
                    memory_bytes,
                },
            )),
        }
    }

    /// Ends the tick: clients not read in it are forgotten, and every GPU's list is
    /// ranked anew.
    pub fn finish(&mut self, gpus: &mut [Gpu]) {
        let tick = self.tick;
        self.clients.retain(|c| c.seen == tick);
        for gpu in gpus.iter_mut() {
            gpu.processes.clear();
        }
        for (index, user) in &self.users {
            if let Some(gpu) = gpus.get_mut(*index) {
                gpu.processes.offer(*user);
            }
        }
    }

    /// Clients remembered (tests: forgotten ones go).
    pub fn clients(&self) -> usize {
        self.clients.len()
    }
}

/// The GPU a DRM client is on: the one at its `drm-pdev`; without one, the only DRM GPU
/// there is (NVIDIA's are read through NVML, never through fdinfo).
pub fn gpu_of(pdev: Option<PciSlot>, gpus: &[Gpu]) -> Option<usize> {
    let drm = |g: &&Gpu| g.driver != GpuDriver::Nvidia;
    match pdev {
        Some(slot) => gpus.iter().position(|g| {
            g.driver != GpuDriver::Nvidia && PciSlot::parse(&g.pci_slot) == Some(slot)
        }),
        None if gpus.iter().filter(drm).count() == 1 => gpus.iter().position(|g| drm(&g)),
        None => None,
    }
}

/// The client's busy share between two reads `elapsed_ns` apart, in percent: per engine
/// the busy time over the wall time (xe: busy cycles over the GPU timestamp's cycles),
/// divided by the engine's capacity, and of the engines the busiest. The busiest, not the
/// sum: engines run in parallel, so a sum could pass 100 % and would not compare with
/// the GPU's own busy share, which counts the time any engine is busy.
pub fn busy_share(before: &DrmFdinfo, after: &DrmFdinfo, elapsed_ns: u64) -> Option<f64> {
    let mut busiest: Option<f64> = None;
    for engine in after.engines() {
        let Some(old) = before.engines().iter().find(|e| e.name() == engine.name()) else {
            continue;
        };
        let capacity = engine.capacity() as f64;
        let share = match (
            engine.cycles,
            engine.total_cycles,
            old.cycles,
            old.total_cycles,
        ) {
            (Some(cycles), Some(total), Some(old_cycles), Some(old_total)) => {
                let span = total.saturating_sub(old_total);
                (span > 0).then(|| cycles.saturating_sub(old_cycles) as f64 / span as f64)
            }
            _ => match (engine.busy_ns, old.busy_ns) {
                (Some(ns), Some(old_ns)) if elapsed_ns > 0 => {
                    Some(ns.saturating_sub(old_ns) as f64 / elapsed_ns as f64)
                }
                _ => None,
            },
        };
        if let Some(share) = share {
            let percent = (share / capacity * 100.0).clamp(0.0, 100.0);
            busiest = Some(busiest.map_or(percent, |b| b.max(percent)));
        }
    }
    busiest
}

/// Keeps the larger of each counter in `last`, and the new memory and engines.
fn hold_largest(last: &mut DrmFdinfo, now: &DrmFdinfo) {
    let before = *last;
    *last = *now;
    last.hold(&before);
}

#[cfg(test)]
mod tests;
