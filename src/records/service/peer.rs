//! What the service learns of a client beyond its ids: whether it lives in the service's
//! own PID namespace. The walker shows every task of the machine, and the exit reports
//! come from every namespace, which a client in a container's PID namespace could not see
//! in its /proc; such a client reads through the iterator, which keeps to the reader's
//! namespace, and gets no exit reports (telling which of them its namespace holds would
//! need its /proc/PID/ns/pid, which the service may not read).

use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};

/// `SO_PEERPIDFD` (Linux 6.5+): a pidfd of the process that connected, which unlike its
/// pid cannot come to name another process.
const SO_PEERPIDFD: libc::c_int = 77;

/// Whether the client at the other end of `socket` is in this process's PID namespace;
/// `false` when that cannot be known. `peer_pid` (SO_PEERCRED's) is asked where the kernel
/// has no SO_PEERPIDFD: the process it names now might not be the one that connected, if
/// that one ended and its pid was reused between its connect and this call.
pub fn in_own_pid_namespace(socket: impl AsFd, peer_pid: u32) -> bool {
    // Held open while its fdinfo is read.
    let pidfd = peer_pidfd(socket);
    let status = match &pidfd {
        Some(pidfd) => format!("/proc/self/fdinfo/{}", pidfd.as_raw_fd()),
        None if peer_pid != 0 => format!("/proc/{peer_pid}/status"),
        None => return false,
    };
    same_namespace(&std::fs::read_to_string(status).unwrap_or_default())
}

/// From a pidfd's fdinfo (or /proc/PID/status): its `NSpid` line lists the process's pid
/// in each namespace from the reader's down to its own, so one pid means the reader's
/// namespace. (A process that
/// ended has no line, and one in a namespace the reader cannot see shows 0.)
fn same_namespace(fdinfo: &str) -> bool {
    fdinfo
        .lines()
        .find_map(|line| line.strip_prefix("NSpid:"))
        .is_some_and(|pids| {
            let pids: Vec<&str> = pids.split_whitespace().collect();
            pids.len() == 1 && pids[0] != "0"
        })
}

/// rustix has no SO_PEERPIDFD yet: libc's getsockopt.
fn peer_pidfd(socket: impl AsFd) -> Option<OwnedFd> {
    let mut fd: libc::c_int = -1;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `fd`, a c_int that lives for the
    // call; the socket is borrowed and open.
    let rc = unsafe {
        libc::getsockopt(
            socket.as_fd().as_raw_fd(),
            libc::SOL_SOCKET,
            SO_PEERPIDFD,
            (&raw mut fd).cast(),
            &raw mut len,
        )
    };
    // SAFETY: on success the kernel made a new pidfd that nothing else owns.
    (rc == 0 && fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pid_is_the_same_namespace() {
        assert!(same_namespace("Pos:\t0\nPid:\t812\nNSpid:\t812\n"));
        assert!(!same_namespace("Pid:\t812\nNSpid:\t812\t1\n"));
        assert!(!same_namespace("Pid:\t-1\n"), "ended");
        assert!(!same_namespace("NSpid:\t0\n"), "out of sight");
        assert!(!same_namespace(""));
    }

    #[test]
    fn proc_status_says_the_same_where_there_is_no_pidfd() {
        let status = std::fs::read_to_string(format!("/proc/{}/status", std::process::id()));
        assert!(same_namespace(&status.expect("own status")));
    }

    #[test]
    fn a_peer_in_this_process_is_in_its_namespace() {
        let (a, _b) = rustix::net::socketpair(
            rustix::net::AddressFamily::UNIX,
            rustix::net::SocketType::SEQPACKET,
            rustix::net::SocketFlags::CLOEXEC,
            None,
        )
        .expect("socketpair");
        assert!(in_own_pid_namespace(&a, 0));
    }
}
