//! The bar's own code pages, given back once start-up is over. Start-up runs code from
//! all over the executable (the config's parsers, every module's defaults, GTK's set-up),
//! and the kernel maps each page touched together with its neighbours, so nearly all of
//! the executable's 4 MB stays mapped, though a tick runs a small part of it.
//! `MADV_DONTNEED` on its read-only mappings unmaps their pages from the bar: they stay in
//! the page cache, and whatever runs again is mapped again at its first touch (a minor
//! fault, from the cache). Only mappings of the executable that no one can write and that
//! hold no modified page are dropped: a page a debugger or a uprobe patched (made
//! private, anonymous) would lose its patch.

use std::ops::Range;

/// The address ranges of `exe`'s mappings in `smaps` (`/proc/self/smaps`) that may be
/// dropped: not writable, and without an anonymous (modified) page.
pub fn droppable(smaps: &str, exe: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    // The mapping being read: its range, if it is one of exe's read-only ones.
    let mut current: Option<Range<usize>> = None;
    let mut modified = false;
    let mut finish = |current: &mut Option<Range<usize>>, modified: bool| {
        if let (Some(range), false) = (current.take(), modified) {
            ranges.push(range);
        }
    };
    for line in smaps.lines() {
        if let Some(mapping) = mapping_of(line, exe) {
            finish(&mut current, modified);
            current = mapping;
            modified = false;
        } else if let Some(kib) = line.strip_prefix("Anonymous:") {
            modified |= kib.trim().trim_end_matches("kB").trim() != "0";
        }
    }
    finish(&mut current, modified);
    ranges
}

/// For a mapping's first line (`START-END PERMS OFFSET DEV INODE PATH`): `Some(range)` if
/// it is a read-only mapping of `exe`, `Some(None)` for any other mapping; `None` for a
/// line of fields.
fn mapping_of(line: &str, exe: &str) -> Option<Option<Range<usize>>> {
    let mut fields = line.split_ascii_whitespace();
    let (start, end) = fields.next()?.split_once('-')?;
    let start = usize::from_str_radix(start, 16).ok()?;
    let end = usize::from_str_radix(end, 16).ok()?;
    let perms = fields.next()?;
    // The path is the rest of the line: no field before it holds a '/'.
    let path = line.find('/').map_or("", |at| line[at..].trim_end());
    let ours = path == exe && perms.as_bytes().get(1) == Some(&b'-') && start < end;
    Some(ours.then_some(start..end))
}

/// Drops the executable's unmodified read-only pages from this process (see the module's
/// comment); returns the bytes of the mappings dropped. Any failure drops nothing more.
pub fn give_back() -> std::io::Result<usize> {
    let exe = std::fs::read_link("/proc/self/exe")?;
    let exe = exe.to_str().unwrap_or_default();
    let smaps = std::fs::read_to_string("/proc/self/smaps")?;
    let mut dropped = 0;
    for range in droppable(&smaps, exe) {
        let len = range.end - range.start;
        // SAFETY: the range is a whole mapping of the executable file that is read-only and
        // has no private (modified) page: its contents are the file's, which the kernel
        // maps again at the next touch. No Rust object lives in it (code and constants).
        unsafe {
            rustix::mm::madvise(
                range.start as *mut std::ffi::c_void,
                len,
                rustix::mm::Advice::LinuxDontNeed,
            )
        }?;
        dropped += len;
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMAPS: &str = "\
55d1c0000000-55d1c0183000 r--p 00000000 08:01 1234 /usr/bin/ringbar
Size:               1548 kB
Rss:                 960 kB
Anonymous:             0 kB
55d1c0183000-55d1c05bb000 r-xp 00182000 08:01 1234 /usr/bin/ringbar
Size:               4320 kB
Anonymous:             0 kB
55d1c05bb000-55d1c0606000 r--p 005b9000 08:01 1234 /usr/bin/ringbar
Size:                300 kB
Anonymous:           300 kB
55d1c0606000-55d1c0609000 rw-p 00603000 08:01 1234 /usr/bin/ringbar
Anonymous:            12 kB
7f0000000000-7f0000001000 r-xp 00000000 08:01 99 /usr/lib/libc.so.6
Anonymous:             0 kB
7f0000002000-7f0000003000 r-xp 00000000 08:01 1235 /usr/bin/ringbar-other
Anonymous:             0 kB
7f0000004000-7f0000005000 r-xp 00001000 08:01 1234 /usr/bin/ringbar
Anonymous:             4 kB
";

    #[test]
    fn only_the_executables_unmodified_read_only_mappings() {
        assert_eq!(
            droppable(SMAPS, "/usr/bin/ringbar"),
            [
                0x55d1c0000000..0x55d1c0183000,
                0x55d1c0183000..0x55d1c05bb000
            ],
            "not its relocated constants, data, other files, or a patched page"
        );
    }

    #[test]
    fn a_replaced_executable_and_garbage_drop_nothing() {
        let deleted = SMAPS.replace("/usr/bin/ringbar\n", "/usr/bin/ringbar (deleted)\n");
        assert!(droppable(&deleted, "/usr/bin/ringbar").is_empty());
        assert!(droppable("", "/usr/bin/ringbar").is_empty());
        assert!(droppable("zz-yy r-xp 0 0 0 /usr/bin/ringbar\n", "/usr/bin/ringbar").is_empty());
    }
}
