//! One client of the service: its ids, the exit reports queued for it, the answer to its
//! request, and the memfd its walks' records are lent through.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use rustix::event::PollFlags;

use super::fds;
use super::lent::LentRecords;
use crate::model::record::{ExitRecord, RECORD_OOM, TASK_IO_UNKNOWN, TASK_PRIVATE};
use crate::records::probe::Probe;
use crate::records::wire;

/// A client whose queue is full and whose socket took nothing for this long is dropped:
/// a bar reads at every sample, at least once a minute.
pub const MAX_STALL: Duration = Duration::from_secs(130);
/// Exit reports kept per client while its socket is full (a bar reads it at least every
/// 2 s); beyond that they are counted as lost.
pub const MAX_QUEUED_EXITS: usize = 16 * 1024;

/// The answer to a client's request, until sent.
pub enum Answer {
    /// 0 and an iterator instance, or the errno of making one.
    Iterator(u32, Option<OwnedFd>),
    /// A walk, with the fd of the client's memfd the first time.
    Walked(wire::Walked, Option<OwnedFd>),
}

pub struct Client {
    pub socket: OwnedFd,
    pub uid: u32,
    pub gid: u32,
    exits: Vec<ExitRecord>,
    lost: u64,
    pub answer: Option<Answer>,
    /// It asked for a walk while its user had spent its share: it waits (see `budget`).
    pub walk_waits: bool,
    /// Whether it lives in the service's PID namespace: else it gets no walks and no
    /// exit reports (see `peer`).
    pub in_service_namespace: bool,
    /// Whether the service walks the tasks for it: it is in the service's PID namespace
    /// and the service has the walker.
    pub may_walk: bool,
    /// Its walks' records, made at its first walk.
    lent: Option<LentRecords>,
    /// Since when its socket has been full (its last send would have blocked); nothing is
    /// sent to it until poll says there is room.
    full_since: Option<Instant>,
}

impl Client {
    pub fn new(
        socket: OwnedFd,
        uid: u32,
        gid: u32,
        in_service_namespace: bool,
        walker: bool,
    ) -> Client {
        Client {
            socket,
            uid,
            gid,
            exits: Vec::new(),
            lost: 0,
            answer: None,
            walk_waits: false,
            in_service_namespace,
            may_walk: walker && in_service_namespace,
            lent: None,
            full_since: None,
        }
    }

    /// Walks the tasks as this client and prepares the answer: its records go into its
    /// memfd, whose read-only fd travels with its first answer.
    pub fn walk(&mut self, probe: &mut Probe) -> Answer {
        let failed = |err: &io::Error| wire::Walked {
            status: err
                .raw_os_error()
                .and_then(|e| u32::try_from(e).ok())
                .unwrap_or(libc::EIO as u32),
            ..wire::Walked::default()
        };
        if !self.may_walk {
            return Answer::Walked(failed(&io::Error::from_raw_os_error(libc::EPERM)), None);
        }
        let mut reader_fd = None;
        if self.lent.is_none() {
            let made = probe
                .walk_capacity()
                .ok_or_else(|| io::Error::from_raw_os_error(libc::EOPNOTSUPP))
                .and_then(LentRecords::new)
                .and_then(|lent| Ok((lent.reader_fd()?, lent)));
            match made {
                Ok((fd, lent)) => {
                    reader_fd = Some(fd);
                    self.lent = Some(lent);
                }
                Err(err) => {
                    tracing::warn!(uid = self.uid, "no memfd for a client's walks: {err}");
                    return Answer::Walked(failed(&err), None);
                }
            }
        }
        let Some(lent) = self.lent.as_mut() else {
            unreachable!("made above")
        };
        let walked_ns = crate::records::collector::monotonic_ns();
        let walked = match probe.walk_for(self.uid, self.gid) {
            Ok(Some(tasks)) => wire::Walked {
                status: 0,
                count: lent.fill(tasks) as u32,
                walked_ns,
            },
            Ok(None) => failed(&io::Error::from_raw_os_error(libc::EOVERFLOW)),
            Err(err) => failed(&err),
        };
        Answer::Walked(walked, reader_fd)
    }

    /// Queues an exit report, its IO and network bytes left out where /proc would deny
    /// this client; none for a client in another PID namespace. OOM kills travel
    /// unchanged: pid, name and size are what /proc showed of the victim (the client
    /// hides them where its /proc has `hidepid`; see crate::model::oom).
    pub fn queue(&mut self, exit: &ExitRecord) {
        if !self.in_service_namespace {
            return;
        }
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
            // Network bytes follow the IO's rule.
            exit.net_sent_bytes = 0;
            exit.net_received_bytes = 0;
            exit.net_local_sent_bytes = 0;
            exit.net_local_received_bytes = 0;
            exit.flags |= TASK_IO_UNKNOWN;
        }
        self.exits.push(exit);
    }

    /// Sends the answer to its request, then the queued reports, as many as the client's
    /// socket takes now; nothing while its socket is known to be full.
    pub fn flush(&mut self, message: &mut Vec<u8>) -> Result<(), String> {
        if self.full_since.is_some() {
            return Ok(());
        }
        if let Some(answer) = &self.answer {
            let fd = match answer {
                Answer::Iterator(errno, fd) => {
                    wire::encode_iterator(*errno, message);
                    fd
                }
                Answer::Walked(walked, fd) => {
                    wire::encode_walked(*walked, message);
                    fd
                }
            };
            let sent = fds::send(self.socket.as_fd(), message, fd.as_ref().map(AsFd::as_fd));
            if !self.sent(sent)? {
                return Ok(());
            }
            self.answer = None;
        }
        while !self.exits.is_empty() {
            let count = self.exits.len().min(wire::MAX_EXITS_PER_MESSAGE);
            wire::encode_exits(&self.exits[..count], self.lost, message);
            if !self.sent(fds::send(self.socket.as_fd(), message, None))? {
                return Ok(());
            }
            self.exits.drain(..count);
        }
        crate::records::give_back_burst_room(&mut self.exits, wire::MAX_EXITS_PER_MESSAGE);
        Ok(())
    }

    /// Whether a send went out; a full socket is remembered, any other error ends the client.
    fn sent(&mut self, result: io::Result<()>) -> Result<bool, String> {
        match result {
            Ok(()) => Ok(true),
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                self.full_since = Some(Instant::now());
                Ok(false)
            }
            Err(err) => Err(err.to_string()),
        }
    }

    /// Poll said its socket has room again.
    pub fn has_room(&mut self) {
        self.full_since = None;
    }

    /// A client that reads nothing while its queue overflows is let go.
    pub fn stalled(&self, now: Instant) -> bool {
        self.exits.len() >= MAX_QUEUED_EXITS
            && self
                .full_since
                .is_some_and(|since| now - since >= MAX_STALL)
    }

    /// What to wait for: requests, and room in its socket once it was found full.
    pub fn poll_flags(&self) -> PollFlags {
        if self.full_since.is_some() {
            PollFlags::IN | PollFlags::OUT
        } else {
            PollFlags::IN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::net::{socketpair, AddressFamily, SocketFlags, SocketType};

    fn client() -> (Client, OwnedFd) {
        client_in(true)
    }

    fn client_in(service_namespace: bool) -> (Client, OwnedFd) {
        let (ours, theirs) = socketpair(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::NONBLOCK | SocketFlags::CLOEXEC,
            None,
        )
        .expect("socketpair");
        let client = Client::new(ours, 1000, 1000, service_namespace, true);
        (client, theirs)
    }

    #[test]
    fn a_full_socket_is_waited_for_and_a_client_that_never_reads_is_let_go() {
        let (mut client, _peer) = client();
        let exit = ExitRecord::default();
        let mut message = Vec::new();
        // The peer reads nothing: the socket fills, then nothing more is tried.
        for _ in 0..MAX_QUEUED_EXITS + 10 {
            client.queue(&exit);
        }
        assert_eq!(client.lost, 10);
        client.flush(&mut message).expect("flush");
        assert!(client.full_since.is_some(), "the socket filled");
        assert!(!client.exits.is_empty(), "reports wait here");
        assert_eq!(client.poll_flags(), PollFlags::IN | PollFlags::OUT);
        while client.exits.len() < MAX_QUEUED_EXITS {
            client.queue(&exit);
        }
        let since = client.full_since.expect("full");
        assert!(!client.stalled(since + MAX_STALL / 2));
        assert!(
            client.stalled(since + MAX_STALL),
            "a full queue for the whole stall"
        );
        client.has_room();
        assert!(!client.stalled(since + MAX_STALL), "room came");
        assert_eq!(client.poll_flags(), PollFlags::IN);
    }

    #[test]
    fn a_client_in_another_pid_namespace_gets_no_exit_report_and_no_walk() {
        let (mut outside, _peer) = client_in(false);
        assert!(!outside.may_walk);
        outside.queue(&ExitRecord::default());
        assert!(outside.exits.is_empty());
        let (mut inside, _peer) = client_in(true);
        assert!(inside.may_walk);
        inside.queue(&ExitRecord::default());
        assert_eq!(inside.exits.len(), 1);
    }
}
