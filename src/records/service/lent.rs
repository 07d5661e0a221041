//! The records the service walks for one client, lent through a memfd of that client's
//! own. The service maps it writable, then seals it: no write, no new writable mapping
//! (`F_SEAL_FUTURE_WRITE`), no resizing. The client gets a read-only fd to it and maps it
//! read-only; even reopened through /proc as read-write, the seals refuse every write. So
//! a client reads what the service wrote for it alone and can write nowhere: not into its
//! records, and not into anyone else's, which live in memfds it never receives.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};

use rustix::fs::{fcntl_add_seals, ftruncate, memfd_create, MemfdFlags, SealFlags};

use crate::model::record::TaskRecord;
use crate::records::mapping::Mapping;

/// The seals the client checks for: the file can neither shrink under its mapping (a read
/// past the end would kill it with SIGBUS) nor be written by anyone but the service.
pub const SEALS: SealFlags = SealFlags::SHRINK
    .union(SealFlags::GROW)
    .union(SealFlags::FUTURE_WRITE)
    .union(SealFlags::SEAL);

pub struct LentRecords {
    file: OwnedFd,
    mapping: Mapping,
}

impl LentRecords {
    /// A sealed memfd that holds `capacity` records (its pages are only allocated as the
    /// records are written).
    pub fn new(capacity: usize) -> io::Result<LentRecords> {
        let file = memfd_create(
            "ringbar-tasks",
            MemfdFlags::CLOEXEC | MemfdFlags::ALLOW_SEALING,
        )?;
        let length = capacity * std::mem::size_of::<TaskRecord>();
        ftruncate(&file, length as u64)?;
        // Mapped before the seals: the future-write seal keeps this mapping writable.
        let mapping = Mapping::writable(&file, length)?;
        fcntl_add_seals(&file, SEALS)?;
        Ok(LentRecords { file, mapping })
    }

    /// Copies the walk's records in; returns how many it holds now.
    pub fn fill(&mut self, tasks: &[TaskRecord]) -> usize {
        self.mapping.write_records(tasks)
    }

    /// A new read-only fd to the memfd, for the client: opened again through /proc, since
    /// a memfd is created read-write and its access mode cannot be lowered.
    pub fn reader_fd(&self) -> io::Result<OwnedFd> {
        let path = format!("/proc/self/fd/{}", self.file.as_fd().as_raw_fd());
        Ok(File::open(path)?.into())
    }
}
