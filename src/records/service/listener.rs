//! The service's listening socket: handed over by systemd (socket activation), or bound
//! at a path.

use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use rustix::net::{
    bind, listen, socket_with, AddressFamily, SocketAddrUnix, SocketFlags, SocketType,
};

/// systemd passes its sockets from fd 3 on, with LISTEN_PID naming the process meant.
const SD_LISTEN_FDS_START: i32 = 3;

/// The socket systemd passed, if this process was socket-activated.
pub fn from_systemd() -> Result<Option<OwnedFd>, String> {
    let for_us = std::env::var("LISTEN_PID")
        .ok()
        .and_then(|pid| pid.parse::<u32>().ok())
        .is_some_and(|pid| pid == std::process::id());
    let count: i32 = std::env::var("LISTEN_FDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    if !for_us || count < 1 {
        return Ok(None);
    }
    if count > 1 {
        return Err(format!("systemd passed {count} sockets; the unit has one"));
    }
    // SAFETY: with LISTEN_PID naming this process, systemd passed fd 3 to it and nothing
    // else in this process took it.
    let fd = unsafe { OwnedFd::from_raw_fd(SD_LISTEN_FDS_START) };
    rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::CLOEXEC).map_err(|e| e.to_string())?;
    Ok(Some(fd))
}

/// A SOCK_SEQPACKET socket listening at `path` (a stale socket file there is replaced),
/// open to every user: what a client may read is limited by the kernel, not the socket.
pub fn bind_path(path: &Path) -> Result<OwnedFd, String> {
    let fail =
        |what: &str, err: &dyn std::fmt::Display| format!("{what} {}: {err}", path.display());
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        use std::os::unix::fs::FileTypeExt;
        if !meta.file_type().is_socket() {
            return Err(format!("{} exists and is not a socket", path.display()));
        }
        std::fs::remove_file(path).map_err(|e| fail("removing the old", &e))?;
    }
    let socket = socket_with(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )
    .map_err(|e| fail("socket for", &e))?;
    let address = SocketAddrUnix::new(path).map_err(|e| fail("address", &e))?;
    bind(&socket, &address).map_err(|e| fail("binding", &e))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666))
        .map_err(|e| fail("chmod", &e))?;
    listen(&socket, 16).map_err(|e| fail("listening at", &e))?;
    Ok(socket)
}
