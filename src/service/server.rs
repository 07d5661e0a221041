//! The service's side: one poll loop over the listening socket and its clients. It never
//! blocks on a client: sends do not wait, and a client that misbehaves (a wrong message,
//! a full socket) is dropped; it may connect again.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::Duration;

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::net::{accept_with, sockopt, SocketFlags};

use super::fds;
use crate::model::record::{ExitRecord, RECORD_OOM, TASK_IO_UNKNOWN, TASK_PRIVATE};
use crate::probe::Probe;
use crate::wire::{self, Op};

/// Clients at once; more are turned away.
const MAX_CLIENTS: usize = 64;
/// Exit reports kept per client between two of its samples (a bar asks at least every
/// 2 s); beyond that they are counted as lost.
const MAX_QUEUED_EXITS: usize = 16 * 1024;
/// How often the ring buffer is drained when nobody asks, so it never fills up.
const DRAIN_EVERY: Duration = Duration::from_millis(500);

struct Client {
    socket: OwnedFd,
    uid: u32,
    gid: u32,
    exits: Vec<ExitRecord>,
    lost: u64,
}

impl Client {
    /// Queues an exit report, its IO left out where /proc would deny this client. OOM
    /// kills travel unchanged: pid, name and size are what /proc showed of the victim
    /// (the client hides them where its /proc has `hidepid`; see crate::model::oom).
    fn queue(&mut self, exit: &ExitRecord) {
        if self.exits.len() >= MAX_QUEUED_EXITS {
            self.lost += 1;
            return;
        }
        if exit.flags & RECORD_OOM != 0 {
            self.exits.push(*exit);
            return;
        }
        let mut exit = *exit;
        let private =
            exit.flags & TASK_PRIVATE != 0 || exit.uid != self.uid || exit.gid != self.gid;
        if private && self.uid != 0 {
            exit.read_bytes = 0;
            exit.write_bytes = 0;
            exit.flags |= TASK_IO_UNKNOWN;
        }
        self.exits.push(exit);
    }
}

/// Serves `probe` on `listener` until an error of the listener itself.
pub fn serve(listener: OwnedFd, mut probe: Probe) -> io::Result<()> {
    let mut clients: Vec<Client> = Vec::new();
    let mut drained = Vec::with_capacity(1024);
    let mut message = Vec::with_capacity(wire::MAX_MESSAGE_LEN);
    let mut request = [0u8; 64];
    let timeout = Timespec::try_from(DRAIN_EVERY).map_err(io::Error::other)?;
    loop {
        let ready: Vec<bool> = {
            let mut polled: Vec<PollFd<'_>> = std::iter::once(&listener)
                .chain(clients.iter().map(|c| &c.socket))
                .map(|fd| PollFd::new(fd, PollFlags::IN))
                .collect();
            match poll(&mut polled, Some(&timeout)) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(err) => return Err(err.into()),
            }
            polled.iter().map(|p| !p.revents().is_empty()).collect()
        };
        drain(&mut probe, &mut drained, &mut clients);
        // Clients first (indices of `ready` are theirs before anyone is added or removed).
        let mut index = clients.len();
        while index > 0 {
            index -= 1;
            if !ready[index + 1] {
                continue;
            }
            let keep = answer(&mut clients[index], &probe, &mut request, &mut message);
            if let Err(why) = keep {
                tracing::info!(uid = clients[index].uid, "client gone: {why}");
                clients.swap_remove(index);
            }
        }
        if ready[0] {
            accept(&listener, &probe, &mut clients, &mut message)?;
        }
    }
}

/// Moves the exit reports waiting in the ring buffer into every client's queue.
fn drain(probe: &mut Probe, drained: &mut Vec<ExitRecord>, clients: &mut [Client]) {
    if let Err(err) = probe.drain_exits(drained) {
        tracing::warn!("reading exit reports: {err}");
        return;
    }
    for client in clients.iter_mut() {
        for exit in drained.iter() {
            client.queue(exit);
        }
    }
}

fn accept(
    listener: &OwnedFd,
    probe: &Probe,
    clients: &mut Vec<Client>,
    message: &mut Vec<u8>,
) -> io::Result<()> {
    let socket = match accept_with(listener, SocketFlags::CLOEXEC | SocketFlags::NONBLOCK) {
        Ok(socket) => socket,
        Err(
            rustix::io::Errno::AGAIN | rustix::io::Errno::INTR | rustix::io::Errno::CONNABORTED,
        ) => return Ok(()),
        Err(err) => return Err(err.into()),
    };
    let Ok(peer) = sockopt::socket_peercred(&socket) else {
        tracing::warn!("a client without peer credentials: refused");
        return Ok(());
    };
    let (uid, gid) = (peer.uid.as_raw(), peer.gid.as_raw());
    if clients.len() >= MAX_CLIENTS {
        tracing::warn!(uid, "{MAX_CLIENTS} clients already: refused");
        return Ok(());
    }
    wire::encode_hello(message);
    if let Err(err) = fds::send(socket.as_fd(), message, Some(probe.iter_link())) {
        tracing::info!(uid, "greeting a client failed: {err}");
        return Ok(());
    }
    tracing::info!(
        uid,
        pid = peer.pid.as_raw_nonzero().get(),
        "client connected"
    );
    clients.push(Client {
        socket,
        uid,
        gid,
        exits: Vec::new(),
        lost: 0,
    });
    Ok(())
}

/// Reads one request of `client` and answers it; an error means: drop the client.
fn answer(
    client: &mut Client,
    probe: &Probe,
    request: &mut [u8],
    message: &mut Vec<u8>,
) -> Result<(), String> {
    // A client has no reason to send fds; one that does has it closed here.
    let (len, _ignored_fd) = match fds::receive(&client.socket, request) {
        Ok(got) => got,
        Err(err) if err.kind() == io::ErrorKind::WouldBlock => return Ok(()),
        Err(err) => return Err(err.to_string()),
    };
    if len == 0 {
        return Err("closed".into());
    }
    match wire::decode_request(&request[..len]).map_err(|e| e.to_string())? {
        Op::Exits => {
            let count = client.exits.len().min(wire::MAX_EXITS_PER_MESSAGE);
            let more = client.exits.len() > count;
            wire::encode_exits(&client.exits[..count], client.lost, more, message);
            fds::send(client.socket.as_fd(), message, None).map_err(|e| e.to_string())?;
            client.exits.drain(..count);
        }
        Op::Iterator => {
            let created = super::create_iterator(probe.iter_link());
            let errno = created.as_ref().map_or_else(
                |err| {
                    err.raw_os_error()
                        .and_then(|e| u32::try_from(e).ok())
                        .unwrap_or(5)
                },
                |_| 0,
            );
            wire::encode_iterator(errno, message);
            let fd = created.as_ref().ok().map(AsFd::as_fd);
            fds::send(client.socket.as_fd(), message, fd).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
