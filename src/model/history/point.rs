//! What one sample gives the history: a value per metric, and whose it was.

use super::METRICS;
use crate::model::app::Label;
use crate::model::gpu_process::GpuProcess;
use crate::model::snapshot::Snapshot;
use crate::model::top::Row;

/// What the history follows, in the tooltip's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Busy share of all CPUs, percent; culprit: the top process by CPU.
    Cpu,
    /// Memory used, percent of the total; culprit: the top process by resident memory.
    Memory,
    /// Bytes read plus written per second; culprit: the top process by IO.
    Io,
    /// Bytes received plus sent per second by processes (the machine's own traffic as
    /// `[network] include_loopback` says); culprit: the top process by network bytes.
    Net,
    /// Busy share of the bar's GPU, percent; culprit: the busiest process of its users
    /// list, where the driver shows per-process use (DRM fdinfo, NVML).
    Gpu,
}

impl Metric {
    pub const ALL: [Metric; METRICS] = [
        Metric::Cpu,
        Metric::Memory,
        Metric::Io,
        Metric::Net,
        Metric::Gpu,
    ];

    pub(super) fn index(self) -> usize {
        self as usize
    }

    /// The JSON key and CSS class.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Cpu => "cpu",
            Metric::Memory => "memory",
            Metric::Io => "io",
            Metric::Net => "network",
            Metric::Gpu => "gpu",
        }
    }

    /// Whether the values are shares of 0–100 (a fixed scale) rather than rates.
    pub fn is_percent(self) -> bool {
        !matches!(self, Metric::Io | Metric::Net)
    }
}

/// The process behind a value: its PID and the name its list row showed (its real name,
/// or its app's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Culprit {
    /// 0 for none.
    pub pid: u32,
    pub name: Label,
}

impl Culprit {
    pub const NONE: Culprit = Culprit {
        pid: 0,
        name: Label::EMPTY,
    };

    fn of(row: Option<&Row>) -> Culprit {
        row.map_or(Culprit::NONE, |row| Culprit {
            pid: row.tgid,
            name: Label::new(row.name()),
        })
    }

    /// The busiest user of a GPU, if it used any of it.
    fn of_gpu(user: Option<&GpuProcess>) -> Culprit {
        match user.filter(|u| u.busy_percent.is_some_and(|busy| busy > 0.0)) {
            Some(user) => Culprit {
                pid: user.pid,
                name: Label::new(user.name()),
            },
            None => Culprit::NONE,
        }
    }

    pub fn is_none(&self) -> bool {
        self.pid == 0
    }
}

/// One sample's values, `NaN` where it has none (no rates yet, no GPU).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub values: [f32; METRICS],
    pub culprits: [Culprit; METRICS],
}

impl Point {
    /// The point of a sample: its process figures, and the busy share of the bar's GPU
    /// with its busiest user.
    pub fn of(
        snapshot: &Snapshot,
        gpu_percent: Option<f64>,
        gpu_user: Option<&GpuProcess>,
    ) -> Point {
        let memory = snapshot
            .memory
            .filter(|m| m.total > 0)
            .map(|m| m.used() as f64 * 100.0 / m.total as f64);
        let io = snapshot
            .has_rates()
            .then(|| snapshot.per_second(snapshot.read_bytes + snapshot.write_bytes));
        let (received, sent) = snapshot.net_shown();
        let net = snapshot
            .has_rates()
            .then(|| snapshot.per_second(received.saturating_add(sent)));
        let value = |v: Option<f64>| v.map_or(f32::NAN, |v| v as f32);
        Point {
            values: [
                value(snapshot.cpu_percent()),
                value(memory),
                value(io),
                value(net),
                value(gpu_percent),
            ],
            culprits: [
                Culprit::of(snapshot.top_cpu.rows().first()),
                Culprit::of(snapshot.top_memory.rows().first()),
                Culprit::of(snapshot.top_io.rows().first()),
                Culprit::of(snapshot.top_net.rows().first()),
                Culprit::of_gpu(gpu_user),
            ],
        }
    }

    pub fn empty() -> Point {
        Point {
            values: [f32::NAN; METRICS],
            culprits: [Culprit::NONE; METRICS],
        }
    }
}
