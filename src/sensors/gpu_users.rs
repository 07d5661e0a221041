//! Who uses each GPU, each tick after the process sample: DRM clients through their
//! fdinfo (`drm_users.rs`), NVIDIA's through NVML, ranked per GPU by the pure
//! accounting (`model/gpu_users.rs`) into `Gpu::processes`.

use std::path::Path;

use super::drm_users::DrmUsers;
use super::nvidia::{Nvidia, NvidiaProcess};
use super::GpuReader;
use crate::model::gpu_users::{DrmUsage, Owner};
use crate::model::{GpuDriver, Hardware};

#[derive(Debug)]
pub struct GpuUsers {
    drm: DrmUsers,
    usage: DrmUsage,
    /// (GPU index, process) as NVML reported them this tick.
    nvidia: Vec<(usize, NvidiaProcess)>,
    nvidia_buf: Vec<NvidiaProcess>,
    /// Per GPU (parallel to `Hardware::gpus`): NVML's timestamp of the last utilisation
    /// sample read.
    nvidia_seen_us: Vec<u64>,
}

impl GpuUsers {
    pub fn new(proc_root: &Path) -> GpuUsers {
        GpuUsers {
            drm: DrmUsers::new(proc_root),
            usage: DrmUsage::default(),
            nvidia: Vec::new(),
            nvidia_buf: Vec::new(),
            nvidia_seen_us: Vec::new(),
        }
    }

    /// `processes`: the sample's user processes (no kernel threads), each with whether
    /// it is private to the reader (hidden by `hidepid`).
    pub fn read(
        &mut self,
        now_ns: u64,
        processes: impl Iterator<Item = (Owner, bool)>,
        hw: &mut Hardware,
        readers: &[GpuReader],
        nvml: Option<&dyn Nvidia>,
    ) {
        if hw.gpus.is_empty() {
            return;
        }
        self.usage.begin();
        self.read_nvidia(readers, nvml);
        let any_drm = hw.gpus.iter().any(|g| g.driver != GpuDriver::Nvidia);
        if any_drm || !self.nvidia.is_empty() {
            let (usage, nvidia) = (&mut self.usage, &self.nvidia);
            let owners = processes.map(|(owner, private)| {
                // NVML lists every user's processes: one /proc hides is not shown.
                if !nvidia.is_empty() && !private {
                    for (gpu, p) in nvidia.iter().filter(|(_, p)| p.pid == owner.pid) {
                        let busy = p.busy_percent.map(f64::from);
                        usage.add_user(*gpu, owner, busy, p.memory_bytes);
                    }
                }
                owner
            });
            if any_drm {
                self.drm.begin(now_ns, owners);
                self.drm.read(now_ns, &hw.gpus, &mut self.usage);
            } else {
                owners.for_each(drop); // for NVML's users only
            }
        }
        self.usage.finish(&mut hw.gpus);
    }

    fn read_nvidia(&mut self, readers: &[GpuReader], nvml: Option<&dyn Nvidia>) {
        self.nvidia.clear();
        let Some(nvml) = nvml else { return };
        self.nvidia_seen_us.resize(readers.len(), 0);
        for (gpu, reader) in readers.iter().enumerate() {
            if let GpuReader::Nvidia(index) = reader {
                let seen = &mut self.nvidia_seen_us[gpu];
                nvml.processes(*index, seen, &mut self.nvidia_buf);
                let found = self.nvidia_buf.drain(..).map(|p| (gpu, p));
                self.nvidia.extend(found);
            }
        }
    }

    /// How many times a process's fds were looked at.
    pub fn scans(&self) -> u64 {
        self.drm.scans()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Gpu;
    use crate::sensors::nvidia::tests::FakeNvidia;

    fn owner(pid: u32) -> Owner {
        Owner {
            pid,
            start_ns: 1,
            comm: *b"job\0\0\0\0\0\0\0\0\0\0\0\0\0",
        }
    }

    #[test]
    fn nvml_users_of_visible_processes_only_and_failures_ignored() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut users = GpuUsers::new(dir.path());
        let mut hw = Hardware {
            gpus: vec![
                Gpu::new("nvidia0", GpuDriver::Nvidia, "0000:01:00.0"),
                Gpu::new("nvidia1", GpuDriver::Nvidia, ""),
            ],
            ..Hardware::default()
        };
        let readers = [GpuReader::Nvidia(0), GpuReader::Nvidia(1)];
        // 4343 is hidden from the reader (hidepid); 7 uses no GPU.
        let processes = [(owner(4242), false), (owner(4343), true), (owner(7), false)];
        users.read(
            1,
            processes.into_iter(),
            &mut hw,
            &readers,
            Some(&FakeNvidia),
        );
        let rows: Vec<_> = hw.gpus[0]
            .processes
            .rows()
            .iter()
            .map(|p| (p.pid, p.busy_percent, p.memory_bytes))
            .collect();
        assert_eq!(rows, [(4242, Some(40.0), Some(512 << 20))]);
        assert!(hw.gpus[1].processes.is_empty(), "NVML failed: no rows");
        assert_eq!(users.nvidia_seen_us, [1, 0], "the timestamp moves on");
        assert_eq!(users.scans(), 0, "no DRM GPU: no fd is looked at");
        // NVML gone: the rows go too.
        users.read(2, processes.into_iter(), &mut hw, &readers, None);
        assert!(hw.gpus[0].processes.is_empty());
    }
}
