//! The probe's wire format (bpf/ringbar.h), mirrored field by field, and the task states.

use bytemuck::{Pod, Zeroable};

/// Length of the kernel's `comm` (`TASK_COMM_LEN`), NUL padding included.
pub const COMM_LEN: usize = 16;

/// `ringbar_task.flags`: the task is a kernel thread (`PF_KTHREAD`).
pub const TASK_KTHREAD: u32 = 1;
/// This process's IO is unknown to the reader rather than zero: /proc refused its `io`
/// (the /proc fallback), or the probe service's iterator left it out (another user's
/// process, `RINGBAR_TASK_IO_HIDDEN`).
pub const TASK_IO_UNKNOWN: u32 = 1 << 1;
/// `ringbar_task.flags`: by the kernel's ptrace read rule, /proc would not show the
/// reading process this task's IO (another user's, or not dumpable). See
/// [`Privacy`](super::visibility::Privacy).
pub const TASK_PRIVATE: u32 = 1 << 2;
/// `ringbar_task.flags`: the record has network bytes (`RINGBAR_TASK_NET`); its `net_*`
/// fields are read only then.
pub const TASK_NET: u32 = 1 << 4;
/// [`ExitRecord::flags`]: the group has been freed; no report follows this one
/// (`RINGBAR_EXIT_FREED`).
pub const EXIT_FREED: u32 = 1 << 3;
/// In the exit reports: the record is an [`OomRecord`] (`RINGBAR_RECORD_OOM`).
pub const RECORD_OOM: u32 = 1 << 8;
/// [`OomRecord::flags`]: a cgroup's memory limit was hit, not the machine's memory.
pub const OOM_MEMCG: u32 = 1 << 9;
/// [`OomRecord::flags`]: an older kernel (6.1) named the victim by its pid alone.
pub const OOM_PID_ONLY: u32 = 1 << 10;

/// How many PID namespaces below the initial one an exit report names its group in
/// (`RINGBAR_NS_LEVELS`).
pub const NS_LEVELS: usize = 4;

/// A thread group's pid in one PID namespace below the initial one: `struct
/// ringbar_ns_tgid`. `ns` is the namespace's inode number; 0 where there is none.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct NsTgid {
    pub ns: u32,
    pub tgid: u32,
}

/// One task (thread) as the task iterator reports it: `struct ringbar_task`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct TaskRecord {
    pub leader_start_ns: u64,
    pub cpu_ns: u64,
    pub group_dead_cpu_ns: u64,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub group_dead_read_bytes: u64,
    pub group_dead_write_bytes: u64,
    pub rss_pages: u64,
    pub tgid: u32,
    pub pid: u32,
    pub flags: u32,
    pub state: u32,
    pub comm: [u8; COMM_LEN],
    /// The task's cgroup v2 directory (its inode number); 0 when unknown.
    pub cgroup_id: u64,
    /// In D state: nanoseconds since the task last ran; 0 otherwise, or when the kernel
    /// does not say (and always from the /proc walk).
    pub blocked_ns: u64,
    /// Bytes through inet sockets: this thread's, and a group leader's also those of the
    /// group's exited threads, so that a group's figure is the sum over its threads (see
    /// [`NetBytes`](super::net::NetBytes)); 0 where not counted.
    pub net_sent_bytes: u64,
    pub net_received_bytes: u64,
    pub net_local_sent_bytes: u64,
    pub net_local_received_bytes: u64,
}

/// A thread group that died, as the exit hook reports it: `struct ringbar_exit`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ExitRecord {
    pub leader_start_ns: u64,
    pub cpu_ns: u64,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub tgid: u32,
    pub flags: u32,
    pub comm: [u8; COMM_LEN],
    /// The dying task's own uid and gid (the probe service judges each reader by them).
    pub uid: u32,
    pub gid: u32,
    /// The group's final network bytes, as in [`TaskRecord`].
    pub net_sent_bytes: u64,
    pub net_received_bytes: u64,
    pub net_local_sent_bytes: u64,
    pub net_local_received_bytes: u64,
    /// The group's tgid in the namespaces 1 to [`NS_LEVELS`] deep it lives in (`tgid` is
    /// the initial namespace's); see [`crate::model::pid_namespace`].
    pub ns_tgid: [NsTgid; NS_LEVELS],
}

/// A process the kernel's OOM killer chose, `struct ringbar_oom`. It travels with the exit
/// reports, as an [`ExitRecord`] with [`RECORD_OOM`] set (same size, same header fields).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct OomRecord {
    pub leader_start_ns: u64,
    /// The victim's resident pages (file + anon + shmem) when it was chosen.
    pub rss_pages: u64,
    /// CLOCK_MONOTONIC ns of the choice.
    pub time_ns: u64,
    /// For a cgroup's OOM, the cgroup's memory limit in pages; else 0.
    pub limit_pages: u64,
    pub tgid: u32,
    pub flags: u32,
    pub comm: [u8; COMM_LEN],
    pub uid: u32,
    pub gid: u32,
    /// Where an exit report has its network bytes: zero.
    pub reserved: [u64; 4],
    /// As in [`ExitRecord`]; empty where the kernel named the victim by its pid alone.
    pub ns_tgid: [NsTgid; NS_LEVELS],
}

impl ExitRecord {
    /// The OOM kill this record is, if it is one.
    pub fn as_oom(&self) -> Option<OomRecord> {
        (self.flags & RECORD_OOM != 0).then(|| bytemuck::cast(*self))
    }
}

impl OomRecord {
    /// The same bytes as the exit report they travel as.
    pub fn as_exit(&self) -> ExitRecord {
        bytemuck::cast(*self)
    }
}

// Same numbers as RINGBAR_TASK_SIZE / RINGBAR_EXIT_SIZE, which the BPF side asserts.
const _: () = assert!(std::mem::size_of::<TaskRecord>() == 144);
const _: () = assert!(std::mem::size_of::<ExitRecord>() == 128);
const _: () = assert!(std::mem::offset_of!(TaskRecord, tgid) == 64);
const _: () = assert!(std::mem::offset_of!(TaskRecord, comm) == 80);
const _: () = assert!(std::mem::offset_of!(ExitRecord, tgid) == 32);
const _: () = assert!(std::mem::offset_of!(ExitRecord, comm) == 40);
const _: () = assert!(std::mem::size_of::<OomRecord>() == 128);
const _: () = assert!(std::mem::offset_of!(OomRecord, ns_tgid) == 96);
const _: () = assert!(std::mem::offset_of!(ExitRecord, ns_tgid) == 96);
const _: () = assert!(std::mem::offset_of!(OomRecord, tgid) == 32);
const _: () = assert!(std::mem::offset_of!(OomRecord, flags) == 36);
const _: () = assert!(std::mem::offset_of!(OomRecord, comm) == 40);
const _: () = assert!(std::mem::offset_of!(OomRecord, uid) == 56);

impl TaskRecord {
    pub fn is_kthread(&self) -> bool {
        self.flags & TASK_KTHREAD != 0
    }

    pub fn state(&self) -> TaskState {
        TaskState::from_index(self.state)
    }
}

/// A task's state as `/proc/PID/stat` shows it (the kernel's `task_state_index()`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TaskState {
    #[default]
    Running,
    Sleeping,
    /// Uninterruptible: waiting on IO, a vfork child, or frozen.
    DiskSleep,
    Stopped,
    TracingStop,
    Dead,
    Zombie,
    Parked,
    Idle,
}

impl TaskState {
    pub fn from_index(index: u32) -> Self {
        match index {
            0 => Self::Running,
            1 => Self::Sleeping,
            2 => Self::DiskSleep,
            3 => Self::Stopped,
            4 => Self::TracingStop,
            5 => Self::Dead,
            6 => Self::Zombie,
            7 => Self::Parked,
            // 8 is TASK_IDLE; anything newer is treated like it: not a problem to report.
            _ => Self::Idle,
        }
    }

    /// The letter `ps` and `top` use.
    pub fn letter(self) -> char {
        match self {
            Self::Running => 'R',
            Self::Sleeping => 'S',
            Self::DiskSleep => 'D',
            Self::Stopped => 'T',
            Self::TracingStop => 't',
            Self::Dead => 'X',
            Self::Zombie => 'Z',
            Self::Parked => 'P',
            Self::Idle => 'I',
        }
    }

    /// Exited (zombie or being reaped): no longer runs.
    pub fn has_exited(self) -> bool {
        matches!(self, Self::Zombie | Self::Dead)
    }
}

/// Views a record buffer as bytes, e.g. to read the iterator's output into it.
pub fn task_bytes_mut(records: &mut [TaskRecord]) -> &mut [u8] {
    bytemuck::cast_slice_mut(records)
}

/// Decodes one exit record from a ring-buffer sample; `None` if it has the wrong size.
pub fn decode_exit(bytes: &[u8]) -> Option<ExitRecord> {
    bytemuck::try_pod_read_unaligned(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_map_like_proc() {
        let letters: String = (0..9).map(|i| TaskState::from_index(i).letter()).collect();
        assert_eq!(letters, "RSDTtXZPI");
        assert_eq!(TaskState::from_index(42), TaskState::Idle);
    }

    #[test]
    fn exit_records_decode_from_unaligned_bytes() {
        let rec = ExitRecord {
            tgid: 7,
            cpu_ns: 123,
            comm: *b"short\0\0\0\0\0\0\0\0\0\0\0",
            ..Default::default()
        };
        let mut bytes = vec![0u8; 1];
        bytes.extend_from_slice(bytemuck::bytes_of(&rec));
        assert_eq!(decode_exit(&bytes[1..]), Some(rec));
        assert_eq!(decode_exit(&bytes[1..20]), None);
    }

    #[test]
    fn oom_records_travel_as_exit_records() {
        let oom = OomRecord {
            tgid: 42,
            flags: RECORD_OOM | OOM_MEMCG,
            rss_pages: 1000,
            comm: *b"chrome\0\0\0\0\0\0\0\0\0\0",
            ..Default::default()
        };
        let exit = oom.as_exit();
        assert_eq!(exit.tgid, 42);
        assert_eq!(exit.as_oom(), Some(oom));
        assert_eq!(ExitRecord::default().as_oom(), None);
    }

    #[test]
    fn task_buffer_is_writable_as_bytes() {
        let mut records = vec![TaskRecord::default(); 2];
        let bytes = task_bytes_mut(&mut records);
        assert_eq!(bytes.len(), 288);
        bytes[64] = 9; // tgid of the first record
        assert_eq!(records[0].tgid, 9);
    }
}
