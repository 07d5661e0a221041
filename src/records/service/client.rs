//! The bar's side of the probe service: the same records as the in-process probe, with
//! no capability. The service pushes exit reports as they come; a sample takes what
//! waits in the socket without waiting for the service. A report may thus arrive a sample
//! after its process vanished from the iterator, which the model allows for (it counts
//! only what it had not counted). When the service goes away the sample fails; the next
//! one connects again, and the model (kept by the collector) loses nothing but the exits
//! in between.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rustix::net::{
    connect, socket_with, sockopt, AddressFamily, SocketAddrUnix, SocketFlags, SocketType,
};

use super::fds;
use crate::model::record::{ExitRecord, TaskRecord};
use crate::records::probe::{read_records, INITIAL_TASKS};
use crate::records::wire::{self, Op};

/// A service that does not answer within this long is treated as gone.
const TIMEOUT: Duration = Duration::from_secs(1);
/// Messages taken per sample at most (each up to `wire::MAX_EXITS_PER_MESSAGE` reports),
/// so that a service that floods the socket cannot hold a sample: the rest waits.
const MAX_MESSAGES_PER_SAMPLE: usize = 64;

struct Connection {
    socket: OwnedFd,
    link: OwnedFd,
    /// Whether this process may create iterator instances itself (else it asks).
    own_iterators: bool,
}

pub struct RemoteProbe {
    path: PathBuf,
    connection: Option<Connection>,
    tasks: Vec<TaskRecord>,
    task_count: usize,
    message: Vec<u8>,
    request: Vec<u8>,
    lost_seen: u64,
    /// Exit reports that came while waiting for an iterator, for the next drain.
    pending_exits: Vec<ExitRecord>,
}

impl RemoteProbe {
    /// Connects to the service at `path`; fails when none answers there properly.
    pub fn connect(path: &Path) -> io::Result<RemoteProbe> {
        let mut remote = RemoteProbe {
            path: path.to_owned(),
            connection: None,
            tasks: vec![TaskRecord::default(); INITIAL_TASKS],
            task_count: 0,
            message: vec![0; wire::MAX_MESSAGE_LEN],
            request: Vec::with_capacity(wire::REQUEST_LEN),
            lost_seen: 0,
            pending_exits: Vec::new(),
        };
        remote.connection = Some(remote.open()?);
        Ok(remote)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn open(&mut self) -> io::Result<Connection> {
        let socket = socket_with(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )?;
        connect(&socket, &SocketAddrUnix::new(&self.path)?)?;
        sockopt::set_socket_timeout(&socket, sockopt::Timeout::Recv, Some(TIMEOUT))?;
        sockopt::set_socket_timeout(&socket, sockopt::Timeout::Send, Some(TIMEOUT))?;
        let (len, link) = fds::receive(&socket, &mut self.message)?;
        if len == 0 {
            return Err(closed());
        }
        if let Err(refusal) = wire::decode_greeting(&self.message[..len]).map_err(invalid)? {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionRefused,
                format!("refused: {refusal}"),
            ));
        }
        let link = link.ok_or_else(|| invalid("a greeting without the iterator link"))?;
        tracing::info!(path = %self.path.display(), "connected to the probe service");
        self.lost_seen = 0; // a new connection counts from 0
        Ok(Connection {
            socket,
            link,
            own_iterators: true,
        })
    }

    /// The connection, made again if the service went away since the last sample.
    fn connection(&mut self) -> io::Result<&mut Connection> {
        if self.connection.is_none() {
            self.connection = Some(self.open()?);
        }
        Ok(self.connection.as_mut().expect("just connected"))
    }

    /// Forgets the connection after an error, so the next sample connects again.
    fn on_error<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(err) = &result {
            if self.connection.take().is_some() {
                tracing::warn!("probe service: {err}; connecting again at the next sample");
            }
        }
        result
    }

    /// One pass of the task iterator, as [`crate::records::probe::Probe::read_tasks`].
    pub fn read_tasks(&mut self) -> io::Result<()> {
        let result = self.read_tasks_connected();
        self.on_error(result)
    }

    fn read_tasks_connected(&mut self) -> io::Result<()> {
        let iterator = self.iterator()?;
        self.task_count = read_records(&mut File::from(iterator), &mut self.tasks)?;
        Ok(())
    }

    /// A new iterator instance: made here when the kernel allows it, else by the service.
    fn iterator(&mut self) -> io::Result<OwnedFd> {
        let connection = self.connection()?;
        if connection.own_iterators {
            match super::create_iterator(connection.link.as_fd()) {
                Ok(fd) => return Ok(fd),
                Err(err) if err.raw_os_error() == Some(libc::EPERM) => {
                    tracing::info!(
                        "this kernel refuses iterators to this process: the service makes them"
                    );
                    connection.own_iterators = false;
                }
                Err(err) => return Err(err),
            }
        }
        wire::encode_request(&mut self.request);
        let connection = self.connection.as_ref().expect("connected above");
        fds::send(connection.socket.as_fd(), &self.request, None)?;
        // Exit reports may come first: kept for the next drain.
        for _ in 0..MAX_MESSAGES_PER_SAMPLE {
            let (len, fd) = fds::receive(&connection.socket, &mut self.message)?;
            let bytes = &self.message[..len];
            if len == 0 {
                return Err(closed());
            }
            if wire::service_message_op(bytes).map_err(invalid)? == Op::Exits {
                take_exits(bytes, &mut self.lost_seen, &mut self.pending_exits)?;
                continue;
            }
            return match wire::decode_iterator(bytes).map_err(invalid)? {
                0 => fd.ok_or_else(|| invalid("an iterator answer without its fd")),
                errno => Err(io::Error::from_raw_os_error(
                    i32::try_from(errno).unwrap_or(libc::EIO),
                )),
            };
        }
        Err(invalid("no answer among the exit reports"))
    }

    pub fn tasks(&self) -> &[TaskRecord] {
        &self.tasks[..self.task_count]
    }

    /// The exit reports since the last call, as [`crate::records::probe::Probe::drain_exits`].
    pub fn drain_exits(&mut self, out: &mut Vec<ExitRecord>) -> io::Result<()> {
        out.clear();
        out.append(&mut self.pending_exits);
        let result = self.receive_exits(out);
        self.on_error(result)
    }

    /// Takes the exit reports waiting in the socket, without waiting for more.
    fn receive_exits(&mut self, out: &mut Vec<ExitRecord>) -> io::Result<()> {
        self.connection()?;
        let connection = self.connection.as_ref().expect("connected above");
        for _ in 0..MAX_MESSAGES_PER_SAMPLE {
            let len = match fds::try_receive(&connection.socket, &mut self.message) {
                Ok((0, _)) => return Err(closed()),
                Ok((len, _)) => len,
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(err) => return Err(err),
            };
            take_exits(&self.message[..len], &mut self.lost_seen, out)?;
        }
        Ok(())
    }
}

/// Decodes an exits message into `out`, logging reports the service had to drop.
fn take_exits(bytes: &[u8], lost_seen: &mut u64, out: &mut Vec<ExitRecord>) -> io::Result<()> {
    let lost_total = wire::decode_exits(bytes, out).map_err(invalid)?;
    if lost_total > *lost_seen {
        tracing::warn!(
            lost = lost_total - *lost_seen,
            "exit reports the service had to drop"
        );
        *lost_seen = lost_total;
    }
    Ok(())
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "the service closed")
}

fn invalid(why: impl ToString) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("probe service: {}", why.to_string()),
    )
}
