//! Whole-system figures parsed from procfs text: memory and load averages.

/// `/proc/meminfo`, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    pub total: u64,
    pub available: u64,
    pub swap_total: u64,
    pub swap_free: u64,
}

impl Memory {
    /// What `free` calls used: everything not available to new allocations.
    pub fn used(&self) -> u64 {
        self.total.saturating_sub(self.available)
    }

    pub fn swap_used(&self) -> u64 {
        self.swap_total.saturating_sub(self.swap_free)
    }

    /// Parses the text of `/proc/meminfo`; `None` unless it has MemTotal and MemAvailable.
    pub fn parse(text: &[u8]) -> Option<Memory> {
        let (mut total, mut available) = (None, None);
        let mut memory = Memory::default();
        for line in text.split(|&b| b == b'\n') {
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                continue;
            };
            let (key, rest) = (&line[..colon], &line[colon + 1..]);
            let slot = match key {
                b"MemTotal" => &mut total,
                b"MemAvailable" => &mut available,
                b"SwapTotal" => {
                    memory.swap_total = parse_kib(rest).unwrap_or(0);
                    continue;
                }
                b"SwapFree" => {
                    memory.swap_free = parse_kib(rest).unwrap_or(0);
                    continue;
                }
                _ => continue,
            };
            *slot = parse_kib(rest);
        }
        memory.total = total?;
        memory.available = available?.min(memory.total);
        memory.swap_free = memory.swap_free.min(memory.swap_total);
        Some(memory)
    }
}

/// "   24577656 kB" → bytes.
fn parse_kib(field: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(field).ok()?;
    let mut words = text.split_ascii_whitespace();
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => value.checked_mul(1024),
        None => Some(value),
        Some(_) => None,
    }
}

/// `/proc/loadavg`: the 1, 5 and 15 minute load averages.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoadAverage(pub [f32; 3]);

impl LoadAverage {
    pub fn parse(text: &[u8]) -> Option<LoadAverage> {
        let text = std::str::from_utf8(text).ok()?;
        let mut words = text.split_ascii_whitespace();
        let mut load = [0f32; 3];
        for slot in &mut load {
            let value: f32 = words.next()?.parse().ok()?;
            if !value.is_finite() || value < 0.0 {
                return None;
            }
            *slot = value;
        }
        Some(LoadAverage(load))
    }
}

/// The last two fields of `/proc/loadavg`: the tasks (threads) on the machine and the
/// last pid handed out in the reader's PID namespace (`0.00 0.01 0.05 1/123 4567`:
/// `(123, 4567)`).
pub fn tasks_and_last_pid(text: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(text).ok()?;
    let mut words = text.split_ascii_whitespace().skip(3);
    let (_, tasks) = words.next()?.split_once('/')?;
    Some((tasks.parse().ok()?, words.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &[u8] = b"MemTotal:       24577656 kB\nMemFree:        23000000 kB\n\
MemAvailable:   23456789 kB\nBuffers:            1234 kB\nSwapTotal:       2097148 kB\nSwapFree:        1048574 kB\n";

    #[test]
    fn the_task_count_and_last_pid_of_loadavg() {
        let parse = tasks_and_last_pid;
        assert_eq!(parse(b"0.00 0.01 0.05 1/123 4567\n"), Some((123, 4567)));
        assert_eq!(parse(b"0.00 0.01 0.05\n"), None);
        assert_eq!(parse(b"0.00 0.01 0.05 1-123 4567"), None);
        assert_eq!(parse(b"0.00 0.01 0.05 1/123"), None);
        assert_eq!(parse(b"0.00 0.01 0.05 1/x 4567"), None);
    }

    #[test]
    fn memory_used_is_total_minus_available() {
        let m = Memory::parse(MEMINFO).expect("parses");
        assert_eq!(m.total, 24577656 * 1024);
        assert_eq!(m.used(), (24577656 - 23456789) * 1024);
        assert_eq!(m.swap_used(), (2097148 - 1048574) * 1024);
    }

    #[test]
    fn memory_needs_total_and_available() {
        assert_eq!(Memory::parse(b"MemTotal: 10 kB\n"), None);
        assert_eq!(Memory::parse(b""), None);
        assert_eq!(Memory::parse(b"MemTotal: x kB\nMemAvailable: 1 kB\n"), None);
        assert_eq!(Memory::parse(&[0xff, b':', 0xfe]), None);
    }

    #[test]
    fn absurd_available_never_exceeds_total() {
        let m = Memory::parse(b"MemTotal: 10 kB\nMemAvailable: 99 kB\n").expect("parses");
        assert_eq!(m.used(), 0);
    }

    #[test]
    fn load_averages() {
        let load = LoadAverage::parse(b"0.52 1.00 12.25 2/345 6789\n").expect("parses");
        assert_eq!(load.0, [0.52, 1.0, 12.25]);
        assert_eq!(LoadAverage::parse(b"0.5 nan 1"), None);
        assert_eq!(LoadAverage::parse(b"0.5"), None);
    }
}
