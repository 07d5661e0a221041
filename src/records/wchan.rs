//! The wait channel of each D row shown: `/proc/TGID/task/TID/wchan` of the thread stuck
//! longest, read for the few rows of the stuck list only. The read is the bar's own, so
//! /proc's rules apply: the kernel names the function only to a reader that may ptrace
//! the task (`0` otherwise, and for a task that runs), and hidepid hides it. Reading uses
//! a path and a buffer on the stack: a sample allocates nothing for it.

use std::fs::File;

use crate::model::app::Label;
use crate::model::StuckList;
use crate::records::procfs::{read_whole, stack_path};

/// Names the wait channel of every D row (zombie rows have no thread to ask).
pub fn fill(stuck: &mut StuckList) {
    for row in stuck.rows_mut().iter_mut().filter(|r| r.blocked_tid != 0) {
        row.wchan = read(row.tgid, row.blocked_tid).unwrap_or_default();
    }
}

fn read(tgid: u32, tid: u32) -> Option<Label> {
    let mut path = [0u8; 48];
    let path = stack_path(&mut path, format_args!("/proc/{tgid}/task/{tid}/wchan"))?;
    let file = File::open(path).ok()?;
    let mut buf = [0u8; 64];
    let filled = read_whole(&file, &mut buf).ok()?;
    let symbol = buf[..filled].trim_ascii();
    (!symbol.is_empty() && symbol != b"0").then(|| Label::new(symbol))
}
