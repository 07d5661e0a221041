//! The BPF edge: loads and attaches the probe once, then reads task records and exit
//! reports on demand. After [`Probe::load`] it holds only owned handles (links and map
//! fds), so it can live in a `'static` closure and keeps working once privileges drop.

mod error;
mod exit_ring;
mod load;
mod skel;
mod walker;

use std::io::{self, Read};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd};

use libbpf_rs::{Iter, Link, MapHandle};

pub use error::{preflight, ProbeError};

use crate::model::pid_namespace::PidNamespace;
use crate::model::record::{task_bytes_mut, ExitRecord, TaskRecord};
use exit_ring::ExitRing;
use load::{load_skeleton, route_libbpf_log, tracepoint_args, Settings};
use walker::Walker;

/// A single read(2) of a BPF iterator returns at most this much.
const ITER_READ_MAX: usize = 32 * 1024;
/// The PID namespace this process lives in: the exit reports it keeps are that
/// namespace's. Where /proc cannot tell, the initial one (only a process with CAP_BPF
/// loads the probe, and such a process may read any kernel memory anyway).
fn own_pid_namespace() -> PidNamespace {
    match rustix::fs::stat("/proc/self/ns/pid") {
        Ok(stat) => PidNamespace(stat.st_ino as u32),
        Err(err) => {
            tracing::warn!(
                "cannot tell this process's PID namespace, taken as the initial one: {err}"
            );
            PidNamespace::INITIAL
        }
    }
}

/// Records the buffer starts with; it doubles when a sample needs more.
pub(crate) const INITIAL_TASKS: usize = 2048;

pub struct Probe {
    iter_link: Link,
    _exit_links: [Link; 2],
    /// The OOM hook (`oom/mark_victim`), where the kernel has it.
    _oom_link: Option<Link>,
    /// The network byte counters (bpf/net.bpf.h), where the kernel takes them.
    _net_links: Option<[Link; load::NET_PROGRAMS]>,
    exits: ExitRing,
    /// Reads the tasks in one program run where the kernel allows (see [`walker`]).
    walker: Option<Walker>,
    /// Whether the latest records are the walker's.
    walked: bool,
    /// The task iterator's records.
    tasks: Vec<TaskRecord>,
    task_count: usize,
}

impl Probe {
    /// Checks the kernel, loads the programs and attaches them. Needs CAP_BPF and
    /// CAP_PERFMON (or root); afterwards no capability is needed to sample.
    pub fn load() -> Result<Probe, ProbeError> {
        Probe::load_hiding(false)
    }

    /// The probe for the probe service: the iterator leaves out the IO of every task
    /// whose /proc/PID/io the reading process may not read (see `hide_private_io` in
    /// bpf/ringbar.bpf.c), since any local user may read it through the service.
    pub fn load_for_service() -> Result<Probe, ProbeError> {
        Probe::load_hiding(true)
    }

    fn load_hiding(hide_private_io: bool) -> Result<Probe, ProbeError> {
        preflight()?;
        route_libbpf_log();

        // The kernel's BTF, parsed once for what it offers.
        let btf = libbpf_rs::btf::Btf::from_vmlinux().ok();
        let tracepoint_args = |name| btf.as_ref().and_then(|btf| tracepoint_args(btf, name));
        let group_dead = tracepoint_args("sched_process_exit").is_some_and(|n| n >= 2);
        // Newer kernels (6.18) pass the OOM victim's task, older ones (6.1) its pid.
        let oom_args = tracepoint_args("mark_victim");
        let oom_task = oom_args.is_some_and(|n| n >= 2);
        let settings = Settings {
            hide_private_io,
            group_dead,
            oom_args,
        };
        // RINGBAR_NO_WALKER: the way out should the walker misbehave on some kernel.
        let walk = std::env::var_os("RINGBAR_NO_WALKER").is_none()
            && btf.as_ref().is_some_and(walker::kernel_supports);
        let walk_capacity = walk.then(walker::capacity_for_this_machine);
        // Loaded with the walker and the network counters, else without what failed:
        // each is a way to read more, never a condition to read at all.
        let mut storages: [MaybeUninit<libbpf_rs::OpenObject>; 4] =
            std::array::from_fn(|_| MaybeUninit::uninit());
        let mut attempts = vec![(walk_capacity, true), (None, true)];
        attempts.extend([(walk_capacity, false), (None, false)]);
        attempts.dedup();
        let mut loaded = None;
        let mut failures: Vec<(bool, bool, libbpf_rs::Error)> = Vec::new();
        for (storage, (walk, net)) in storages.iter_mut().zip(attempts) {
            match load_skeleton(storage, &settings, walk, net) {
                Ok(skel) => {
                    loaded = Some((skel, walk, net));
                    break;
                }
                Err(err) => failures.push((walk.is_some(), net, err)),
            }
        }
        let Some((skel, walk_capacity, net_loaded)) = loaded else {
            let (_, _, err) = failures
                .pop()
                .unwrap_or_else(|| unreachable!("one attempt ran"));
            return Err(ProbeError::from_libbpf("load", err));
        };
        for (walker, net, err) in &failures {
            let without = match (walker, net) {
                (true, true) => "with the task walker and the network counters",
                (true, false) => "with the task walker",
                (false, true) => "with the network counters",
                (false, false) => "",
            };
            tracing::debug!("the probe did not load {without}: {err}");
        }
        if walk_capacity.is_none() && failures.iter().any(|(walker, _, _)| *walker) {
            tracing::info!("the task walker did not load, the task iterator reads");
        }

        let attach = |e| ProbeError::from_libbpf("attach", e);
        let iter_link = skel.progs.dump_task.attach().map_err(attach)?;
        let exit_link = if group_dead {
            skel.progs.exit_with_group_dead.attach()
        } else {
            skel.progs.exit_without_group_dead.attach()
        }
        .map_err(attach)?;
        let free_link = skel.progs.group_freed.attach().map_err(attach)?;
        // Without them the bar works as before, only without network bytes per process.
        let net_links = match net_loaded {
            true => load::attach_net(&skel)
                .inspect_err(|err| {
                    tracing::warn!("no network bytes per process: the hooks did not attach: {err}")
                })
                .ok(),
            false => {
                tracing::warn!(
                    "no network bytes per process: this kernel lacks the socket layer's \
                     tracepoints (sock_send_length, sock_recv_length: Linux 6.3+, with BTF)"
                );
                None
            }
        };
        // Without the tracepoint the bar works as before, only without OOM notices.
        let oom_link = match oom_args {
            Some(_) if oom_task => skel.progs.oom_victim_task.attach().map(Some),
            Some(1) => skel.progs.oom_victim_pid.attach().map(Some),
            _ => Ok(None),
        }
        .inspect_err(|err| tracing::warn!("no OOM kill reports: {err}"))
        .ok()
        .flatten();

        let exits_map = MapHandle::try_from(&skel.maps.exits).map_err(attach)?;
        let exits_lost = MapHandle::try_from(&skel.maps.exits_lost).map_err(attach)?;
        let exits = ExitRing::open(exits_map, exits_lost, own_pid_namespace()).map_err(attach)?;
        // A walker that cannot be set up leaves the iterator to read, as one that fails.
        let walker = walk_capacity.and_then(|capacity| {
            skel.progs
                .walk_tasks
                .as_fd()
                .try_clone_to_owned()
                .and_then(|program| Walker::new(program, &skel.maps.walked, capacity))
                .inspect_err(|err| {
                    tracing::info!("the task walker failed, the iterator reads: {err}")
                })
                .ok()
        });
        tracing::debug!(
            group_dead,
            oom = oom_link.is_some(),
            oom_task,
            walker = walker.as_ref().map(Walker::capacity),
            network = net_links.is_some(),
            "BPF probe loaded and attached"
        );

        Ok(Probe {
            iter_link,
            _exit_links: [exit_link, free_link],
            _oom_link: oom_link,
            _net_links: net_links,
            exits,
            // With the walker, the iterator's buffer is made only if a sample needs it.
            tasks: match walker {
                Some(_) => Vec::new(),
                None => vec![TaskRecord::default(); INITIAL_TASKS],
            },
            walker,
            walked: false,
            task_count: 0,
        })
    }

    /// Reads every task of the caller's PID namespace once, one record each, then
    /// available from [`Probe::tasks`]: through the walker where it loaded and the tasks
    /// fit, else through the task iterator, whose buffer grows when the machine has more
    /// tasks than ever before, and only then.
    pub fn read_tasks(&mut self) -> io::Result<()> {
        self.walked = false;
        if let Some(walker) = &mut self.walker {
            // The process's real ids now, as the iterator's bpf_get_current_uid_gid() gives.
            let uid = rustix::process::getuid().as_raw();
            let gid = rustix::process::getgid().as_raw();
            match walker.walk(uid, gid) {
                Ok(true) => {
                    self.walked = true;
                    return Ok(());
                }
                Ok(false) => tracing::debug!(
                    capacity = walker.capacity(),
                    "more tasks than the walker holds: the task iterator reads"
                ),
                Err(err) => {
                    tracing::info!("the task walker failed, the task iterator reads: {err}");
                    self.walker = None;
                }
            }
        }
        self.read_tasks_by_iterator()
    }

    /// Reads every task through the task iterator, as [`Probe::read_tasks`] does where
    /// the walker is not there or the tasks do not fit it.
    pub fn read_tasks_by_iterator(&mut self) -> io::Result<()> {
        self.walked = false;
        let mut iter = Iter::new(&self.iter_link).map_err(io::Error::other)?;
        self.task_count = read_records(&mut iter, &mut self.tasks)?;
        Ok(())
    }

    /// The probe service's walk for a client: every task as the user `uid` with group
    /// `gid` sees it, in one run. `Ok(None)`: more tasks than the walker holds (the client
    /// reads this sample through the iterator). An error: no walker here, or the kernel
    /// refused the walk.
    pub fn walk_for(&mut self, uid: u32, gid: u32) -> io::Result<Option<&[TaskRecord]>> {
        let walker = self
            .walker
            .as_mut()
            .ok_or_else(|| io::Error::from(rustix::io::Errno::OPNOTSUPP))?;
        Ok(match walker.walk(uid, gid)? {
            true => Some(walker.tasks()),
            false => None,
        })
    }

    /// Records the walker holds at most (`None` without a walker).
    pub fn walk_capacity(&self) -> Option<usize> {
        self.walker.as_ref().map(Walker::capacity)
    }

    /// Whether the latest records came from the walker (one program run) rather than the
    /// task iterator.
    pub fn walked(&self) -> bool {
        self.walked
    }

    /// The task iterator's link: the probe service lends it to its clients.
    pub fn iter_link(&self) -> BorrowedFd<'_> {
        self.iter_link.as_fd()
    }

    /// An fd that polls readable when exit reports wait in the ring buffer (`None` while
    /// paused).
    pub fn exits_ready_fd(&self) -> Option<BorrowedFd<'_>> {
        self.exits.ready_fd()
    }

    /// Sampling stops for a while: the ring buffer and the walker's records are unmapped
    /// (the kernel maps all their pages at once), and the iterator's buffer let go. The
    /// next sample maps them again.
    pub fn pause(&mut self) {
        self.exits.close();
        if let Some(walker) = &mut self.walker {
            walker.unmap();
        }
        self.walked = false;
        self.task_count = 0;
        self.tasks = Vec::new();
    }

    /// How many task records the iterator's buffer holds before it must grow.
    pub fn capacity(&self) -> usize {
        self.tasks.len()
    }

    /// The records of the latest [`Probe::read_tasks`].
    pub fn tasks(&self) -> &[TaskRecord] {
        match &self.walker {
            Some(walker) if self.walked => walker.tasks(),
            _ => &self.tasks[..self.task_count],
        }
    }

    /// Moves the exit reports received since the last call into `out` (cleared first).
    pub fn drain_exits(&mut self, out: &mut Vec<ExitRecord>) -> io::Result<()> {
        self.exits.drain(out)
    }

    /// Exit reports the kernel had to drop because the ring buffer was full.
    pub fn lost_exits(&self) -> u64 {
        self.exits.lost()
    }
}

/// Reads an iterator instance to its end into `tasks` (grown when it is too small):
/// the number of records read.
pub(crate) fn read_records(iter: &mut impl Read, tasks: &mut Vec<TaskRecord>) -> io::Result<usize> {
    let mut filled = 0;
    loop {
        let bytes = task_bytes_mut(tasks);
        if bytes.len() - filled < ITER_READ_MAX {
            let grown = (tasks.len() * 2).max(INITIAL_TASKS);
            tasks.resize(grown, TaskRecord::default());
            continue;
        }
        match iter.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let size = std::mem::size_of::<TaskRecord>();
    if filled % size != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "task iterator returned a partial record",
        ));
    }
    Ok(filled / size)
}
