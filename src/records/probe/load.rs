//! Loading the skeleton: what the kernel offers (the tracepoints' arguments), which
//! programs load, and libbpf's log.

use std::mem::MaybeUninit;

use libbpf_rs::btf::types::{FuncProto, Typedef};
use libbpf_rs::btf::Btf;
use libbpf_rs::skel::{OpenSkel, SkelBuilder};

use super::skel::{self, RingbarSkelBuilder};

/// What the skeleton is loaded with besides the walker.
pub(super) struct Settings {
    pub hide_private_io: bool,
    pub group_dead: bool,
    pub oom_args: Option<usize>,
}

/// The network byte counters' programs (bpf/net.bpf.h).
pub(super) const NET_PROGRAMS: usize = 3;

/// Opens the skeleton, sets it up and loads it; with `walk_capacity`, the walker too,
/// and with `net`, the network byte counters.
pub(super) fn load_skeleton<'obj>(
    storage: &'obj mut MaybeUninit<libbpf_rs::OpenObject>,
    settings: &Settings,
    walk_capacity: Option<usize>,
    net: bool,
) -> Result<skel::RingbarSkel<'obj>, libbpf_rs::Error> {
    let mut open = RingbarSkelBuilder::default().open(storage)?;
    let group_dead = settings.group_dead;
    let oom_task = settings.oom_args.is_some_and(|n| n >= 2);
    open.progs.exit_with_group_dead.set_autoload(group_dead);
    open.progs.exit_without_group_dead.set_autoload(!group_dead);
    open.progs.oom_victim_task.set_autoload(oom_task);
    open.progs
        .oom_victim_pid
        .set_autoload(settings.oom_args == Some(1));
    open.progs.walk_tasks.set_autoload(walk_capacity.is_some());
    open.progs.socket_sent.set_autoload(net);
    open.progs.socket_received.set_autoload(net);
    open.progs.net_exec.set_autoload(net);
    if net {
        open.maps.net_pids.set_max_entries(net_pid_words())?;
    }
    if let Some(capacity) = walk_capacity {
        open.maps
            .walked
            .set_max_entries(u32::try_from(capacity).unwrap_or(u32::MAX))?;
    }
    if let Some(rodata) = open.maps.rodata_data.as_deref_mut() {
        rodata.hide_private_io = u32::from(settings.hide_private_io);
    }
    open.load()
}

/// The words of the bitmap of pids that may have network counts (`net_pids` in
/// bpf/net.bpf.h): one bit for each pid up to pid_max, or up to the kernel's limit (2^22 on
/// 64-bit machines, 512 KiB of bits) where pid_max cannot be read.
fn net_pid_words() -> u32 {
    const PID_MAX_LIMIT: u32 = 1 << 22;
    let pid_max = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|text| text.trim().parse::<u32>().ok())
        .unwrap_or(PID_MAX_LIMIT);
    pid_max.clamp(64, PID_MAX_LIMIT).div_ceil(64)
}

/// Attaches the network byte counters' programs; all or none.
pub(super) fn attach_net(
    skel: &skel::RingbarSkel<'_>,
) -> Result<[libbpf_rs::Link; NET_PROGRAMS], libbpf_rs::Error> {
    Ok([
        skel.progs.socket_sent.attach()?,
        skel.progs.socket_received.attach()?,
        skel.progs.net_exec.attach()?,
    ])
}

/// How many arguments the tracepoint `name` passes (its BTF prototype's, without the
/// context): `sched_process_exit` gained `group_dead` in recent kernels, `mark_victim`
/// passes the task on newer kernels and only its pid on older ones (6.1). `None` without
/// the tracepoint.
pub(super) fn tracepoint_args(btf: &Btf<'_>, name: &str) -> Option<usize> {
    let typedef = btf.type_by_name::<Typedef<'_>>(&format!("btf_trace_{name}"))?;
    // typedef → pointer → function prototype (void *ctx, the tracepoint's arguments…)
    let proto = typedef
        .next_type()
        .and_then(|ptr| ptr.next_type())
        .and_then(|ty| FuncProto::try_from(ty).ok())?;
    proto.len().checked_sub(1)
}

/// libbpf's messages go to the log at debug level instead of stderr.
pub(super) fn route_libbpf_log() {
    fn print(level: libbpf_rs::PrintLevel, msg: String) {
        let msg = msg.trim_end();
        match level {
            libbpf_rs::PrintLevel::Warn => tracing::debug!(target: "libbpf", "{msg}"),
            _ => tracing::trace!(target: "libbpf", "{msg}"),
        }
    }
    libbpf_rs::set_print(Some((libbpf_rs::PrintLevel::Debug, print)));
}
