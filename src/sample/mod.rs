//! One whole sample: the process snapshot, the hardware sensors (pressure, swap and the
//! power profile among them), the settings it was taken with and what the user should
//! know about the bar itself. Every output renders from this one value: the bar's labels
//! and tooltips, `--once`, `--json` and `--waybar`.
//! The modules' own values travel in it too ([`readings`]). The sample is taken by
//! `app::sampler` on the thread of `app::worker`.

pub mod readings;

use crate::model::history::{History, Point};
use crate::model::{Hardware, OomKills, Snapshot};
pub use crate::records::Source;
use crate::sample::readings::Readings;

/// Something the user should know about the bar itself (a config error, the probe being
/// off): a `⚠` marker on the bar, a line above the tooltip's sections.
#[derive(Debug, PartialEq, Eq)]
pub struct Notice {
    /// A word or two: `config`, `BPF probe off`.
    pub title: String,
    pub detail: String,
}

impl Notice {
    pub fn new(title: &str, detail: impl Into<String>) -> Notice {
        Notice {
            title: title.to_owned(),
            detail: detail.into(),
        }
    }
}

/// `clone_from` reuses the target's buffers (see `Clone` below): once warm, copying a
/// sample from the sampling thread to the main loop allocates nothing.
#[derive(Debug, Default)]
pub struct Sample {
    pub processes: Snapshot,
    pub hardware: Hardware,
    pub source: Source,
    /// The interval the sampler runs at (what the user chose, not the measured one).
    pub interval_ms: u32,
    /// How long taking the sample took, in microseconds.
    pub sample_us: u32,
    /// Wall-clock time of the sample, ms since the Unix epoch.
    pub unix_ms: u64,
    pub notices: Vec<Notice>,
    /// The latest OOM kills the probe saw (none from /proc).
    pub oom_kills: OomKills,
    /// The last ten minutes, with their culprits; fixed in size.
    pub history: History,
    /// The readings of the layout's modules that have their own (see [`crate::sample::readings`]).
    pub readings: Readings,
}

impl Sample {
    /// Whether kernel threads are listed (they always count in the totals).
    pub fn kernel_threads(&self) -> bool {
        self.processes.kernel_threads
    }

    /// Adds this sample's figures to its history (it allocates nothing).
    pub fn record_history(&mut self) {
        let gpu = self.hardware.label_gpu();
        let busy = gpu.and_then(|gpu| gpu.reading.busy_percent.known());
        let user = gpu.and_then(|gpu| gpu.processes.rows().first());
        let point = Point::of(&self.processes, busy, user);
        let span_ns = self.processes.interval_ns;
        self.history.record(self.unix_ms, span_ns, &point);
    }
}

// By hand, not derived: a derived `clone_from` clones the whole value and then drops the
// old one, allocating. Destructured, so that a new field must be added here.
impl Clone for Notice {
    fn clone(&self) -> Self {
        Notice {
            title: self.title.clone(),
            detail: self.detail.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Notice { title, detail } = source;
        self.title.clone_from(title);
        self.detail.clone_from(detail);
    }
}

impl Clone for Sample {
    fn clone(&self) -> Self {
        let mut sample = Sample::default();
        sample.clone_from(self);
        sample
    }

    fn clone_from(&mut self, source: &Self) {
        let Sample {
            processes,
            hardware,
            source: from,
            interval_ms,
            sample_us,
            unix_ms,
            notices,
            oom_kills,
            history,
            readings,
        } = source;
        self.processes = *processes;
        self.hardware.clone_from(hardware);
        self.source = *from;
        self.interval_ms = *interval_ms;
        self.sample_us = *sample_us;
        self.unix_ms = *unix_ms;
        // Vec::clone_from calls Notice::clone_from on the elements both have.
        self.notices.clone_from(notices);
        self.oom_kills = *oom_kills;
        self.history.clone_from(history);
        self.readings.clone_from(readings);
    }
}

/// Which of the system readings that only the monitor's tooltip shows a sample takes:
/// swap traffic (/proc/vmstat, the most expensive file a tick read) and the platform
/// profile. The bar asks for them only while a monitor tooltip is open; the text outputs
/// (`--once`, `--json`, `--waybar`) want them all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Swap traffic and the platform profile: the tooltip.
    pub tooltip: bool,
}

impl Wanted {
    pub const ALL: Wanted = Wanted { tooltip: true };
    pub const NONE: Wanted = Wanted { tooltip: false };
}
