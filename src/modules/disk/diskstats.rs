//! `/proc/diskstats` (the kernel's Documentation/admin-guide/iostats.rst): one line per
//! block device, `major minor name` and then counters. The third counter is the sectors
//! read, the seventh the sectors written; a sector here is always 512 bytes, whatever the
//! device's own sector size.

pub const SECTOR_BYTES: u64 = 512;

/// One line's device name and its (sectors read, sectors written).
pub fn parse_line(line: &[u8]) -> Option<(&[u8], u64, u64)> {
    let mut fields = line
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|f| !f.is_empty());
    let name = fields.nth(2)?;
    let read = number(fields.nth(2)?)?;
    let written = number(fields.nth(3)?)?;
    Some((name, read, written))
}

fn number(field: &[u8]) -> Option<u64> {
    std::str::from_utf8(field).ok()?.parse().ok()
}

/// Whether a device is one the module shows unless `devices` names others: memory-backed
/// and loop devices are not storage of their own. (Partitions are left out by the
/// caller, which knows them by their missing `/sys/block` entry.)
pub fn is_storage(name: &[u8]) -> bool {
    !(name.starts_with(b"loop") || name.starts_with(b"ram") || name.starts_with(b"zram"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sectors_of_a_line() {
        let line = b" 254       0 vda 1225297 50010 51835170 2961547 260650 198161 210399944 1253688 0 174152 4261753 154245 71 182432272 45657 26270 860";
        assert_eq!(
            parse_line(line),
            Some((&b"vda"[..], 51_835_170, 210_399_944))
        );
        // The oldest format (kernels before 4.18) has 11 counters: still enough.
        let old = b"   8       0 sda 10 0 80 5 20 0 160 9 0 14 14";
        assert_eq!(parse_line(old), Some((&b"sda"[..], 80, 160)));
        assert_eq!(parse_line(b"8 0 sda 1 2"), None);
        assert_eq!(parse_line(b"8 0 sda 1 2 x 4 5 6 7"), None);
        assert!(is_storage(b"nvme0n1") && !is_storage(b"loop3") && !is_storage(b"zram0"));
    }
}
