//! The client side of the control channel: `ringbar msg` and a second start asking the
//! running instances, each within [`SEND_TIMEOUT`], and telling a busy one from none.

use std::fs;
use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use super::{check_private, Message, MAX_LINE};

/// How long `send` waits on one instance (a busy bar answers within a frame or two).
const SEND_TIMEOUT: Duration = Duration::from_secs(2);

/// What the running instances did with a command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delivery {
    /// Instances that answered `ok`.
    pub acted: usize,
    /// Instances that took the command but were too busy to answer in time: they carry it
    /// out once they get to it.
    pub queued: usize,
    /// Instances whose queue stayed full: the command did not reach them.
    pub refused: usize,
}

impl Delivery {
    /// Whether any instance is running.
    pub fn found(self) -> bool {
        self.acted + self.queued + self.refused > 0
    }
}

/// One instance's answer.
enum Answer {
    Ok,
    /// It answered something else than `ok`.
    Other,
    Queued,
    Refused,
}

/// Sends `command` to every running instance of this user (every socket in DIR/ringbar/ that answers).
/// Stale sockets (connection refused) are removed.
pub fn send(runtime_dir: &Path, command: Message) -> io::Result<Delivery> {
    let dir = runtime_dir.join("ringbar");
    match check_private(&dir) {
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(Delivery::default()),
        result => result?,
    }
    let mut delivery = Delivery::default();
    for entry in fs::read_dir(&dir)? {
        let entry = entry?;
        let path = entry.path();
        let is_socket = entry.file_type().is_ok_and(|t| t.is_socket());
        if !is_socket || path.extension().is_none_or(|ext| ext != "sock") {
            continue;
        }
        match ask(&path, command) {
            Ok(Answer::Ok) => delivery.acted += 1,
            Ok(Answer::Queued) => delivery.queued += 1,
            Ok(Answer::Refused) => delivery.refused += 1,
            Ok(Answer::Other) => {
                tracing::warn!("{} did not take {}", path.display(), command.word())
            }
            Err(err) if err.kind() == ErrorKind::ConnectionRefused => {
                let _ = fs::remove_file(&path);
            }
            Err(err) if err.kind() == ErrorKind::NotFound => {}
            Err(err) => tracing::warn!("{}: {err}", path.display()),
        }
    }
    Ok(delivery)
}

/// One exchange with one instance, within [`SEND_TIMEOUT`] for each step.
fn ask(path: &Path, command: Message) -> io::Result<Answer> {
    let Some(stream) = connect(path)? else {
        return Ok(Answer::Refused);
    };
    stream.set_read_timeout(Some(SEND_TIMEOUT))?;
    stream.set_write_timeout(Some(SEND_TIMEOUT))?;
    (&stream).write_all(format!("{}\n", command.word()).as_bytes())?;
    let mut reply = Vec::new();
    // Up to the newline only: the server may reset the connection right after it.
    let read = BufReader::new((&stream).take(MAX_LINE as u64)).read_until(b'\n', &mut reply);
    match read {
        // The line is in the instance's socket: it reads it once its main loop gets to it.
        Err(err) if matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            Ok(Answer::Queued)
        }
        Err(err) => Err(err),
        Ok(_) if reply == b"ok\n" => Ok(Answer::Ok),
        Ok(_) => Ok(Answer::Other),
    }
}

/// Connects to an instance's socket, waiting at most [`SEND_TIMEOUT`] while its queue of
/// connections is full (a busy instance); `None` if it stayed full.
fn connect(path: &Path) -> io::Result<Option<UnixStream>> {
    use rustix::net::{sockopt, AddressFamily, SocketAddrUnix, SocketType};
    let socket = rustix::net::socket(AddressFamily::UNIX, SocketType::STREAM, None)?;
    // A Unix socket's connect waits for room in the listener's queue this long.
    sockopt::set_socket_timeout(&socket, sockopt::Timeout::Send, Some(SEND_TIMEOUT))?;
    match rustix::net::connect(&socket, &SocketAddrUnix::new(path)?) {
        Ok(()) => Ok(Some(UnixStream::from(socket))),
        Err(rustix::io::Errno::AGAIN) => Ok(None),
        Err(err) => Err(err.into()),
    }
}
