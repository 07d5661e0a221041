//! The service's side: one poll loop over the listening socket, the exit ring buffer and
//! the clients. Exit reports are pushed to every client as they come, at most every
//! [`MIN_DRAIN_GAP`], so a client's sample never waits for the service. It never blocks
//! on a client: sends do not wait, a client whose socket is full keeps a bounded queue
//! here until it reads (nothing is sent to it until poll says its socket has room), and
//! a client that misbehaves (a wrong message) or whose queue stays full is dropped; it may
//! connect again. One user may hold [`MAX_CLIENTS_PER_USER`] connections, so that nobody
//! can take the service from everyone else; a client turned away is told why.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::net::{accept_with, sockopt, SocketFlags};

use super::budget::WalkBudgets;
use super::fds;
use super::session::{Answer, Client};
use crate::model::record::ExitRecord;
use crate::records::probe::Probe;
use crate::records::wire;

/// Clients at once; more are turned away.
const MAX_CLIENTS: usize = 64;
/// Clients of one uid at once: a bar and a `--waybar` per display leave plenty of room.
const MAX_CLIENTS_PER_USER: usize = 8;
/// The ring buffer is drained at most this often: under heavy process churn the service
/// wakes at most 100 times a second, and a report reaches the bars this late at most.
const MIN_DRAIN_GAP: Duration = Duration::from_millis(10);
/// How often the ring buffer is drained even when it signals nothing.
const DRAIN_EVERY: Duration = Duration::from_millis(500);

/// Serves `probe` on `listener` until an error of the listener itself.
pub fn serve(listener: OwnedFd, mut probe: Probe) -> io::Result<()> {
    let mut clients: Vec<Client> = Vec::new();
    let mut drained = Vec::with_capacity(1024);
    let mut message = Vec::with_capacity(wire::MAX_MESSAGE_LEN);
    let mut request = [0u8; 64];
    let mut last_drain: Option<Instant> = None;
    let mut budgets = WalkBudgets::default();
    let mut walked_for: Vec<u32> = Vec::with_capacity(MAX_CLIENTS);
    loop {
        let cpu_at_start = thread_cpu_time();
        // Right after a drain the ring buffer is not watched, so that a stream of exits
        // wakes the service at most once per MIN_DRAIN_GAP.
        let since_drain = last_drain.map_or(DRAIN_EVERY, |t| t.elapsed());
        let watch_exits = since_drain >= MIN_DRAIN_GAP;
        let wait = if watch_exits {
            DRAIN_EVERY.saturating_sub(since_drain).max(MIN_DRAIN_GAP)
        } else {
            MIN_DRAIN_GAP - since_drain
        };
        // A walk that waits for its user's share is served when the share comes.
        let now = Instant::now();
        let wait = clients
            .iter()
            .filter(|c| c.walk_waits)
            .map(|c| budgets.next_allowed(c.uid, now) - now)
            .fold(wait, Duration::min);
        let timeout = Timespec::try_from(wait).map_err(io::Error::other)?;
        let ready: Vec<PollFlags> = {
            // The service never pauses its probe: the ring buffer stays mapped.
            let exits_ready = probe.exits_ready_fd().filter(|_| watch_exits);
            let mut polled: Vec<PollFd<'_>> =
                std::iter::once(PollFd::new(&listener, PollFlags::IN))
                    .chain(
                        clients
                            .iter()
                            .map(|c| PollFd::new(&c.socket, c.poll_flags())),
                    )
                    .chain(
                        exits_ready
                            .as_ref()
                            .map(|fd| PollFd::new(fd, PollFlags::IN)),
                    )
                    .collect();
            match poll(&mut polled, Some(&timeout)) {
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(err) => return Err(err.into()),
            }
            polled.iter().map(PollFd::revents).collect()
        };
        if last_drain.is_none_or(|t| t.elapsed() >= MIN_DRAIN_GAP) {
            drain(&mut probe, &mut drained, &mut clients);
            last_drain = Some(Instant::now());
        }
        // Clients first (indices of `ready` are theirs before anyone is added or removed).
        let now = Instant::now();
        let mut index = clients.len();
        while index > 0 {
            index -= 1;
            let client = &mut clients[index];
            let revents = ready[index + 1];
            if revents.contains(PollFlags::OUT) {
                client.has_room();
            }
            let mut kept = Ok(false);
            if revents.intersects(PollFlags::IN | PollFlags::HUP | PollFlags::ERR) {
                kept = answer(client, &mut probe, &budgets, &mut request);
            } else if client.walk_waits {
                kept = Ok(walk(client, &mut probe, &budgets));
            }
            let kept = kept
                .and_then(|walked| {
                    if walked {
                        walked_for.push(client.uid);
                    }
                    client.flush(&mut message)
                })
                .and_then(|()| match client.stalled(now) {
                    true => Err("its queue stayed full: it reads nothing".into()),
                    false => Ok(()),
                });
            if let Err(why) = kept {
                tracing::info!(uid = client.uid, "client gone: {why}");
                clients.swap_remove(index);
            }
        }
        // What this round cost the service (the wake-up, the walks, the copies, the
        // messages) is charged to the users it walked for, in equal parts.
        if !walked_for.is_empty() {
            let spent = thread_cpu_time().saturating_sub(cpu_at_start);
            let share = spent / walked_for.len() as u32;
            for uid in walked_for.drain(..) {
                budgets.charge(uid, share, now);
            }
        }
        if !ready[0].is_empty() {
            accept(&listener, &probe, &mut clients, &mut message)?;
        }
    }
}

/// Walks for a client that asked, if its user's share allows now (else it waits on);
/// whether it walked.
fn walk(client: &mut Client, probe: &mut Probe, budgets: &WalkBudgets) -> bool {
    if !budgets.allows(client.uid, Instant::now()) {
        return false;
    }
    client.answer = Some(client.walk(probe));
    client.walk_waits = false;
    true
}

/// The CPU time this thread has used.
fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
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
    let of_user = clients.iter().filter(|c| c.uid == uid).count();
    let refusal = if of_user >= MAX_CLIENTS_PER_USER {
        Some(wire::Refusal::UserLimit {
            limit: MAX_CLIENTS_PER_USER as u32,
        })
    } else if clients.len() >= MAX_CLIENTS {
        Some(wire::Refusal::Full {
            limit: MAX_CLIENTS as u32,
        })
    } else {
        None
    };
    if let Some(refusal) = refusal {
        tracing::warn!(uid, "client refused: {refusal}");
        wire::encode_refused(refusal, message);
        // Best effort: the socket closes right after.
        let _ = fds::send(socket.as_fd(), message, None);
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
    let peer_pid = peer.pid.as_raw_nonzero().get().unsigned_abs();
    let in_namespace = super::peer::in_own_pid_namespace(&socket, peer_pid);
    let walker = probe.walk_capacity().is_some();
    clients.push(Client::new(socket, uid, gid, in_namespace, walker));
    Ok(())
}

/// Reads one request of `client` and prepares its answer (sent by [`Client::flush`]), or
/// lets its walk wait for its user's share; whether it walked. An error means: drop the
/// client.
fn answer(
    client: &mut Client,
    probe: &mut Probe,
    budgets: &WalkBudgets,
    request: &mut [u8],
) -> Result<bool, String> {
    // A client has no reason to send fds; one that does has it closed here.
    let (len, _ignored_fd) = match fds::receive(&client.socket, request) {
        Ok(got) => got,
        Err(err) if err.kind() == io::ErrorKind::WouldBlock => return Ok(false),
        Err(err) => return Err(err.to_string()),
    };
    if len == 0 {
        return Err("closed".into());
    }
    let op = wire::decode_request(&request[..len]).map_err(|e| e.to_string())?;
    if client.answer.is_some() || client.walk_waits {
        return Err("a request before the answer to the last one".into());
    }
    let answer = match op {
        wire::Op::Walk => {
            client.walk_waits = true;
            return Ok(walk(client, probe, budgets));
        }
        _ => match super::create_iterator(probe.iter_link()) {
            Ok(fd) => Answer::Iterator(0, Some(fd)),
            Err(err) => {
                let errno = err.raw_os_error().and_then(|e| u32::try_from(e).ok());
                Answer::Iterator(errno.unwrap_or(libc::EIO as u32), None)
            }
        },
    };
    client.answer = Some(answer);
    Ok(false)
}
