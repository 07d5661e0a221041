//! A process's /proc files, opened relative to an fd of /proc and read from offset 0, so
//! that one open file serves every sample.
//!
//! An open /proc/PID file belongs to that process, not to its number: once the process is
//! gone it reads ESRCH, even when the number has been given to a new process. What the
//! kernel checks again at each read, and what only at open, decides what may be held:
//! see [`super`].

use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::{openat, Mode, OFlags};
use rustix::io::{pread, Errno};

/// Files of one process kept open between samples.
pub struct Held {
    pub stat: OwnedFd,
    pub statm: Option<OwnedFd>,
    pub io: Option<OwnedFd>,
}

impl Held {
    /// The fds held.
    pub fn count(&self) -> usize {
        1 + usize::from(self.statm.is_some()) + usize::from(self.io.is_some())
    }
}

/// Opens `PID/FILE` under `dir`, with `name` as the scratch space for the path.
pub fn open(dir: &OwnedFd, name: &mut String, pid: u32, file: &str) -> Result<OwnedFd, Errno> {
    use std::fmt::Write;
    name.clear();
    let _ = write!(name, "{pid}/{file}");
    open_relative(dir, name)
}

/// Opens `path` under `dir` for reading.
pub fn open_relative(dir: &OwnedFd, path: &str) -> Result<OwnedFd, Errno> {
    openat(
        dir,
        path,
        OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY,
        Mode::empty(),
    )
}

/// Opens a directory (`/proc` itself).
pub fn open_dir(path: &std::path::Path) -> Result<OwnedFd, Errno> {
    openat(
        rustix::fs::CWD,
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// Reads an open file whole, from offset 0, into `buf` (grown as needed, never shrunk).
/// A /proc seq file hands over all it has in one read when the buffer is larger, so a
/// short read is the end: one `pread` per file and sample.
pub fn read_whole(fd: impl AsFd, buf: &mut Vec<u8>) -> Result<&[u8], Errno> {
    const START: usize = 4096;
    if buf.len() < START {
        buf.resize(START, 0);
    }
    let mut filled = 0;
    loop {
        let n = pread(fd.as_fd(), &mut buf[filled..], filled as u64)?;
        filled += n;
        if n == 0 || filled < buf.len() {
            return Ok(&buf[..filled]);
        }
        let larger = buf.len() * 2;
        buf.resize(larger, 0);
    }
}

/// Whether the kernel refused the reader (`/proc/PID/io` of a process it may not
/// ptrace-read), as opposed to the process being gone or the fd table full.
pub fn refused(err: Errno) -> bool {
    err == Errno::ACCESS || err == Errno::PERM
}

/// Whether an open failed for want of fds, in this process or in the system.
pub fn out_of_fds(err: Errno) -> bool {
    err == Errno::MFILE || err == Errno::NFILE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_whole_files_of_any_size_from_the_start() {
        let dir = tempfile::tempdir().expect("tempdir");
        let big: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.path().join("big"), &big).expect("write");
        std::fs::write(dir.path().join("small"), b"hello\n").expect("write");
        let root = open_dir(dir.path()).expect("open dir");
        let mut buf = Vec::new();
        let big_fd = open_relative(&root, "big").expect("open");
        assert_eq!(read_whole(&big_fd, &mut buf).expect("read"), &big[..]);
        // Again from the start: the same bytes, not the end of the file.
        assert_eq!(read_whole(&big_fd, &mut buf).expect("read"), &big[..]);
        let small = open_relative(&root, "small").expect("open");
        assert_eq!(read_whole(&small, &mut buf).expect("read"), b"hello\n");
        let mut name = String::new();
        assert_eq!(open(&root, &mut name, 7, "stat").err(), Some(Errno::NOENT));
        assert_eq!(name, "7/stat");
        assert!(refused(Errno::ACCESS) && refused(Errno::PERM) && !refused(Errno::SRCH));
        assert!(out_of_fds(Errno::MFILE) && !out_of_fds(Errno::NOENT));
    }
}
