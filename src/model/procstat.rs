//! Parsers for the per-process procfs files the fallback collector reads when the probe
//! cannot load: `/proc/PID/stat`, `statm` and `io`, and the `cpu` line of `/proc/stat`.

use super::record::COMM_LEN;

/// `PF_KTHREAD` in `/proc/PID/stat`'s flags field.
const PF_KTHREAD: u32 = 0x0020_0000;

/// The fields of `/proc/PID/stat` the collector uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProcStat {
    /// The name, cut to the kernel's 15 bytes, NUL-padded.
    pub comm: [u8; COMM_LEN],
    /// `task_state_index()`: 0 R, 1 S, 2 D, 3 T, 4 t, 5 X, 6 Z, 7 P, 8 I.
    pub state: u32,
    pub kernel_thread: bool,
    /// utime + stime of the whole thread group, in clock ticks.
    pub cpu_ticks: u64,
    pub threads: u32,
    /// Start time in clock ticks since boot.
    pub start_ticks: u64,
    /// Whether the reader may ptrace-read the process (the check behind `hidepid` and
    /// `/proc/PID/io`), as the kernel judged it when it wrote this text: `startcode`
    /// (field 26) reads 1 when not. `None` without an address space (kernel threads,
    /// zombies, exiting processes), which shows 0 either way.
    pub permitted: Option<bool>,
}

impl ProcStat {
    /// Parses `pid (comm) S ppid …`. The name may hold spaces and parentheses, so it
    /// ends at the *last* `)`.
    pub fn parse(text: &[u8]) -> Option<ProcStat> {
        let open = text.iter().position(|&b| b == b'(')?;
        let close = text.iter().rposition(|&b| b == b')')?;
        let name = text.get(open + 1..close)?;
        let mut comm = [0u8; COMM_LEN];
        let len = name.len().min(COMM_LEN - 1);
        comm[..len].copy_from_slice(&name[..len]);

        let rest = std::str::from_utf8(text.get(close + 1..)?).ok()?;
        // Fields numbered as in proc(5): 3 is the state.
        let mut fields = rest.split_ascii_whitespace();
        let state = match fields.next()? {
            "R" => 0,
            "S" => 1,
            "D" => 2,
            "T" => 3,
            "t" => 4,
            "X" | "x" => 5,
            "Z" => 6,
            "P" => 7,
            "I" => 8,
            // A state letter from a newer kernel: not one the bar flags.
            other if other.len() == 1 => 1,
            _ => return None,
        };
        let mut number = |skip: usize| -> Option<u64> { fields.nth(skip)?.parse().ok() };
        let flags = number(5)?; // field 9
        let utime = number(4)?; // field 14
        let stime = number(0)?; // 15
        let threads = number(4)?; // 20
        let start_ticks = number(1)?; // 22
                                      // Older texts (and test fixtures) may end earlier: then nothing is known.
        let permitted = match number(3) {
            // 26; a real start of code is a page-aligned user address, never 1.
            Some(0) | None => None,
            Some(1) => Some(false),
            Some(_) => Some(true),
        };
        Some(ProcStat {
            comm,
            state,
            kernel_thread: flags & u64::from(PF_KTHREAD) != 0,
            cpu_ticks: utime.checked_add(stime)?,
            threads: u32::try_from(threads).ok()?,
            start_ticks,
            permitted,
        })
    }
}

/// `/proc/PID/statm`: the resident set in pages (the second field).
pub fn parse_statm_resident(text: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(text).ok()?;
    text.split_ascii_whitespace().nth(1)?.parse().ok()
}

/// `/proc/PID/io`: bytes the process caused to be read from and written to storage.
pub fn parse_io(text: &[u8]) -> Option<(u64, u64)> {
    let text = std::str::from_utf8(text).ok()?;
    let (mut read, mut write) = (None, None);
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let slot = match key {
            "read_bytes" => &mut read,
            "write_bytes" => &mut write,
            _ => continue,
        };
        *slot = value.trim().parse().ok();
    }
    Some((read?, write?))
}

/// The `cpu` line of `/proc/stat`: clock ticks spent busy (user, nice, system, irq,
/// softirq; guest time is already in user) and in total, over all CPUs. Steal (time the
/// hypervisor gave to others) is in the total, not busy: no task ran in it, so the
/// probe's sum over tasks leaves it out too, and the two sources give one number.
pub fn parse_cpu_ticks(text: &[u8]) -> Option<(u64, u64)> {
    let text = std::str::from_utf8(text).ok()?;
    let line = text.lines().next()?.strip_prefix("cpu ")?;
    let mut values = [0u64; 8];
    let mut fields = line.split_ascii_whitespace();
    for value in &mut values {
        *value = fields.next()?.parse().ok()?;
    }
    let not_busy = values[3].checked_add(values[4])?.checked_add(values[7])?;
    let total = values.iter().try_fold(0u64, |sum, &v| sum.checked_add(v))?;
    Some((total - not_busy, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_with_a_hostile_name() {
        let text = b"4242 (a) b (c)) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0 98765 1000 200 18446744073709551615\n";
        let stat = ProcStat::parse(text).expect("parses");
        assert_eq!(&stat.comm[..10], b"a) b (c)\0\0");
        assert_eq!(stat.state, 0);
        assert!(!stat.kernel_thread);
        assert_eq!(stat.cpu_ticks, 300);
        assert_eq!(stat.threads, 3);
        assert_eq!(stat.start_ticks, 98765);
        assert_eq!(stat.permitted, None, "the text ends before startcode");
    }

    #[test]
    fn stat_tells_whether_the_reader_was_permitted() {
        // Fields 23 to 26: vsize, rss, rsslim, startcode.
        let line = |startcode: &str| {
            format!("5 (p) S 1 5 5 0 -1 4194560 0 0 0 0 7 3 0 0 20 0 1 0 42 9000 25 100 {startcode} 2 0 0 0\n")
        };
        let stat = |startcode| ProcStat::parse(line(startcode).as_bytes()).expect("parses");
        assert_eq!(stat("94558223065088").permitted, Some(true));
        assert_eq!(stat("1").permitted, Some(false));
        assert_eq!(stat("0").permitted, None, "no address space");
        // The numbers the walk uses do not depend on it.
        let (a, b) = (stat("94558223065088"), stat("1"));
        assert_eq!(
            (a.cpu_ticks, a.start_ticks, a.threads, a.comm),
            (b.cpu_ticks, b.start_ticks, b.threads, b.comm)
        );
        assert_eq!((a.cpu_ticks, a.start_ticks), (10, 42));
    }

    #[test]
    fn stat_of_a_kernel_thread_zombie_and_long_names() {
        let kthread = b"2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 7 0 0 20 0 1 0 1 0 0\n";
        let stat = ProcStat::parse(kthread).expect("parses");
        assert!(stat.kernel_thread);
        assert_eq!(stat.state, 1);
        let zombie = b"77 (sh) Z 1 77 77 0 -1 4227148 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0\n";
        assert_eq!(ProcStat::parse(zombie).map(|s| s.state), Some(6));
        // Newer kernels show kernel-thread names longer than 15 bytes: cut like comm.
        let long = b"9 (kworker/u8:0-events_unbound) I 2 0 0 0 -1 69238880 0 0 0 0 0 3 0 0 20 0 1 0 9 0 0\n";
        let stat = ProcStat::parse(long).expect("parses");
        assert_eq!(&stat.comm, b"kworker/u8:0-ev\0");
        assert_eq!(stat.state, 8);
    }

    #[test]
    fn stat_garbage_is_none() {
        for text in [
            &b""[..],
            b"12 (x",
            b"12 x) R",
            b"12 (x) QQ 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
            b"12 (x) R 1 2",
            b"12 (x) R 1 2 3 4 5 notanumber 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
            b"12 (x) R 1 2 3 4 5 6 7 8 9 10 18446744073709551615 1 13 14 15 16 17 18 19 20",
            b"\xff (x) \xfe",
        ] {
            assert_eq!(
                ProcStat::parse(text),
                None,
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn statm_io_and_proc_stat() {
        assert_eq!(
            parse_statm_resident(b"10470 2412 1623 233 0 1046 0\n"),
            Some(2412)
        );
        assert_eq!(parse_statm_resident(b"10470\n"), None);
        let io = b"rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n";
        assert_eq!(parse_io(io), Some((4096, 8192)));
        assert_eq!(parse_io(b"read_bytes: 1\n"), None);
        assert_eq!(parse_io(b"read_bytes: -1\nwrite_bytes: 2\n"), None);
        let stat = b"cpu  100 5 50 1000 20 3 2 1 0 0\ncpu0 50 2 25 500 10 1 1 0 0 0\n";
        // Steal (1) is not busy.
        assert_eq!(parse_cpu_ticks(stat), Some((160, 1181)));
        assert_eq!(parse_cpu_ticks(b"cpu0 1 2 3 4 5 6 7 8\n"), None);
        assert_eq!(parse_cpu_ticks(b"cpu  1 2 3\n"), None);
    }
}
