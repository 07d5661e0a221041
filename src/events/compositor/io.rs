//! Socket plumbing for the compositor clients (and the sound plugin's), all on the
//! thread-default glib main context: non-blocking connects, fd watches, timers, reads with a cap, and the
//! reconnect backoff with its once-per-outage log.

use std::cell::{Cell, RefCell};
use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use gtk4::glib::{self, thread_guard::ThreadGuard, ControlFlow, IOCondition, Priority};

/// The first delay before a reconnect, doubled after each failure up to [`MAX_BACKOFF`].
pub const MIN_BACKOFF: Duration = Duration::from_millis(500);
pub const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// Connects to the Unix socket at `path` without ever waiting: a compositor whose
/// listen queue is full (hung) gives `WouldBlock` instead of stalling the bar. The
/// stream is non-blocking and close-on-exec.
pub fn connect(path: &Path) -> io::Result<UnixStream> {
    use rustix::net::{socket_with, AddressFamily, SocketAddrUnix, SocketFlags, SocketType};
    let bytes = path.as_os_str().as_bytes();
    let addr = SocketAddrUnix::new(path)
        .ok()
        .filter(|_| !bytes.contains(&0))
        .ok_or_else(|| {
            let message = format!("{}: not a usable socket path", path.display());
            io::Error::new(ErrorKind::InvalidInput, message)
        })?;
    let flags = SocketFlags::NONBLOCK | SocketFlags::CLOEXEC;
    let fd = socket_with(AddressFamily::UNIX, SocketType::STREAM, flags, None)?;
    rustix::net::connect(&fd, &addr)?;
    Ok(UnixStream::from(fd))
}

/// Reads what has arrived into `sink`, at most `budget` bytes in this call (so one
/// chatty peer cannot hold the main loop). `Ok(true)` at the end of the stream.
pub fn read_available(
    stream: &mut UnixStream,
    budget: usize,
    mut sink: impl FnMut(&[u8]),
) -> io::Result<bool> {
    let mut chunk = [0; 16 << 10];
    let mut total = 0;
    while total < budget {
        match stream.read(&mut chunk) {
            Ok(0) => return Ok(true),
            Ok(n) => {
                total += n;
                sink(&chunk[..n]);
            }
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) if err.kind() == ErrorKind::WouldBlock => return Ok(false),
            Err(err) => return Err(err),
        }
    }
    Ok(false)
}

/// Writes as much of `out` as the socket takes now and removes it from `out`.
pub fn write_available(stream: &mut UnixStream, out: &mut Vec<u8>) -> io::Result<()> {
    let mut written = 0;
    while written < out.len() {
        match stream.write(&out[written..]) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => written += n,
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) if err.kind() == ErrorKind::WouldBlock => break,
            Err(err) => return Err(err),
        }
    }
    out.drain(..written);
    Ok(())
}

/// Makes a main-thread closure acceptable to the `Send`-bound source constructors: the
/// sources are attached to this thread's context, so it only ever runs (and drops) here.
fn guarded(func: impl FnMut() -> ControlFlow + 'static) -> impl FnMut() -> ControlFlow + Send {
    let mut func = ThreadGuard::new(func);
    move || (func.get_mut())()
}

/// Calls `func` whenever `fd` is ready for `condition` (or hung up, or failed).
pub fn watch(
    fd: &impl AsRawFd,
    condition: IOCondition,
    func: impl FnMut() -> ControlFlow + 'static,
) -> glib::Source {
    let mut func = guarded(func);
    let condition = condition | IOCondition::HUP | IOCondition::ERR;
    let source = glib_unix::fd_source_new(
        fd.as_raw_fd(),
        condition,
        None,
        Priority::DEFAULT,
        move |_, _| func(),
    );
    source.attach(Some(&glib::MainContext::ref_thread_default()));
    source
}

/// Calls `func` once after `delay`.
pub fn after(delay: Duration, func: impl FnOnce() + 'static) -> glib::Source {
    let mut func = Some(func);
    let once = guarded(move || {
        if let Some(func) = func.take() {
            func();
        }
        ControlFlow::Break
    });
    let source = glib::timeout_source_new(delay, None, Priority::DEFAULT, once);
    source.attach(Some(&glib::MainContext::ref_thread_default()));
    source
}

/// A backend's one pending timer (its reconnect, or a later query), and the reconnect
/// [`Backoff`].
#[derive(Debug, Default)]
pub struct Retry {
    backoff: Backoff,
    timer: RefCell<Option<glib::Source>>,
}

impl Retry {
    /// A lost connection: logs `why` once per outage and runs `reconnect` after the
    /// backoff's next delay, in place of what was pending.
    pub fn lost(&self, what: &str, why: &str, reconnect: impl FnOnce() + 'static) {
        self.backoff.failed(what, why);
        self.after(self.backoff.next_delay(), reconnect);
    }

    /// Runs `then` after `delay`, in place of what was pending.
    pub fn after(&self, delay: Duration, then: impl FnOnce() + 'static) {
        if let Some(old) = self.timer.replace(Some(after(delay, then))) {
            old.destroy();
        }
    }

    /// It works (again): see [`Backoff::succeeded`].
    pub fn succeeded(&self, what: &str) {
        self.backoff.succeeded(what);
    }

    /// Drops what is pending.
    pub fn cancel(&self) {
        if let Some(old) = self.timer.take() {
            old.destroy();
        }
    }
}

/// The reconnect delay, and whether the current outage was logged.
#[derive(Debug)]
pub struct Backoff {
    next: Cell<Duration>,
    down: Cell<bool>,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            next: Cell::new(MIN_BACKOFF),
            down: Cell::new(false),
        }
    }
}

impl Backoff {
    /// The delay before the next attempt; the one after it is twice as long.
    pub fn next_delay(&self) -> Duration {
        let delay = self.next.get();
        self.next.set((delay * 2).min(MAX_BACKOFF));
        delay
    }

    /// A failure: logged at warn level once per outage.
    pub fn failed(&self, what: &str, why: &str) {
        if !self.down.replace(true) {
            tracing::warn!("{what}: {why}; retrying in the background");
        }
    }

    /// It works (again): the delay starts over, and the end of an outage is logged.
    pub fn succeeded(&self, what: &str) {
        self.next.set(MIN_BACKOFF);
        if self.down.replace(false) {
            tracing::info!("{what}: connected again");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_to_its_cap_and_starts_over_after_success() {
        let backoff = Backoff::default();
        let delays: Vec<u64> = (0..8)
            .map(|_| backoff.next_delay().as_millis() as u64)
            .collect();
        assert_eq!(
            delays,
            [500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]
        );
        backoff.failed("test", "down");
        assert!(backoff.down.get());
        backoff.succeeded("test");
        assert!(!backoff.down.get());
        assert_eq!(backoff.next_delay(), MIN_BACKOFF);
    }

    #[test]
    fn connect_fails_at_once_without_a_listener_and_reaches_one() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("sock");
        let err = connect(&path).expect_err("nothing listens");
        assert_eq!(err.kind(), ErrorKind::NotFound);
        let long = dir.path().join("x".repeat(200));
        assert_eq!(
            connect(&long).expect_err("too long").kind(),
            ErrorKind::InvalidInput
        );
        let listener = std::os::unix::net::UnixListener::bind(&path).expect("bind");
        let mut stream = connect(&path).expect("connect");
        let (mut peer, _) = listener.accept().expect("accept");
        peer.write_all(b"hello").expect("write");
        drop(peer);
        let mut got = Vec::new();
        // Non-blocking: poll until the bytes and the end of the stream are there.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while !read_available(&mut stream, 1 << 20, |b| got.extend_from_slice(b)).expect("read") {
            assert!(std::time::Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(got, b"hello");
    }
}
