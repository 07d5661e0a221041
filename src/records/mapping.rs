//! Shared mappings of a file's first bytes (a BPF map's values, a memfd), unmapped on
//! drop, seen as task records.

use std::io;
use std::os::fd::AsFd;
use std::ptr::NonNull;

use rustix::mm::{mmap, munmap, MapFlags, ProtFlags};

use crate::model::record::TaskRecord;

/// A shared mapping of `length` bytes at offset 0 of a file.
pub struct Mapping {
    address: NonNull<std::ffi::c_void>,
    length: usize,
}

// SAFETY: the mapping is plain memory owned by this struct; nothing in it is tied to the
// thread that made it.
unsafe impl Send for Mapping {}

impl Mapping {
    /// Read-only.
    pub fn read_only(file: impl AsFd, length: usize) -> io::Result<Mapping> {
        Mapping::new(file, length, ProtFlags::READ)
    }

    /// Readable and writable.
    pub fn writable(file: impl AsFd, length: usize) -> io::Result<Mapping> {
        Mapping::new(file, length, ProtFlags::READ | ProtFlags::WRITE)
    }

    fn new(file: impl AsFd, length: usize, protection: ProtFlags) -> io::Result<Mapping> {
        // SAFETY: a new shared mapping of the file at offset 0, at an address the kernel
        // picks; the kernel refuses a length the file (or BPF map) cannot back.
        let address = unsafe {
            mmap(
                std::ptr::null_mut(),
                length,
                protection,
                MapFlags::SHARED,
                file.as_fd(),
                0,
            )
        }?;
        let address = NonNull::new(address).ok_or_else(|| io::Error::other("mmap gave null"))?;
        Ok(Mapping { address, length })
    }

    /// How many task records fit.
    pub fn record_capacity(&self) -> usize {
        self.length / std::mem::size_of::<TaskRecord>()
    }

    /// The first `count` records.
    ///
    /// # Safety
    /// Nothing may write them while the slice lives (the caller's protocol with whoever
    /// writes the file: the kernel during a walk, the probe service during a request).
    pub unsafe fn records(&self, count: usize) -> &[TaskRecord] {
        let count = count.min(self.record_capacity());
        // SAFETY: the mapping holds `length` bytes, page-aligned, and TaskRecord is a
        // plain `repr(C)` struct that any bytes make valid; `count` records fit; the
        // caller promises no writes while the slice lives.
        unsafe { std::slice::from_raw_parts(self.address.as_ptr().cast::<TaskRecord>(), count) }
    }

    /// Writes `tasks` at the start (as many as fit); a writable mapping only.
    pub fn write_records(&mut self, tasks: &[TaskRecord]) -> usize {
        let count = tasks.len().min(self.record_capacity());
        // SAFETY: the mapping is writable (made by `writable`, else the caller broke the
        // contract and the write faults in this process only), holds `count` records, and
        // `&mut self` keeps any slice of `records` from living across the copy.
        unsafe {
            std::ptr::copy_nonoverlapping(
                tasks.as_ptr(),
                self.address.as_ptr().cast::<TaskRecord>(),
                count,
            );
        }
        count
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`, which nothing borrows any more.
        let _ = unsafe { munmap(self.address.as_ptr(), self.length) };
    }
}
