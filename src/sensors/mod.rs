//! Hardware sensors, discovered once under a sysfs root and re-read with pread(2) each
//! tick. Every reader takes the root, so tests run against fake trees.

pub mod cpu;

use std::path::Path;

/// Reads a sysfs file that holds one integer (`54000\n`); `None` if it is missing, empty
/// or not a number.
pub fn read_integer(path: &Path) -> Option<i64> {
    parse_integer(&std::fs::read(path).ok()?)
}

pub fn parse_integer(text: &[u8]) -> Option<i64> {
    std::str::from_utf8(text).ok()?.trim().parse().ok()
}

/// A sysfs file's text, trimmed; `None` if it is missing or not UTF-8.
pub fn read_text(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.trim().to_owned())
}
