//! The walker: one run of `walk_tasks` (bpf/ringbar.bpf.c) per sample writes every task's
//! record into a map that this process maps into its memory. It needs Linux 6.7+ (the
//! open-coded task iterator); elsewhere, and in a sample with more tasks than the map
//! holds, the task iterator reads instead.

use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::ptr::NonNull;

use libbpf_rs::btf::types::Func;
use libbpf_rs::btf::Btf;
use rustix::mm::{mmap, munmap, MapFlags, ProtFlags};

use crate::model::record::TaskRecord;
use crate::model::system::tasks_and_last_pid;

/// What `walk_tasks` returns for a reader outside the initial PID namespace.
const WALK_REFUSED: u32 = u32::MAX;

/// The fewest records the walker's map holds, and how many times the tasks at start.
const LEAST_CAPACITY: usize = 4096;
const HEADROOM_FACTOR: usize = 2;

/// Whether the kernel (its BTF) has the open-coded task iterator (the kfunc
/// `bpf_iter_task_new`).
pub(super) fn kernel_supports(btf: &Btf<'_>) -> bool {
    btf.type_by_name::<Func<'_>>("bpf_iter_task_new").is_some()
}

/// Records the walker's map is sized for: twice the machine's tasks now, 4096 at least.
pub(super) fn capacity_for_this_machine() -> usize {
    let tasks = std::fs::read("/proc/loadavg")
        .ok()
        .and_then(|text| tasks_and_last_pid(&text))
        .map_or(0, |(tasks, _)| tasks as usize);
    (tasks * HEADROOM_FACTOR).max(LEAST_CAPACITY)
}

pub(super) struct Walker {
    program: OwnedFd,
    records: Mapping,
    capacity: usize,
    /// Records the last run wrote.
    written: usize,
}

impl Walker {
    /// `program`: the loaded `walk_tasks`; `map`: its `walked` map of `capacity` records.
    pub fn new(program: OwnedFd, map: impl AsFd, capacity: usize) -> io::Result<Walker> {
        let records = Mapping::of(map, capacity * std::mem::size_of::<TaskRecord>())?;
        Ok(Walker {
            program,
            records,
            capacity,
            written: 0,
        })
    }

    /// Walks the tasks once. `Ok(false)`: there were more than the map holds, and the
    /// records are not all there (the caller reads this sample another way).
    pub fn walk(&mut self) -> io::Result<bool> {
        let mut opts = libbpf_sys::bpf_test_run_opts {
            sz: std::mem::size_of::<libbpf_sys::bpf_test_run_opts>() as libbpf_sys::size_t,
            ..Default::default()
        };
        // SAFETY: `opts` is a zeroed bpf_test_run_opts of the size it declares, with no
        // buffers; the program fd is open for the call.
        let result =
            unsafe { libbpf_sys::bpf_prog_test_run_opts(self.program.as_raw_fd(), &mut opts) };
        self.written = 0;
        if result != 0 {
            return Err(io::Error::from_raw_os_error(result.unsigned_abs() as i32));
        }
        if opts.retval == WALK_REFUSED {
            return Err(io::Error::other(
                "it walks every task, and this process is not in the initial PID namespace",
            ));
        }
        // The program returns the tasks it found.
        let found = opts.retval as usize;
        if found > self.capacity {
            return Ok(false);
        }
        self.written = found;
        Ok(true)
    }

    /// The records of the last walk.
    pub fn tasks(&self) -> &[TaskRecord] {
        // SAFETY: the mapping holds `capacity` records (page-aligned, and TaskRecord is a
        // plain `repr(C)` struct that any bytes make valid); `written <= capacity`. The
        // kernel writes them only while `walk` runs, which needs `&mut self`.
        unsafe {
            std::slice::from_raw_parts(
                self.records.address.as_ptr().cast::<TaskRecord>(),
                self.written,
            )
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

/// A read-only shared mapping of a BPF map's values, unmapped on drop.
struct Mapping {
    address: NonNull<std::ffi::c_void>,
    length: usize,
}

// SAFETY: the mapping is plain memory owned by this struct; nothing in it is tied to the
// thread that made it.
unsafe impl Send for Mapping {}

impl Mapping {
    fn of(map: impl AsFd, length: usize) -> io::Result<Mapping> {
        // SAFETY: a new shared read-only mapping of the map's fd at offset 0, at an address
        // the kernel picks; `length` is at most the map's values (the kernel refuses more).
        let address = unsafe {
            mmap(
                std::ptr::null_mut(),
                length,
                ProtFlags::READ,
                MapFlags::SHARED,
                map.as_fd(),
                0,
            )
        }?;
        let address = NonNull::new(address).ok_or_else(|| io::Error::other("mmap gave null"))?;
        Ok(Mapping { address, length })
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `of`, which nothing borrows any more.
        let _ = unsafe { munmap(self.address.as_ptr(), self.length) };
    }
}
