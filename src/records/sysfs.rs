//! Reading sysfs: a sensor file kept open and re-read with pread(2), with its values
//! checked, and the one-shot reads that discovery makes.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

pub use crate::model::hardware::parse_integer;
use crate::records::procfs::ProcFile;

/// Reads a sysfs file that holds one integer (`54000\n`); `None` if it is missing, empty
/// or not a number.
pub fn read_integer(path: &Path) -> Option<i64> {
    parse_integer(&std::fs::read(path).ok()?)
}

/// A sysfs file's text, trimmed; `None` if it is missing or not UTF-8.
pub fn read_text(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.trim().to_owned())
}

/// The entries of a directory, sorted so discovery is deterministic.
pub fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}

/// One sensor file kept open. Read errors and unparsable or implausible values are
/// logged once (until the file reads fine again) and come back as `None`.
#[derive(Debug)]
pub struct SensorFile {
    file: ProcFile,
    bad_value: bool,
}

impl SensorFile {
    pub fn open(path: PathBuf) -> SensorFile {
        SensorFile {
            file: ProcFile::new(path),
            bad_value: false,
        }
    }

    /// Opens `path` if it exists now.
    pub fn existing(path: PathBuf) -> Option<SensorFile> {
        path.exists().then(|| SensorFile::open(path))
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The file's integer divided by `divisor`, if it lies in `plausible`.
    pub fn read_scaled(&mut self, divisor: f64, plausible: RangeInclusive<f64>) -> Option<f64> {
        let mut buf = [0u8; 64];
        let text = self.file.read(&mut buf)?;
        let value = parse_integer(text)
            .map(|v| v as f64 / divisor)
            .filter(|v| plausible.contains(v));
        self.note(value.is_some(), text);
        value
    }

    /// The file's integer, if it is not negative.
    pub fn read_u64(&mut self) -> Option<u64> {
        let mut buf = [0u8; 64];
        let text = self.file.read(&mut buf)?;
        let value = parse_integer(text).and_then(|v| u64::try_from(v).ok());
        self.note(value.is_some(), text);
        value
    }

    /// The file's first line into `out` (cleared first); `false` if unreadable.
    pub fn read_line(&mut self, out: &mut String) -> bool {
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
