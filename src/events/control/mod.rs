//! The control channel behind `ringbar msg`: every running instance listens on
//! `$XDG_RUNTIME_DIR/ringbar/<kind>.<pid>.sock`; a client writes one command word and a
//! newline, the instance answers `ok` or an error and closes. Only our own user is heard.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fs::{self, DirBuilder};
use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::rc::{Rc, Weak};
use std::time::Duration;

use gtk4::glib::{self, thread_guard::ThreadGuard, ControlFlow, IOCondition, Priority};

pub use crate::model::controls::Request;

/// The longest line a client may send; anything longer is an unknown command.
pub(super) const MAX_LINE: usize = 64;
/// A client that has not sent its line by then is dropped, so it cannot pin a connection.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(1);

/// What `ringbar msg WORD` asks a running instance to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// A change to the monitor's settings, as a click makes it.
    Monitor(Request),
    Reload,
}

impl Message {
    pub const ALL: [Message; 4] = [
        Message::Monitor(Request::CycleInterval),
        Message::Monitor(Request::ToggleKernelThreads),
        Message::Monitor(Request::ToggleGroupBy),
        Message::Reload,
    ];

    pub fn parse(word: &str) -> Option<Message> {
        Self::ALL.into_iter().find(|command| command.word() == word)
    }

    pub fn word(self) -> &'static str {
        match self {
            Message::Monitor(Request::CycleInterval) => "cycle-interval",
            Message::Monitor(Request::ToggleKernelThreads) => "toggle-kernel-threads",
            Message::Monitor(Request::ToggleGroupBy) => "toggle-group-by",
            Message::Reload => "reload",
        }
    }
}

/// A running instance's listening socket; the socket file is removed on drop.
pub struct Server {
    path: PathBuf,
    shared: Rc<Shared>,
}

/// What the main-loop callbacks reach through a `Weak`, so a dropped `Server` ends them.
struct Shared {
    listener: UnixListener,
    context: glib::MainContext,
    /// The only uid whose commands are obeyed (ours, except in a test).
    peer_uid: u32,
    on_command: Box<dyn Fn(Message)>,
    accept_watch: glib::Source,
    clients: RefCell<HashMap<u64, Client>>,
    next_client: Cell<u64>,
}

/// A connection still waiting for its line.
struct Client {
    stream: UnixStream,
    line: Vec<u8>,
    watch: glib::Source,
    timer: glib::Source,
}

impl Server {
    /// Listens on `DIR/ringbar/<kind>.<pid>.sock` (DIR = the user's XDG_RUNTIME_DIR; the `ringbar`
    /// subdirectory is created with mode 0700 and must be owned by us and not group/world accessible,
    /// else refuse with an error). Connections are served on the thread-default glib MainContext
    /// (the GTK main loop in the bar; a plain glib::MainLoop in `--waybar` mode): `on_command` runs there.
    /// kind is "bar" or "waybar".
    pub fn start(
        runtime_dir: &Path,
        kind: &str,
        on_command: impl Fn(Message) + 'static,
    ) -> io::Result<Server> {
        let dir = runtime_dir.join("ringbar");
        match DirBuilder::new().mode(0o700).create(&dir) {
            Err(err) if err.kind() != ErrorKind::AlreadyExists => return Err(err),
            _ => check_private(&dir)?,
        }
        let path = dir.join(format!("{kind}.{}.sock", std::process::id()));
        Self::listen(path, effective_uid(), Box::new(on_command))
    }

    fn listen(path: PathBuf, peer_uid: u32, on_command: Box<dyn Fn(Message)>) -> io::Result<Self> {
        // Only a process that had our pid before can have left this one behind.
        match fs::remove_file(&path) {
            Err(err) if err.kind() != ErrorKind::NotFound => return Err(err),
            _ => {}
        }
        let listener = UnixListener::bind(&path)?;
        let context = glib::MainContext::ref_thread_default();
        let shared = Rc::new_cyclic(|weak: &Weak<Shared>| {
            let weak = weak.clone();
            let on_connection = move || match weak.upgrade() {
                Some(shared) => accept_all(&shared),
                None => ControlFlow::Break,
            };
            Shared {
                accept_watch: watch_fd(&context, listener.as_raw_fd(), on_connection),
                listener,
                context,
                peer_uid,
                on_command,
                clients: RefCell::new(HashMap::new()),
                next_client: Cell::new(0),
            }
        });
        // The watch fires only once the main loop runs; a failure before that drops the
        // server, which removes the file again.
        let server = Server { path, shared };
        fs::set_permissions(&server.path, fs::Permissions::from_mode(0o600))?;
        server.shared.listener.set_nonblocking(true)?;
        Ok(server)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.accept_watch.destroy();
        for (_, client) in self.shared.clients.take() {
            client.watch.destroy();
            client.timer.destroy();
        }
        let _ = fs::remove_file(&self.path);
    }
}

/// Takes every pending connection; a peer of another user is turned away unheard.
fn accept_all(shared: &Rc<Shared>) -> ControlFlow {
    loop {
        let stream = match shared.listener.accept() {
            Ok((stream, _)) => stream,
            Err(err) if err.kind() == ErrorKind::Interrupted => continue,
            Err(err) if err.kind() == ErrorKind::WouldBlock => return ControlFlow::Continue,
            Err(err) => {
                tracing::warn!("control socket: accept failed: {err}");
                return ControlFlow::Continue;
            }
        };
        match peer_uid(&stream) {
            Ok(uid) if uid == shared.peer_uid => {}
            Ok(uid) => {
                tracing::warn!("control socket: ignoring a connection from uid {uid}");
                continue;
            }
            Err(err) => {
                tracing::warn!("control socket: ignoring a peer it cannot identify: {err}");
                continue;
            }
        }
        if stream.set_nonblocking(true).is_err() {
            continue;
        }
        let id = shared.next_client.get();
        shared.next_client.set(id + 1);
        let weak = Rc::downgrade(shared);
        let watch = watch_fd(&shared.context, stream.as_raw_fd(), move || {
            on_event(&weak, id, false)
        });
        let weak = Rc::downgrade(shared);
        let on_timeout = guarded(move || on_event(&weak, id, true));
        let timer = glib::timeout_source_new(CLIENT_TIMEOUT, None, Priority::DEFAULT, on_timeout);
        timer.attach(Some(&shared.context));
        let line = Vec::with_capacity(MAX_LINE);
        let client = Client {
            stream,
            line,
            watch,
            timer,
        };
        shared.clients.borrow_mut().insert(id, client);
    }
}

/// Client `id` can be read (or took too long): once its line is complete, answers and
/// acts on it; either way a finished client is forgotten and its sources removed.
fn on_event(weak: &Weak<Shared>, id: u64, timed_out: bool) -> ControlFlow {
    let Some(shared) = weak.upgrade() else {
        return ControlFlow::Break;
    };
    let mut clients = shared.clients.borrow_mut();
    // A busy main loop may run the timer before the read: what has arrived still counts.
    let complete = match clients.get_mut(&id).map(Client::read_line) {
        Some(Ok(false)) if timed_out => Err(ErrorKind::TimedOut.into()),
        Some(complete) => complete,
        None => return ControlFlow::Break,
    };
    if let Ok(false) = complete {
        return ControlFlow::Continue;
    }
    let Some(client) = clients.remove(&id) else {
        return ControlFlow::Break;
    };
    // on_command may drop the Server, which takes the clients too.
    drop(clients);
    client.watch.destroy();
    client.timer.destroy();
    if complete.is_ok() {
        let command = parse_line(&client.line);
        let reply: &[u8] = match command {
            Some(_) => b"ok\n",
            None => b"error: unknown command\n",
        };
        // A few bytes into an empty socket buffer; a client that is gone just misses them.
        let _ = (&client.stream).write_all(reply);
        drop(client.stream);
        if let Some(command) = command {
            (shared.on_command)(command);
        }
    }
    ControlFlow::Break
}

/// The command on the first line of `bytes`, if it names one.
fn parse_line(bytes: &[u8]) -> Option<Message> {
    let line = bytes.split(|&b| b == b'\n').next()?;
    Message::parse(std::str::from_utf8(line).ok()?.trim())
}

impl Client {
    /// Reads what has arrived: whether the line is complete (a newline, the end of the
    /// stream or `MAX_LINE` bytes).
    fn read_line(&mut self) -> io::Result<bool> {
        let mut chunk = [0; MAX_LINE];
        while self.line.len() < MAX_LINE && !self.line.contains(&b'\n') {
            match self.stream.read(&mut chunk[..MAX_LINE - self.line.len()]) {
                Ok(0) => break,
                Ok(n) => self.line.extend_from_slice(&chunk[..n]),
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                Err(err) if err.kind() == ErrorKind::WouldBlock => return Ok(false),
                Err(err) => return Err(err),
            }
        }
        Ok(true)
    }
}

/// Makes a main-thread closure acceptable to the `Send`-bound source constructors: the
/// sources are attached to this thread's context, so it only ever runs (and drops) here.
fn guarded(func: impl FnMut() -> ControlFlow + 'static) -> impl FnMut() -> ControlFlow + Send {
    let mut func = ThreadGuard::new(func);
    move || (func.get_mut())()
}

/// Calls `func` on `context` whenever `fd` is readable (or hung up).
fn watch_fd(
    context: &glib::MainContext,
    fd: i32,
    func: impl FnMut() -> ControlFlow + 'static,
) -> glib::Source {
    let mut func = guarded(func);
    let condition = IOCondition::IN | IOCondition::HUP | IOCondition::ERR;
    let source =
        glib_unix::fd_source_new(fd, condition, None, Priority::DEFAULT, move |_, _| func());
    source.attach(Some(context));
    source
}

/// Refuses a directory another user owns or can reach: its sockets decide who gets our
/// commands, and which commands we obey.
pub(super) fn check_private(dir: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(dir)?;
    if meta.is_dir() && meta.uid() == effective_uid() && meta.mode() & 0o077 == 0 {
        return Ok(());
    }
    let message = format!("{} is not a private directory of ours", dir.display());
    Err(io::Error::new(ErrorKind::PermissionDenied, message))
}

fn effective_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The uid of the process at the other end, as the kernel recorded it at connect time.
fn peer_uid(stream: &UnixStream) -> io::Result<u32> {
    let cred = rustix::net::sockopt::socket_peercred(stream)?;
    Ok(cred.uid.as_raw())
}

#[cfg(test)]
mod tests;

mod client;
pub use client::{send, Delivery};
