//! The walker: one run of `walk_tasks` (bpf/ringbar.bpf.c) per sample writes every task's
//! record into a map that this process maps into its memory. It needs Linux 6.7+ (the
//! open-coded task iterator); elsewhere, and in a sample with more tasks than the map
//! holds, the task iterator reads instead.

use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};

use libbpf_rs::btf::types::Func;
use libbpf_rs::btf::Btf;

use crate::model::record::TaskRecord;
use crate::model::system::tasks_and_last_pid;
use crate::records::mapping::Mapping;

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

/// The records mapped beyond those a walk found, so a few more tasks need no new mapping.
const MAPPED_HEADROOM: usize = 256;

/// How many of the map's `capacity` records to map for a walk that found `tasks`: them
/// and some headroom, in whole pages. The kernel maps every page of a mapping at once (and
/// counts it resident), so mapping the whole map would make 4,096 records 576 KiB of the
/// bar's memory where 300 tasks fill 43.
fn records_to_map(tasks: usize, capacity: usize) -> usize {
    let record = std::mem::size_of::<TaskRecord>();
    let bytes = (tasks + MAPPED_HEADROOM) * record;
    let page = rustix::param::page_size();
    (bytes.div_ceil(page) * page / record).min(capacity)
}

pub(super) struct Walker {
    program: OwnedFd,
    /// The `walked` map, and the first of its records mapped into this process (`None`
    /// while unmapped): as many as the last walk found, and some headroom.
    map: OwnedFd,
    records: Option<Mapping>,
    capacity: usize,
    /// Records the last run wrote.
    written: usize,
}

impl Walker {
    /// `program`: the loaded `walk_tasks`; `map`: its `walked` map of `capacity` records.
    pub fn new(program: OwnedFd, map: impl AsFd, capacity: usize) -> io::Result<Walker> {
        let mut walker = Walker {
            program,
            map: map.as_fd().try_clone_to_owned()?,
            records: None,
            capacity,
            written: 0,
        };
        walker.map_records(0)?;
        Ok(walker)
    }

    /// Maps at least `tasks` records, mapping anew when the present mapping holds fewer.
    fn map_records(&mut self, tasks: usize) -> io::Result<()> {
        let mapped = self.records.as_ref().map_or(0, Mapping::record_capacity);
        if self.records.is_none() || mapped < tasks {
            let length = records_to_map(tasks, self.capacity) * std::mem::size_of::<TaskRecord>();
            // The old mapping goes first: both at once would be resident together.
            self.records = None;
            self.records = Some(Mapping::read_only(&self.map, length)?);
        }
        Ok(())
    }

    /// Unmaps the records until the next walk (the kernel maps all their pages at once).
    pub fn unmap(&mut self) {
        self.records = None;
        self.written = 0;
    }

    /// Walks the tasks once, as the user `uid` with group `gid` sees them (which tasks'
    /// IO is private to it). `Ok(false)`: there were more than the map holds, and the
    /// records are not all there (the caller reads this sample another way).
    pub fn walk(&mut self, uid: u32, gid: u32) -> io::Result<bool> {
        self.written = 0;
        // `struct walk_reader` in bpf/walker.bpf.h.
        let mut reader = [uid, gid];
        let mut opts = libbpf_sys::bpf_test_run_opts {
            sz: std::mem::size_of::<libbpf_sys::bpf_test_run_opts>() as libbpf_sys::size_t,
            ctx_in: reader.as_mut_ptr().cast(),
            ctx_size_in: std::mem::size_of_val(&reader) as u32,
            ..Default::default()
        };
        // SAFETY: `opts` is a bpf_test_run_opts of the size it declares whose only buffer,
        // `ctx_in`, points at `reader` (8 bytes, as `ctx_size_in` says), alive for the call;
        // the program fd is open for the call.
        let result =
            unsafe { libbpf_sys::bpf_prog_test_run_opts(self.program.as_raw_fd(), &mut opts) };
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
        // The kernel wrote them to the map whatever this process maps of it.
        self.map_records(found)?;
        self.written = found;
        Ok(true)
    }

    /// The records of the last walk.
    pub fn tasks(&self) -> &[TaskRecord] {
        match &self.records {
            // SAFETY: the kernel writes the records only while `walk` runs, which needs
            // `&mut self`.
            Some(records) => unsafe { records.records(self.written) },
            None => &[],
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_records_mapped_cover_the_walk_in_whole_pages_within_the_map() {
        let record = std::mem::size_of::<TaskRecord>();
        let page = rustix::param::page_size();
        for tasks in [0, 1, 300, 1000, 3300, 4000] {
            let mapped = records_to_map(tasks, 4096);
            assert!(mapped >= tasks.min(4096), "{tasks} tasks, {mapped} mapped");
            assert!(mapped <= 4096, "never beyond the map");
            if mapped < 4096 {
                assert!(mapped >= tasks + MAPPED_HEADROOM, "with headroom");
                let pages = (mapped * record).div_ceil(page);
                assert!((mapped + 1) * record > pages * page, "its pages filled");
            }
        }
        assert!(
            records_to_map(300, 4096) * record <= 20 * page,
            "300 tasks map 20 pages, not the map's 144"
        );
    }
}
