//! The last ten minutes: CPU, memory, IO, network and GPU per second, each with the
//! process that used the most of it, in a ring of fixed size.
//!
//! The ring holds one bucket per wall-clock second, [`SECONDS`] of them, whatever the
//! sample interval: a sample folds into the buckets its interval covers, so a 2 s sample
//! fills two buckets and ten 100 ms samples fold into one. A bucket keeps the highest
//! value each metric reached in it and the culprit of that value, so a peak is never
//! averaged away. Changing the interval changes nothing in the ring; seconds without a
//! sample (the machine was suspended, the clock jumped) are gaps.
//!
//! Memory: [`History::BYTES`] (47,312 bytes: 72 a second and 4 KiB of culprit names, see
//! `history/names.rs`), allocated once when the history is made; recording and reading
//! allocate nothing.

use names::{Kept, Names};
pub use point::{Culprit, Metric, Point};

/// How many seconds the ring covers: ten minutes.
pub const SECONDS: usize = 600;

/// How many metrics it follows ([`Metric::ALL`]).
pub const METRICS: usize = 5;

/// One second of the ring: each metric's highest value and its culprit.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    /// The Unix second this bucket holds; `u64::MAX` for never filled.
    second: u64,
    values: [f32; METRICS],
    culprits: [Kept; METRICS],
}

impl Bucket {
    const fn empty(second: u64) -> Bucket {
        Bucket {
            second,
            values: [f32::NAN; METRICS],
            culprits: [Kept::NONE; METRICS],
        }
    }
}

const EMPTY: Bucket = Bucket::empty(u64::MAX);

/// The highest value of a metric in the ring, when and whose it was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Peak {
    pub value: f32,
    /// The Unix second of the bucket.
    pub unix_s: u64,
    pub culprit: Culprit,
}

/// The ring. See the module's documentation. `clone_from` copies into the existing ring
/// (see `clone.rs`).
pub struct History {
    buckets: Box<[Bucket; SECONDS]>,
    names: Box<Names>,
    /// The newest second recorded, `None` before the first sample.
    latest: Option<u64>,
    /// The first second recorded since the ring was made or cleared: nothing older is
    /// looked at, so a young history is cheap to read.
    since: u64,
    /// The local time zone's offset from UTC at the latest sample, for showing times.
    pub utc_offset_s: i32,
}

impl Default for History {
    fn default() -> Self {
        History {
            buckets: Box::new([EMPTY; SECONDS]),
            names: Box::default(),
            latest: None,
            since: 0,
            utc_offset_s: 0,
        }
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("latest", &self.latest)
            .field("filled", &self.filled())
            .finish()
    }
}

// The ring stays small whatever a bucket gains.
const _: () = assert!(History::BYTES <= 64 * 1024);

/// A clock that goes back by more than this many seconds starts the history afresh;
/// less is folded into the newest second.
const BACKWARD_SLACK_S: u64 = 2;

impl History {
    /// The ring's memory, fixed at compile time.
    pub const BYTES: usize =
        std::mem::size_of::<[Bucket; SECONDS]>() + std::mem::size_of::<Names>();

    /// Records a sample taken at `unix_ms` that measured the `span_ns` before it.
    pub fn record(&mut self, unix_ms: u64, span_ns: u64, point: &Point) {
        let mut now = unix_ms / 1000;
        match self.latest {
            Some(latest) if now < latest => {
                if latest - now > BACKWARD_SLACK_S {
                    self.clear();
                } else {
                    now = latest;
                }
            }
            _ => {}
        }
        // The seconds the sample's interval overlaps, but none the previous sample
        // already covered and no more than the ring holds.
        let span_s = span_ns.div_ceil(1_000_000_000).saturating_sub(1);
        let mut first = now.saturating_sub(span_s);
        if let Some(latest) = self.latest {
            first = if latest < now {
                first.max(latest + 1)
            } else {
                now
            };
        }
        first = first.max(now.saturating_sub(SECONDS as u64 - 1));
        for second in first..=now {
            self.fold(second, point);
        }
        if self.latest.is_none() {
            self.since = first;
        }
        self.latest = Some(self.latest.map_or(now, |l| l.max(now)));
    }

    fn fold(&mut self, second: u64, point: &Point) {
        let index = (second % SECONDS as u64) as usize;
        if self.buckets[index].second != second {
            self.buckets[index] = Bucket::empty(second);
        }
        for i in 0..METRICS {
            let (new, old) = (point.values[i], self.buckets[index].values[i]);
            // NaN never wins, and loses to any number.
            if new >= old || old.is_nan() && !new.is_nan() {
                let kept = self.keep(&point.culprits[i]);
                let bucket = &mut self.buckets[index];
                bucket.values[i] = new;
                bucket.culprits[i] = kept;
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(EMPTY);
        self.names.clear();
        self.latest = None;
        self.since = 0;
    }

    /// The newest second recorded.
    pub fn latest(&self) -> Option<u64> {
        self.latest
    }

    /// The bucket of `second`, if the ring still holds it.
    fn bucket(&self, second: u64) -> Option<&Bucket> {
        let bucket = &self.buckets[(second % SECONDS as u64) as usize];
        (bucket.second == second).then_some(bucket)
    }

    /// The last `SECONDS` seconds, oldest first, ending at the newest: each second's
    /// value of `metric`, `None` for a gap.
    pub fn values(&self, metric: Metric) -> impl DoubleEndedIterator<Item = Option<f32>> + '_ {
        let latest = self.latest.unwrap_or(0);
        let start = latest.saturating_sub(SECONDS as u64 - 1);
        let seconds = if self.latest.is_some() {
            start..latest + 1
        } else {
            0..0
        };
        seconds.map(move |second| {
            self.bucket(second)
                .map(|b| b.values[metric.index()])
                .filter(|v| !v.is_nan())
        })
    }

    /// How many seconds of the ring hold a value of `metric`.
    pub fn count(&self, metric: Metric) -> usize {
        self.values(metric).flatten().count()
    }

    /// Whether any second of the ring holds a value of `metric`.
    pub fn has_values(&self, metric: Metric) -> bool {
        self.values(metric).rev().any(|v| v.is_some())
    }

    /// How many seconds of the ring hold a sample.
    pub fn filled(&self) -> usize {
        let Some(latest) = self.latest else {
            return 0;
        };
        let start = latest.saturating_sub(SECONDS as u64 - 1);
        (start..=latest)
            .filter(|&s| self.bucket(s).is_some())
            .count()
    }

    /// The first second of the span [`History::values`] walks.
    pub fn first_second(&self) -> Option<u64> {
        self.latest
            .map(|latest| latest.saturating_sub(SECONDS as u64 - 1))
    }

    /// The highest value of `metric` in the ring; of equal ones, the most recent.
    pub fn peak(&self, metric: Metric) -> Option<Peak> {
        let latest = self.latest?;
        let start = self.start(latest);
        let mut best: Option<Peak> = None;
        for second in start..=latest {
            let Some(bucket) = self.bucket(second) else {
                continue;
            };
            let value = bucket.values[metric.index()];
            if value.is_nan() || best.is_some_and(|b| b.value > value) {
                continue;
            }
            best = Some(Peak {
                value,
                unix_s: second,
                culprit: self.culprit(bucket.culprits[metric.index()]),
            });
        }
        best
    }

    /// The oldest second that holds a sample.
    pub fn oldest(&self) -> Option<u64> {
        let latest = self.latest?;
        (self.start(latest)..=latest).find(|&s| self.bucket(s).is_some())
    }

    /// Where reading starts: ten minutes before `latest`, or the first second recorded.
    fn start(&self, latest: u64) -> u64 {
        latest.saturating_sub(SECONDS as u64 - 1).max(self.since)
    }

    /// Shrinks the seconds from the oldest sample (at most `within_s` back) to the newest
    /// into `out`'s columns, each the highest value of its seconds (`None` for a gap); one
    /// column per second when they fit. Returns the columns written and the seconds spanned.
    pub fn downsample(
        &self,
        metric: Metric,
        within_s: u64,
        out: &mut [Option<f32>],
    ) -> (usize, u64) {
        let (Some(oldest), Some(latest)) = (self.oldest(), self.latest) else {
            return (0, 0);
        };
        let oldest = oldest.max(latest.saturating_sub(within_s.max(1) - 1));
        let span = latest - oldest + 1;
        let columns = (out.len() as u64).min(span);
        for (c, column) in out.iter_mut().take(columns as usize).enumerate() {
            let c = c as u64;
            let (from, to) = (
                oldest + c * span / columns,
                oldest + (c + 1) * span / columns,
            );
            *column = (from..to)
                .filter_map(|s| self.bucket(s))
                .map(|b| b.values[metric.index()])
                .filter(|v| !v.is_nan())
                .reduce(f32::max);
        }
        (columns as usize, span)
    }

    /// The newest value of `metric`.
    pub fn last(&self, metric: Metric) -> Option<f32> {
        self.latest
            .and_then(|l| self.bucket(l))
            .map(|b| b.values[metric.index()])
            .filter(|v| !v.is_nan())
    }
}

mod clone;
mod names;
mod point;
#[cfg(test)]
mod tests;
