//! Takes the pressure reading: the three PSI files, kept open and re-read each tick.

use super::reading::{Pressure, Stall};
use crate::model::Value;
use crate::records::procfs::ProcFile;
use crate::sample::readings::{value_mut, Reader, Reading, Roots};

pub struct PressureReader {
    /// Its module's name as listed.
    key: String,
    /// cpu, memory, io; `None` where the kernel has no PSI (or it is disabled).
    files: [Option<ProcFile>; 3],
    buf: [u8; 256],
}

impl PressureReader {
    pub fn new(key: &str, roots: &Roots) -> PressureReader {
        let files = ["cpu", "memory", "io"].map(|name| {
            let path = roots.proc.join("pressure").join(name);
            path.exists().then(|| ProcFile::new(path))
        });
        PressureReader {
            key: key.to_owned(),
            files,
            buf: [0; 256],
        }
    }
}

impl Reader for PressureReader {
    fn key(&self) -> &str {
        &self.key
    }

    fn empty(&self) -> Box<dyn Reading> {
        Box::new(Pressure::default())
    }

    fn read(&mut self, _now_ns: u64, out: &mut dyn Reading) {
        let Some(out) = value_mut::<Pressure>(out) else {
            return;
        };
        let [cpu, memory, io] = &mut self.files;
        let buf = &mut self.buf;
        let mut stall = |file: &mut Option<ProcFile>| match file {
            None => Value::Absent,
            Some(file) => Value::read(file.read(buf).and_then(Stall::parse)),
        };
        *out = Pressure {
            cpu: stall(cpu),
            memory: stall(memory),
            io: stall(io),
        };
    }
}
