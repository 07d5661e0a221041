//! `/proc/self/mountinfo` (proc(5)): which configured paths are mount points, and of what.
//! A line: `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw`; the
//! fifth field is the mount point, with space, tab, newline and backslash written as
//! octal escapes (`\040`), and the two fields after the `-` are the filesystem type and
//! the source.

/// One mount point as the mount table lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mount_point: String,
    pub filesystem: String,
    pub source: String,
}

/// The entry mounted at `path`: the last one listed, since a later mount on the same
/// point hides the earlier ones. `None` when nothing is mounted there.
pub fn find(mountinfo: &str, path: &str) -> Option<Entry> {
    mountinfo
        .lines()
        .rev()
        .filter_map(parse_line)
        .find(|entry| entry.mount_point == path)
}

fn parse_line(line: &str) -> Option<Entry> {
    let mut fields = line.split(' ');
    let mount_point = unescape(fields.nth(4)?);
    // Optional fields (`shared:1`), then the separator.
    fields.find(|field| *field == "-")?;
    let filesystem = unescape(fields.next()?);
    let source = unescape(fields.next()?);
    Some(Entry {
        mount_point,
        filesystem,
        source,
    })
}

/// Undoes the kernel's `\ooo` escapes; anything else is kept as written.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|digits| bytes[i] == b'\\' && digits.iter().all(|d| (b'0'..=b'7').contains(d)));
        match octal {
            Some(digits) => {
                let value = digits.iter().fold(0u32, |v, d| v * 8 + u32::from(d - b'0'));
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "\
22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw
23 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw
40 22 7:0 / /mnt/my\\040disk rw,relatime - vfat /dev/loop0 rw,fmask=0022
41 22 0:40 / /home rw shared:20 master:3 - btrfs /dev/mapper/home rw
42 41 0:41 / /home rw - tmpfs tmpfs rw
";

    #[test]
    fn the_last_mount_on_a_point_wins_and_escapes_are_undone() {
        let root = find(TABLE, "/").expect("/");
        assert_eq!(
            (root.filesystem.as_str(), root.source.as_str()),
            ("ext4", "/dev/vda1")
        );
        let spaced = find(TABLE, "/mnt/my disk").expect("escaped");
        assert_eq!(spaced.filesystem, "vfat");
        assert_eq!(find(TABLE, "/home").expect("/home").filesystem, "tmpfs");
        assert_eq!(find(TABLE, "/mnt"), None, "a directory, not a mount point");
        assert_eq!(find("garbage\n\n1 2 3\n", "/"), None);
        assert_eq!(unescape("a\\134b\\04"), "a\\b\\04");
    }
}
