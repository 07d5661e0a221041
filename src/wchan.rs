//! The wait channel of each D row shown: `/proc/TGID/task/TID/wchan` of the thread stuck
//! longest, read for the few rows of the stuck list only. The read is the bar's own, so
//! /proc's rules apply: the kernel names the function only to a reader that may ptrace
//! the task (`0` otherwise, and for a task that runs), and hidepid hides it. Reading uses
//! a path and a buffer on the stack: a sample allocates nothing for it.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::model::app::Label;
use crate::model::StuckList;

/// Names the wait channel of every D row (zombie rows have no thread to ask).
pub fn fill(stuck: &mut StuckList) {
    for row in stuck.rows_mut().iter_mut().filter(|r| r.blocked_tid != 0) {
        row.wchan = read(row.tgid, row.blocked_tid).unwrap_or_default();
    }
}

fn read(tgid: u32, tid: u32) -> Option<Label> {
    let mut path = [0u8; 48];
    let len = {
        let mut cursor = &mut path[..];
        write!(cursor, "/proc/{tgid}/task/{tid}/wchan").ok()?;
        48 - cursor.len()
    };
    let mut file = File::open(Path::new(std::ffi::OsStr::from_bytes(&path[..len]))).ok()?;
    let mut buf = [0u8; 64];
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    let symbol = buf[..filled].trim_ascii();
    (!symbol.is_empty() && symbol != b"0").then(|| Label::new(symbol))
}
