//! Takes the cores' reading: `/proc/stat`, kept open and re-read each tick.

use super::cores::{parse, CoreUsage, Ticks};
use crate::records::procfs::ProcFile;
use crate::sample::readings::{value_mut, Reader, Reading, Roots};

/// Enough for the `cpuN` lines of 256 cores, which come first; the rest may be cut.
const BUFFER_BYTES: usize = 32 << 10;

pub struct CoresReader {
    /// Its module's name as listed.
    key: String,
    file: ProcFile,
    buf: Vec<u8>,
    before: Vec<Option<Ticks>>,
    after: Vec<Option<Ticks>>,
}

impl CoresReader {
    pub fn new(key: &str, roots: &Roots) -> CoresReader {
        CoresReader {
            key: key.to_owned(),
            file: ProcFile::new(roots.proc.join("stat")),
            buf: vec![0; BUFFER_BYTES],
            before: Vec::new(),
            after: Vec::new(),
        }
    }
}

impl Reader for CoresReader {
    fn key(&self) -> &str {
        &self.key
    }

    fn empty(&self) -> Box<dyn Reading> {
        Box::new(CoreUsage::default())
    }

    fn read(&mut self, _now_ns: u64, out: &mut dyn Reading) {
        let Some(out) = value_mut::<CoreUsage>(out) else {
            return;
        };
        std::mem::swap(&mut self.before, &mut self.after);
        match self.file.read(&mut self.buf) {
            Some(stat) => parse(stat, &mut self.after),
            None => self.after.iter_mut().for_each(|ticks| *ticks = None),
        }
        out.set_between(&self.before, &self.after);
    }
}
