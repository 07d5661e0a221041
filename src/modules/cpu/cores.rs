//! Each core's busy share, for Waybar's `{usageN}` and `{iconN}`: the `cpuN` lines of
//! `/proc/stat`, two readings apart. Busy is user, nice, system, irq and softirq; the
//! whole adds idle, iowait and steal (guest time is already counted in user), as the
//! total's share counts them.

use serde_json::Value as Json;

use crate::sample::readings::{copy_same, Reading};

/// The kernel's own limit on core numbers (`NR_CPUS` at its largest): a number past it
/// is no core, and must not size the table.
const MAX_CORES: usize = 8192;

/// A core's cumulative (busy, whole) clock ticks, as `/proc/stat` counts them.
pub type Ticks = (u64, u64);

/// The busy share of each core over the last interval, in percent, by core number;
/// `None` for a core not online then (or before a second reading).
#[derive(Debug, Default, PartialEq)]
pub struct CoreUsage {
    pub percent: Vec<Option<f64>>,
}

// By hand: a derived `clone_from` clones whole and allocates.
impl Clone for CoreUsage {
    fn clone(&self) -> Self {
        CoreUsage {
            percent: self.percent.clone(),
        }
    }
    fn clone_from(&mut self, source: &Self) {
        self.percent.clone_from(&source.percent);
    }
}

impl CoreUsage {
    /// Core `n`'s busy share, if it was online for the last interval.
    pub fn of(&self, n: usize) -> Option<f64> {
        self.percent.get(n).copied().flatten()
    }

    /// The shares between two readings of [`parse`], by core number.
    pub fn set_between(&mut self, before: &[Option<Ticks>], after: &[Option<Ticks>]) {
        self.percent.clear();
        for (n, now) in after.iter().enumerate() {
            let then = before.get(n).copied().flatten();
            let share = match (then, *now) {
                (Some((busy0, all0)), Some((busy1, all1))) if all1 > all0 => {
                    let busy = busy1.saturating_sub(busy0) as f64;
                    Some((busy / (all1 - all0) as f64 * 100.0).clamp(0.0, 100.0))
                }
                _ => None,
            };
            self.percent.push(share);
        }
    }
}

impl Reading for CoreUsage {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(self.clone())
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    fn json(&self) -> Json {
        Json::from(self.percent.clone())
    }

    /// Beside the monitor's `cpu` object: `"cpu_cores": [12.5, 3.0, null]`.
    fn write_json(&self, key: &str, document: &mut serde_json::Map<String, Json>) {
        document.insert(format!("{key}_cores"), self.json());
    }
}

/// The ticks of each `cpuN` line of `/proc/stat` into `out`, by core number (a core not
/// listed, being offline, is `None`). Allocates only when a higher core number appears.
pub fn parse(stat: &[u8], out: &mut Vec<Option<Ticks>>) {
    out.iter_mut().for_each(|ticks| *ticks = None);
    let text = String::from_utf8_lossy(stat);
    for line in text.lines() {
        // `cpu` then the core's number: not the `cpu  …` line of all cores together.
        let Some(rest) = line
            .strip_prefix("cpu")
            .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        else {
            continue;
        };
        let mut words = rest.split_ascii_whitespace();
        let Some(n) = words
            .next()
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n < MAX_CORES)
        else {
            continue;
        };
        let mut field = [0u64; 8];
        let mut read = 0;
        for (slot, word) in field.iter_mut().zip(words) {
            match word.parse() {
                Ok(value) => *slot = value,
                Err(_) => break,
            }
            read += 1;
        }
        if read < 4 {
            continue;
        }
        let [user, nice, system, idle, iowait, irq, softirq, steal] = field;
        let busy = user + nice + system + irq + softirq;
        if out.len() <= n {
            out.resize(n + 1, None);
        }
        out[n] = Some((busy, busy + idle + iowait + steal));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_come_from_two_readings_by_core_number() {
        let first = b"cpu  500 0 500 1000 0 0 0 0 0 0\n\
                      cpu0 100 0 100 800 0 0 0 0 0 0\n\
                      cpu1 200 10 90 400 100 0 0 0 0 0\n\
                      cpu3 5 0 5 90 0 0 0 0 0 0\n\
                      intr 123 4 5\nctxt 99\n";
        // 1 s later: cpu0 half busy, cpu1 busy 80 of 100 ticks (irq counts; the 20 of
        // steal do not: no task ran in them), cpu3 went offline.
        let second = b"cpu  900 0 900 1400 0 0 0 0 0 0\n\
                       cpu0 130 0 120 850 0 0 0 0 0 0\n\
                       cpu1 250 10 90 400 100 20 10 20 0 0\n\
                       intr 130 4 5\n";
        let (mut before, mut after) = (Vec::new(), Vec::new());
        parse(first, &mut before);
        assert_eq!(before.len(), 4);
        assert_eq!(before[0], Some((200, 1000)));
        assert_eq!(before[1], Some((300, 800)));
        assert_eq!(before[2], None);
        parse(second, &mut after);
        let mut usage = CoreUsage::default();
        usage.set_between(&before, &after);
        assert_eq!(usage.of(0), Some(50.0));
        assert_eq!(usage.of(1), Some(80.0));
        assert_eq!(usage.of(2), None);
        assert_eq!(usage.of(3), None, "offline now");
        assert_eq!(usage.of(9), None);
    }

    #[test]
    fn a_garbled_or_cut_file_gives_what_it_can() {
        let mut ticks = vec![Some((1, 2)); 3];
        parse(
            b"cpu0 1 2\ncpuX 1 2 3 4\ncpu1 10 0 10 80\ncpu2 1 2 3 4 5 6 7 8 9 10 11 1",
            &mut ticks,
        );
        assert_eq!(
            ticks,
            [None, Some((20, 100)), Some((1 + 2 + 3 + 6 + 7, 36))]
        );
        let mut usage = CoreUsage::default();
        usage.set_between(&ticks, &ticks);
        assert_eq!(usage.percent, [None, None, None], "no time passed");
    }
}
