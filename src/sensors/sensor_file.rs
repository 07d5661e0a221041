//! One sensor file kept open and re-read with pread(2), with its values checked.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use super::parse_integer;
use crate::records::procfs::ProcFile;

/// One sensor file kept open. Read errors and unparsable or implausible values are
/// logged once (until the file reads fine again) and come back as `None`.
#[derive(Debug)]
pub(crate) struct SensorFile {
    file: ProcFile,
    bad_value: bool,
}

impl SensorFile {
    pub(crate) fn open(path: PathBuf) -> SensorFile {
        SensorFile {
            file: ProcFile::new(path),
            bad_value: false,
        }
    }

    /// Opens `path` if it exists now.
    pub(crate) fn existing(path: PathBuf) -> Option<SensorFile> {
        path.exists().then(|| SensorFile::open(path))
    }

    pub(crate) fn path(&self) -> &Path {
        self.file.path()
    }

    /// The file's integer divided by `divisor`, if it lies in `plausible`.
    pub(crate) fn read_scaled(
        &mut self,
        divisor: f64,
        plausible: RangeInclusive<f64>,
    ) -> Option<f64> {
        let mut buf = [0u8; 64];
        let text = self.file.read(&mut buf)?;
        let value = parse_integer(text)
            .map(|v| v as f64 / divisor)
            .filter(|v| plausible.contains(v));
        self.note(value.is_some(), text);
        value
    }

    /// The file's integer, if it is not negative.
    pub(crate) fn read_u64(&mut self) -> Option<u64> {
        let mut buf = [0u8; 64];
        let text = self.file.read(&mut buf)?;
        let value = parse_integer(text).and_then(|v| u64::try_from(v).ok());
        self.note(value.is_some(), text);
        value
    }

    /// The file's first line into `out` (cleared first); `false` if unreadable.
    pub(crate) fn read_line(&mut self, out: &mut String) -> bool {
        let mut buf = [0u8; 256];
        out.clear();
        let Some(text) = self.file.read(&mut buf) else {
            return false;
        };
        let line = std::str::from_utf8(text)
            .ok()
            .and_then(|t| t.lines().next())
            .map(str::trim)
            .filter(|l| !l.is_empty());
        if let Some(line) = line {
            out.push_str(line);
        }
        self.note(line.is_some(), text);
        line.is_some()
    }

    fn note(&mut self, good: bool, text: &[u8]) {
        if good {
            self.bad_value = false;
        } else if !self.bad_value {
            self.bad_value = true;
            tracing::warn!(
                "{}: unexpected value {:?}",
                self.path().display(),
                String::from_utf8_lossy(text).trim()
            );
        }
    }
}
