//! The optional probe service, `ringbar-probe`: it holds CAP_BPF/CAP_PERFMON, loads the
//! probe once and lends it to every bar on the machine over a Unix socket, so that the bar
//! itself runs with no capability at all.
//!
//! What travels (see [`crate::records::wire`]): at each sample the client asks for a walk,
//! and the service runs the probe's walker as that client (its SO_PEERCRED ids in the
//! program's context, so the kernel marks the tasks private to it as it would for the
//! client itself) and copies the records into a memfd of that client's own, sealed
//! against every write but the service's and lent read-only ([`lent`]). The client asks
//! when its sample starts and reads its other files meanwhile, so the walk costs it
//! about nothing. A client outside the service's PID namespace, or a service without
//! the walker (Linux < 6.7), falls back to the task iterator: the greeting carries its
//! link fd, and the client creates its own iterator instances from it (Linux ≥ 5.19
//! allows that without capabilities even with `kernel.unprivileged_bpf_disabled` set, as
//! it allows every command on an fd one holds; creating programs, maps, or fds by id
//! stays refused) or, where that is refused, asks the service for one per sample. The
//! iterator runs in the process that reads it, so the probe's privacy marks are the
//! client's own. Exit reports come as messages the service pushes: the BPF ring buffer
//! has one consumer position, so the service drains it and sends each client its copy,
//! queued (bounded) while the client's socket is full.
//!
//! Anyone who can connect could read the raw records, so the service loads the probe
//! with `hide_private_io`: the kernel leaves out every task's IO that /proc would deny
//! the reader, and the service does the same with exit reports by each client's
//! SO_PEERCRED ids. What stays visible is what /proc shows without `hidepid`: names, CPU
//! time, memory, states. On a system that mounts /proc with `hidepid`, restrict the
//! socket to a group (`SocketGroup=` in data/systemd/ringbar-probe.socket).

mod budget;
pub mod client;
mod fds;
pub mod lent;
pub mod listener;
mod peer;
pub mod server;
mod session;

use std::path::PathBuf;

/// Where the service listens unless `RINGBAR_PROBE_SOCKET` says otherwise.
pub const DEFAULT_SOCKET: &str = "/run/ringbar-probe.sock";

/// The service's socket path: `RINGBAR_PROBE_SOCKET`, else [`DEFAULT_SOCKET`].
pub fn socket_path() -> PathBuf {
    std::env::var_os("RINGBAR_PROBE_SOCKET")
        .filter(|p| !p.is_empty())
        .map_or_else(|| PathBuf::from(DEFAULT_SOCKET), PathBuf::from)
}

/// A new iterator instance of the task iterator's link: an fd whose reads run the
/// iterator in the reading process.
fn create_iterator(link: std::os::fd::BorrowedFd<'_>) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::{AsRawFd, FromRawFd};
    // SAFETY: bpf_iter_create only takes an fd number; the link fd is alive while
    // borrowed.
    let fd = unsafe { libbpf_sys::bpf_iter_create(link.as_raw_fd()) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a new fd that nothing else owns.
    Ok(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}
