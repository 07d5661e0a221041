//! System-wide procfs (and sysfs) files, opened once and re-read with pread(2) each sample.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::model::{LoadAverage, Memory};

/// Large enough for /proc/meminfo on any kernel seen so far (about 1.5 KiB).
const BUFFER_SIZE: usize = 16 * 1024;

/// One procfs file kept open. A failed read is logged once and the file reopened on the
/// next sample, so a transient error never sticks.
#[derive(Debug)]
pub(crate) struct ProcFile {
    path: PathBuf,
    file: Option<File>,
    failing: bool,
}

impl ProcFile {
    pub(crate) fn new(path: PathBuf) -> Self {
        let file = File::open(&path).ok();
        ProcFile {
            path,
            file,
            failing: false,
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the whole file into `buf`; `None` (logged once) when it cannot be read.
    pub(crate) fn read<'b>(&mut self, buf: &'b mut [u8]) -> Option<&'b [u8]> {
        let result = match &self.file {
            Some(file) => read_whole(file, buf),
            None => File::open(&self.path).and_then(|file| {
                let n = read_whole(&file, buf)?;
                self.file = Some(file);
                Ok(n)
            }),
        };
        match result {
            Ok(n) => {
                self.failing = false;
                Some(&buf[..n])
            }
            Err(err) => {
                if !self.failing {
                    tracing::warn!(path = %self.path.display(), %err, "cannot read");
                    self.failing = true;
                }
                self.file = None;
                None
            }
        }
    }
}

/// A path formatted into `buf`, on the stack (opening it allocates nothing); `None` if
/// it does not fit.
pub(crate) fn stack_path<'b>(buf: &'b mut [u8; 48], args: std::fmt::Arguments) -> Option<&'b str> {
    let len = {
        let mut cursor = &mut buf[..];
        std::io::Write::write_fmt(&mut cursor, args).ok()?;
        48 - cursor.len()
    };
    std::str::from_utf8(&buf[..len]).ok()
}

/// A short read that ends below this is the end of the file: procfs's and sysfs's seq
/// files fill a page before they stop short of a reader's buffer, unless the file ended
/// (their records, a line or a whole small file, are far below half a page), and a regular
/// file (a test's fake tree) reads short only at its end.
const SURELY_WHOLE: usize = 2048;

/// Reads `file` from offset 0 into `buf` until the end or `buf` is full; the bytes read.
/// A small file takes one pread: a short read below [`SURELY_WHOLE`] is its end.
pub(crate) fn read_whole(file: &File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], filled as u64) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if filled < buf.len() && filled < SURELY_WHOLE {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Memory and load averages from a procfs root (normally `/proc`; tests pass a fake tree).
#[derive(Debug)]
pub struct SystemFiles {
    meminfo: ProcFile,
    loadavg: ProcFile,
    buf: Box<[u8]>,
}

impl SystemFiles {
    pub fn open(proc_root: &Path) -> Self {
        SystemFiles {
            meminfo: ProcFile::new(proc_root.join("meminfo")),
            loadavg: ProcFile::new(proc_root.join("loadavg")),
            buf: vec![0; BUFFER_SIZE].into_boxed_slice(),
        }
    }

    pub fn memory(&mut self) -> Option<Memory> {
        let text = self.meminfo.read(&mut self.buf)?;
        let memory = Memory::parse(text);
        if memory.is_none() {
            tracing::debug!("unparsable meminfo");
        }
        memory
    }

    pub fn load(&mut self) -> Option<LoadAverage> {
        LoadAverage::parse(self.loadavg.read(&mut self.buf)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seq_file_of_many_pages_is_read_whole_and_a_small_file_in_one_read() {
        // /proc/kallsyms hands over about a page per read: a short read above half a page
        // is not the end.
        let kallsyms = File::open("/proc/kallsyms").expect("/proc/kallsyms");
        let mut buf = vec![0; 64 * 1024];
        let n = read_whole(&kallsyms, &mut buf).expect("read");
        let whole = std::fs::read("/proc/kallsyms").expect("read");
        assert_eq!(n, buf.len().min(whole.len()), "{n} of {}", whole.len());
        assert_eq!(&buf[..n], &whole[..n]);
        // A regular file of more than half a page, then one of less.
        let dir = tempfile::tempdir().expect("tempdir");
        for len in [3000, 27] {
            let path = dir.path().join("file");
            std::fs::write(&path, "x".repeat(len)).expect("write");
            let mut buf = vec![0; 16 * 1024];
            let n = read_whole(&File::open(&path).expect("open"), &mut buf).expect("read");
            assert_eq!(n, len);
        }
    }

    #[test]
    fn reads_a_fake_tree_and_survives_files_vanishing() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("meminfo"),
            "MemTotal: 100 kB\nMemAvailable: 40 kB\n",
        )
        .expect("write");
        std::fs::write(dir.path().join("loadavg"), "0.10 0.20 0.30 1/2 3\n").expect("write");
        let mut files = SystemFiles::open(dir.path());
        assert_eq!(files.memory().map(|m| m.used()), Some(60 * 1024));
        assert_eq!(files.load().map(|l| l.0), Some([0.1, 0.2, 0.3]));

        std::fs::remove_file(dir.path().join("meminfo")).expect("remove");
        std::fs::write(dir.path().join("loadavg"), "garbage").expect("write");
        // The open fd still reads the unlinked file; a new file is picked up after a failure.
        assert!(files.memory().is_some());
        assert_eq!(files.load(), None);

        let mut fresh = SystemFiles::open(dir.path());
        assert_eq!(fresh.memory(), None);
        std::fs::write(
            dir.path().join("meminfo"),
            "MemTotal: 8 kB\nMemAvailable: 8 kB\n",
        )
        .expect("write");
        assert_eq!(fresh.memory().map(|m| m.total), Some(8192));
    }

    #[test]
    fn real_proc_files_parse() {
        let mut files = SystemFiles::open(Path::new("/proc"));
        let memory = files.memory().expect("/proc/meminfo parses");
        assert!(memory.total > 0 && memory.used() <= memory.total);
        assert!(files.load().is_some());
    }
}
