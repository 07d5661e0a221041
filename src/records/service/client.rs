//! The bar's side of the probe service: the same records as the in-process probe, with
//! no capability. The service pushes exit reports as they come; a sample takes what
//! waits in the socket without waiting for the service. A report may thus arrive a sample
//! after its process vanished from the iterator, which the model allows for (it counts
//! only what it had not counted). When the service goes away the sample fails; the next
//! one connects again, and the model (kept by the collector) loses nothing but the exits
//! in between.
//!
//! The task records come from a walk the service runs as this client (its SO_PEERCRED
//! ids), lent through a sealed memfd this process maps read-only (see
//! [`super::lent`]); the request goes out when the sample starts, so the service walks
//! while this process reads its system files. Where the service does not walk for it (no
//! walker, another PID namespace), an iterator instance reads, as this process.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::net::{
    connect, socket_with, sockopt, AddressFamily, SocketAddrUnix, SocketFlags, SocketType,
};

use rustix::fs::{fcntl_get_seals, fstat, SealFlags};

use super::fds;
use crate::model::record::{ExitRecord, TaskRecord};
use crate::records::mapping::Mapping;
use crate::records::probe::{read_records, INITIAL_TASKS};
use crate::records::wire::{self, Op};

/// A service that does not answer within this long is treated as gone.
const TIMEOUT: Duration = Duration::from_secs(1);
/// How long the bar's first connection waits for the greeting. A socket-activated service
/// loads the probe (the kernel verifies it) before it greets anyone, which takes seconds
/// on a busy machine; the bar would otherwise read /proc for the whole session. Only the
/// start-up waits this long: a reconnection mid-session waits [`TIMEOUT`], and tries
/// again at the next sample.
const FIRST_GREETING_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a sample spends taking the exit reports waiting in the socket, so that a
/// service that floods it cannot hold a sample: the rest waits for the next. (A steady
/// stream of exits makes a message per drain, up to 100 a second; taking one is a few µs.)
const MAX_DRAIN_TIME: Duration = Duration::from_millis(10);
/// Exit reports kept while waiting for an answer, at most; more are dropped, and said so.
const MAX_PENDING_EXITS: usize = 1 << 16;
/// Exit reports kept waiting without giving room back: a busy machine's sample's worth.
const EXITS_ROOM: usize = 1024;
/// The largest memfd of records a client maps (7 million tasks): a service that sends a
/// bigger one is broken.
const MAX_LENT_BYTES: u64 = 1 << 30;

struct Connection {
    socket: OwnedFd,
    link: OwnedFd,
    /// Whether this process may create iterator instances itself (else it asks).
    own_iterators: bool,
    /// Whether the service walks the tasks for this client (until it says it does not).
    walks: bool,
    /// A walk request is out, its answer not yet read.
    walk_sent: bool,
    /// The walks' records, once the service lent them.
    lent: Option<Mapping>,
}

pub struct RemoteProbe {
    path: PathBuf,
    connection: Option<Connection>,
    tasks: Vec<TaskRecord>,
    task_count: usize,
    message: Vec<u8>,
    request: Vec<u8>,
    lost_seen: u64,
    /// Exit reports that came while waiting for an answer, for the next drain.
    pending_exits: Vec<ExitRecord>,
    /// The records the last sample's walk left in the lent memfd, and when it walked
    /// (`None`: the iterator read).
    walked: Option<(usize, u64)>,
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
            walked: None,
        };
        remote.connection = Some(remote.open(FIRST_GREETING_TIMEOUT)?);
        Ok(remote)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn open(&mut self, greeting_timeout: Duration) -> io::Result<Connection> {
        let socket = socket_with(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )?;
        connect(&socket, &SocketAddrUnix::new(&self.path)?)?;
        sockopt::set_socket_timeout(&socket, sockopt::Timeout::Send, Some(TIMEOUT))?;
        sockopt::set_socket_timeout(&socket, sockopt::Timeout::Recv, Some(greeting_timeout))?;
        let (len, link) = fds::receive(&socket, &mut self.message)?;
        sockopt::set_socket_timeout(&socket, sockopt::Timeout::Recv, Some(TIMEOUT))?;
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
            walks: true,
            walk_sent: false,
            lent: None,
        })
    }

    /// The connection, made again if the service went away since the last sample.
    fn connection(&mut self) -> io::Result<&mut Connection> {
        if self.connection.is_none() {
            self.connection = Some(self.open(TIMEOUT)?);
        }
        Ok(self.connection.as_mut().expect("just connected"))
    }

    /// Forgets the connection after an error, so the next sample connects again.
    fn on_error<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(err) = &result {
            self.walked = None;
            if self.connection.take().is_some() {
                tracing::warn!("probe service: {err}; connecting again at the next sample");
            }
        }
        result
    }

    /// One sample's records, as [`crate::records::probe::Probe::read_tasks`]: the time
    /// they are of, where the service walked them.
    pub fn read_tasks(&mut self) -> io::Result<Option<u64>> {
        let result = self.read_tasks_connected();
        self.on_error(result)
    }

    /// Asks the service for a walk now, so that it walks while the sample reads its other
    /// files; [`RemoteProbe::read_tasks`] then takes the answer. A failure here shows
    /// there.
    pub fn request_walk(&mut self) {
        let Some(connection) = self.connection.as_mut() else {
            return;
        };
        if connection.walks && !connection.walk_sent {
            wire::encode_request(Op::Walk, &mut self.request);
            connection.walk_sent =
                fds::send(connection.socket.as_fd(), &self.request, None).is_ok();
        }
    }

    fn read_tasks_connected(&mut self) -> io::Result<Option<u64>> {
        self.walked = self.walk()?;
        if let Some((_, walked_ns)) = self.walked {
            return Ok(Some(walked_ns));
        }
        let iterator = self.iterator()?;
        self.task_count = read_records(&mut File::from(iterator), &mut self.tasks)?;
        Ok(None)
    }

    /// The service's walk for this client: the records it left in the lent memfd and
    /// when, or `None` where the iterator reads this sample.
    fn walk(&mut self) -> io::Result<Option<(usize, u64)>> {
        let connection = self.connection()?;
        if !connection.walks {
            return Ok(None);
        }
        if !connection.walk_sent {
            wire::encode_request(Op::Walk, &mut self.request);
            let connection = self.connection.as_ref().expect("connected above");
            fds::send(connection.socket.as_fd(), &self.request, None)?;
        }
        let (len, fd) = self.receive_answer(Op::Walk)?;
        let walked = wire::decode_walked(&self.message[..len]).map_err(invalid)?;
        let connection = self.connection.as_mut().expect("connected above");
        connection.walk_sent = false;
        if let Some(fd) = fd {
            connection.lent = Some(map_lent(fd)?);
        }
        match walked.status {
            0 => {
                let capacity = connection.lent.as_ref().map_or(0, Mapping::record_capacity);
                if walked.count as usize > capacity {
                    return Err(invalid("a walk of more records than were lent"));
                }
                Ok(Some((walked.count as usize, walked.walked_ns)))
            }
            errno if errno == libc::EOVERFLOW as u32 => Ok(None),
            errno => {
                let why = io::Error::from_raw_os_error(i32::try_from(errno).unwrap_or(libc::EIO));
                tracing::info!("the probe service does not walk the tasks for this process ({why}): the task iterator reads");
                connection.walks = false;
                Ok(None)
            }
        }
    }

    /// Waits for the answer of kind `op`; exit reports that come first are kept for the
    /// next drain. Its length in `self.message`, and the fd that came with it.
    fn receive_answer(&mut self, op: Op) -> io::Result<(usize, Option<OwnedFd>)> {
        let connection = self.connection.as_ref().ok_or_else(closed)?;
        // However many reports came since the last sample: they are in the socket
        // before the answer. Each receive waits at most TIMEOUT, and so does the whole.
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let (len, fd) = fds::receive(&connection.socket, &mut self.message)?;
            let bytes = &self.message[..len];
            if len == 0 {
                return Err(closed());
            }
            match wire::service_message_op(bytes).map_err(invalid)? {
                Op::Exits => {
                    take_exits(bytes, &mut self.lost_seen, &mut self.pending_exits)?;
                    if self.pending_exits.len() > MAX_PENDING_EXITS {
                        let dropped = self.pending_exits.len() - MAX_PENDING_EXITS;
                        self.pending_exits.drain(..dropped);
                        tracing::warn!(dropped, "exit reports dropped while waiting for an answer");
                    }
                }
                got if got == op => return Ok((len, fd)),
                _ => return Err(invalid("an answer to another request")),
            }
            if Instant::now() >= deadline {
                return Err(invalid("no answer within 1 s, only exit reports"));
            }
        }
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
        wire::encode_request(Op::Iterator, &mut self.request);
        let connection = self.connection.as_ref().expect("connected above");
        fds::send(connection.socket.as_fd(), &self.request, None)?;
        let (len, fd) = self.receive_answer(Op::Iterator)?;
        match wire::decode_iterator(&self.message[..len]).map_err(invalid)? {
            0 => fd.ok_or_else(|| invalid("an iterator answer without its fd")),
            errno => Err(io::Error::from_raw_os_error(
                i32::try_from(errno).unwrap_or(libc::EIO),
            )),
        }
    }

    pub fn tasks(&self) -> &[TaskRecord] {
        let lent = self.connection.as_ref().and_then(|c| c.lent.as_ref());
        match (lent, self.walked.map(|(count, _)| count)) {
            // SAFETY: the service writes the memfd only between a walk request and its
            // answer, and the next request needs `&mut self`, which this borrow excludes.
            (Some(lent), Some(count)) => unsafe { lent.records(count) },
            _ => &self.tasks[..self.task_count],
        }
    }

    /// Sampling stops for a while: the connection closes, so that the service neither
    /// queues exit reports nobody reads nor holds a walk's records for this client; the
    /// next sample connects again.
    pub fn pause(&mut self) {
        if self.connection.take().is_some() {
            tracing::debug!("probe service: disconnected while no sample is taken");
        }
        self.walked = None;
        self.task_count = 0;
        self.pending_exits = Vec::new();
    }

    /// Whether the last sample's records came from the service's walk.
    pub fn walked(&self) -> bool {
        self.walked.is_some()
    }

    /// The exit reports since the last call, as [`crate::records::probe::Probe::drain_exits`].
    pub fn drain_exits(&mut self, out: &mut Vec<ExitRecord>) -> io::Result<()> {
        out.clear();
        out.append(&mut self.pending_exits);
        crate::records::give_back_burst_room(&mut self.pending_exits, EXITS_ROOM);
        let result = self.receive_exits(out);
        self.on_error(result)
    }

    /// Takes the exit reports waiting in the socket, without waiting for more.
    fn receive_exits(&mut self, out: &mut Vec<ExitRecord>) -> io::Result<()> {
        self.connection()?;
        let connection = self.connection.as_ref().expect("connected above");
        let started = Instant::now();
        while started.elapsed() < MAX_DRAIN_TIME {
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

/// Maps the memfd a service lent this client's walks through, read-only, after checking
/// that it cannot shrink under the mapping and holds whole records.
fn map_lent(fd: OwnedFd) -> io::Result<Mapping> {
    let seals = fcntl_get_seals(&fd)?;
    if !seals.contains(SealFlags::SHRINK | SealFlags::FUTURE_WRITE) {
        return Err(invalid("lent records that are not sealed"));
    }
    let size = u64::try_from(fstat(&fd)?.st_size).unwrap_or(0);
    let record = std::mem::size_of::<TaskRecord>() as u64;
    if size == 0 || size % record != 0 || size > MAX_LENT_BYTES {
        return Err(invalid(format!("lent records of {size} bytes")));
    }
    Mapping::read_only(&fd, size as usize)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::service::lent::{LentRecords, SEALS};
    use rustix::fs::{fcntl_add_seals, ftruncate, memfd_create, MemfdFlags};

    fn memfd(records: u64, seals: SealFlags) -> OwnedFd {
        let fd = memfd_create("test", MemfdFlags::ALLOW_SEALING).expect("memfd");
        ftruncate(&fd, records * std::mem::size_of::<TaskRecord>() as u64).expect("size");
        fcntl_add_seals(&fd, seals).expect("seal");
        fd
    }

    #[test]
    fn only_sealed_whole_records_are_mapped() {
        let lent = LentRecords::new(8).expect("lent");
        let mapping = map_lent(lent.reader_fd().expect("fd")).expect("the service's memfd");
        assert_eq!(mapping.record_capacity(), 8);
        assert!(map_lent(memfd(8, SEALS)).is_ok());
        let unsealed = map_lent(memfd(8, SealFlags::empty())).map(|_| ());
        assert!(
            unsealed.is_err(),
            "a file that may shrink under the mapping"
        );
        assert!(map_lent(memfd(0, SEALS)).is_err(), "empty");
        let torn = memfd_create("torn", MemfdFlags::ALLOW_SEALING).expect("memfd");
        ftruncate(&torn, 100).expect("size");
        fcntl_add_seals(&torn, SEALS).expect("seal");
        assert!(map_lent(torn).is_err(), "not whole records");
    }
}
