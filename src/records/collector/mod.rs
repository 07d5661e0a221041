//! One sample per tick: task records, the system files and the model, together.
//!
//! The records come from the probe service when it runs, else from the BPF probe when it
//! loads in this process, and otherwise from a walk of `/proc` ([`ProcWalk`]), behind the
//! same interface: the bar, `--once` and `--bench` work any way, and say which.

use std::io;
use std::path::Path;

use crate::model::app::GroupBy;
use crate::model::oom::{complete_pid_only, Clocks, OomKill, OomKills, Reader};
use crate::model::{ExitRecord, Model, Privacy, Snapshot};
use crate::records::cgroup::CgroupNames;
use crate::records::probe::{Probe, ProbeError};
use crate::records::procfs::SystemFiles;
use crate::records::procwalk::ProcWalk;
use crate::records::service::{self, client::RemoteProbe};
use crate::records::Source;

mod source;
pub use source::RecordSource;

/// Where the last sample's time went (nanoseconds of wall time), for `--bench`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phases {
    /// /proc/meminfo, vmstat and loadavg.
    pub system_ns: u64,
    /// The task records: the iterator's reads (the kernel walking the tasks, the BPF
    /// program, the copy out) and the exit reports; or the /proc walk.
    pub records_ns: u64,
    /// The model: per-process lookups, aggregation and deltas.
    pub model_ns: u64,
    /// The ranked lists.
    pub rank_ns: u64,
}

pub struct Collector {
    source: Box<dyn RecordSource + Send>,
    system: SystemFiles,
    model: Model,
    exits: Vec<ExitRecord>,
    kernel_threads: bool,
    reader: Reader,
    oom_kills: OomKills,
    phases: Phases,
}

impl Collector {
    /// The first source that works: the probe service's socket, the probe loaded by this
    /// process (call while still privileged), the /proc walk; with the latter, the reason
    /// the probe did not load.
    pub fn new(kernel_threads: bool) -> (Self, Option<ProbeError>) {
        let service_error = match connect_service() {
            Ok(Some(remote)) => {
                return (
                    Collector::from_source(Box::new(remote), kernel_threads),
                    None,
                );
            }
            Ok(None) => None,
            Err(err) => Some(err),
        };
        match (Collector::with_probe(kernel_threads), service_error) {
            (Ok(collector), _) => (collector, None),
            // Without capabilities the service was the way: say why it failed, not setcap.
            (Err(ProbeError::NoPermission { .. }), Some((path, reason))) => {
                let err = ProbeError::ServiceUnavailable { path, reason };
                (Collector::with_proc(kernel_threads), Some(err))
            }
            (Err(err), _) => (Collector::with_proc(kernel_threads), Some(err)),
        }
    }

    /// The BPF collector only.
    pub fn with_probe(kernel_threads: bool) -> Result<Self, ProbeError> {
        Ok(Collector::from_source(
            Box::new(Probe::load()?),
            kernel_threads,
        ))
    }

    /// The /proc collector only: the fallback, and the reference in tests.
    pub fn with_proc(kernel_threads: bool) -> Self {
        let walk = ProcWalk::new(Path::new("/proc"));
        Collector::from_source(Box::new(walk), kernel_threads)
    }

    fn from_source(source: Box<dyn RecordSource + Send>, kernel_threads: bool) -> Self {
        let mut model = Model::new(page_size(), online_cpus());
        model.set_app_names(Box::new(CgroupNames::new()));
        Collector {
            source,
            system: SystemFiles::open(Path::new("/proc")),
            model,
            exits: Vec::with_capacity(1024),
            kernel_threads,
            reader: Reader {
                uid: rustix::process::getuid().as_raw(),
                gid: rustix::process::getgid().as_raw(),
                privacy: Privacy::default(),
            },
            oom_kills: OomKills::default(),
            phases: Phases::default(),
        }
    }

    /// The probe's task record buffer size (`None` for the service and the /proc walk).
    pub fn record_capacity(&self) -> Option<usize> {
        self.source.capacity()
    }

    /// Whether the latest records came from the probe's walker (see `Probe::read_tasks`).
    pub fn walked(&self) -> bool {
        self.source.walked()
    }

    /// Where the records come from.
    pub fn source(&self) -> Source {
        self.source.kind()
    }

    /// Lets the record source start on the next sample's records (the probe service walks
    /// while this process reads its other files); [`Collector::sample`] does it too, if
    /// not done.
    pub fn prepare(&mut self) {
        self.source.prepare();
    }

    /// Sampling stops for a while (`false`) or goes on (`true`): the record source lets
    /// go of what only sampling holds until the next sample.
    pub fn set_sampling(&mut self, sampling: bool) {
        if !sampling {
            self.source.pause();
        }
    }

    /// Takes a sample: the model's snapshot is then the new one.
    pub fn sample(&mut self) -> io::Result<()> {
        let mut clock = PhaseClock::start();
        self.source.prepare();
        let memory = self.system.memory();
        let load = self.system.load();
        self.phases.system_ns = clock.lap();
        let now = self.source.read(&mut self.exits)?;
        self.phases.records_ns = clock.lap();
        take_oom_kills(
            &mut self.exits,
            &self.model,
            &mut self.oom_kills,
            self.reader,
            now,
        );
        let (tasks, read_ns) = (self.source.tasks(), self.source.read_times());
        self.model
            .update_read_at(now, tasks, read_ns, &self.exits, memory, load);
        if let Some((cpu, threads)) = self.source.system_cpu() {
            self.model.use_system_cpu(cpu, threads);
        }
        self.phases.model_ns = clock.lap();
        self.model.rank(self.kernel_threads);
        self.phases.rank_ns = clock.lap();
        Ok(())
    }

    /// Where the last sample's time went.
    pub fn phases(&self) -> Phases {
        self.phases
    }

    /// The OOM kills seen so far (the BPF probe only: /proc does not tell).
    pub fn oom_kills(&self) -> &OomKills {
        &self.oom_kills
    }

    /// What the reader may see (see [`Privacy`]); applies from the next ranking.
    pub fn set_privacy(&mut self, privacy: Privacy) {
        self.reader.privacy = privacy;
        self.model.set_privacy(privacy);
        self.model.rank(self.kernel_threads);
    }

    /// Includes or excludes kernel threads from the lists, at once (no new sample).
    pub fn set_kernel_threads(&mut self, include: bool) {
        self.kernel_threads = include;
        self.model.rank(include);
    }

    /// `group_by` (`None`: apps when the session has app scopes); ranks again at once.
    pub fn set_group_by(&mut self, group_by: Option<GroupBy>) {
        self.model.set_group_by(group_by);
        self.model.rank(self.kernel_threads);
    }

    /// Whether the network list counts the machine's own traffic; ranks again at once.
    pub fn set_net_include_local(&mut self, include: bool) {
        self.model.set_net_include_local(include);
        self.model.rank(self.kernel_threads);
    }

    pub fn snapshot(&self) -> &Snapshot {
        self.model.snapshot()
    }

    pub fn model(&self) -> &Model {
        &self.model
    }
}

/// Laps of a sample's phases.
struct PhaseClock(std::time::Instant);

impl PhaseClock {
    fn start() -> PhaseClock {
        PhaseClock(std::time::Instant::now())
    }

    /// Nanoseconds since the start or the previous lap.
    fn lap(&mut self) -> u64 {
        let now = std::time::Instant::now();
        let ns = now.duration_since(self.0).as_nanos();
        self.0 = now;
        u64::try_from(ns).unwrap_or(u64::MAX)
    }
}

/// The probe service, if its socket exists; its path and what went wrong if it exists
/// but does not serve this process.
fn connect_service() -> Result<Option<RemoteProbe>, (String, String)> {
    let path = service::socket_path();
    if !path.exists() {
        tracing::debug!(path = %path.display(), "no probe service");
        return Ok(None);
    }
    match RemoteProbe::connect(&path) {
        Ok(remote) => Ok(Some(remote)),
        Err(err) => {
            tracing::warn!(path = %path.display(), "the probe service cannot serve this bar: {err}");
            Err((path.display().to_string(), err.to_string()))
        }
    }
}

/// CLOCK_BOOTTIME in nanoseconds: the clock of /proc's process start times.
pub fn boottime_ns() -> u64 {
    clock_ns(rustix::time::ClockId::Boottime)
}

/// CLOCK_MONOTONIC in nanoseconds: the clock of the kernel's task start times.
pub fn monotonic_ns() -> u64 {
    clock_ns(rustix::time::ClockId::Monotonic)
}

/// Moves the OOM kills, which travel with the exit reports, from `exits` into `kills`;
/// `model` still holds the previous sample, where a pid-only kill finds its victim.
fn take_oom_kills(
    exits: &mut Vec<ExitRecord>,
    model: &Model,
    kills: &mut OomKills,
    reader: Reader,
    monotonic_ns: u64,
) {
    let page = page_size();
    let mut now = None;
    exits.retain(|exit| {
        let Some(mut oom) = exit.as_oom() else {
            return true;
        };
        let victim = model.process(oom.tgid);
        complete_pid_only(&mut oom, victim, reader);
        let now = *now.get_or_insert_with(|| Clocks {
            monotonic_ns,
            unix_ms: crate::records::unix_ms_now(),
        });
        kills.push(OomKill::from_record(&oom, page, reader, now));
        false
    });
}

fn clock_ns(clock: rustix::time::ClockId) -> u64 {
    let ts = rustix::time::clock_gettime(clock);
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

pub fn page_size() -> u64 {
    rustix::param::page_size() as u64
}

fn online_cpus() -> u32 {
    // rustix has no sysconf; glibc's counts /sys/devices/system/cpu/online.
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    u32::try_from(n).ok().filter(|&n| n > 0).unwrap_or(1)
}
