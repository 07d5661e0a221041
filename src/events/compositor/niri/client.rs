//! The niri backend: one connection reads the event stream, and each action is a request
//! on a connection of its own (niri answers one line, and closes once ours is shut for
//! writing). A batch of events read in one wake-up is published once.

use std::cell::RefCell;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::rc::{Rc, Weak};

use gtk4::glib::{self, ControlFlow, IOCondition};

use super::super::backend::{Backend, Start};
use super::super::io::{self, Retry};
use super::super::lines::LineReader;
use super::super::oneshot::OneShots;
use super::super::shared::Shared;
use super::super::Workspace;
use super::{focus_workspace, reply_ok, Event, Niri, EVENT_STREAM, MAX_LINE, NEXT_LAYOUT};

const WHAT: &str = "niri IPC";
/// Bytes read per wake-up before other sources get their turn.
const READ_BUDGET: usize = 1 << 20;

pub(in super::super) const START: Start = |path, shared| NiriClient::start(path, shared);

struct NiriClient {
    path: PathBuf,
    shared: Rc<Shared>,
    me: Weak<NiriClient>,
    stream: RefCell<Option<Stream>>,
    niri: RefCell<Niri>,
    requests: Rc<OneShots>,
    retry: Retry,
}

struct Stream {
    socket: UnixStream,
    lines: LineReader,
    watch: glib::Source,
    /// niri said yes to the event stream (its first line).
    answered: bool,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.watch.destroy();
    }
}

impl NiriClient {
    fn start(path: PathBuf, shared: Rc<Shared>) -> Rc<NiriClient> {
        let client = Rc::new_cyclic(|me| NiriClient {
            path,
            shared,
            me: me.clone(),
            stream: RefCell::new(None),
            niri: RefCell::new(Niri::default()),
            requests: OneShots::half_closing(),
            retry: Retry::default(),
        });
        client.connect();
        client
    }

    fn connect(&self) {
        let mut socket = match io::connect(&self.path) {
            Ok(socket) => socket,
            Err(err) => return self.lost(&format!("{}: {err}", self.path.display())),
        };
        // A few bytes into a fresh socket's empty buffer: they go at once or not at all.
        let mut request = EVENT_STREAM.to_vec();
        if let Err(err) = io::write_available(&mut socket, &mut request) {
            return self.lost(&format!("asking for the event stream: {err}"));
        }
        if !request.is_empty() {
            return self.lost("niri does not take the request for the event stream");
        }
        let me = self.me.clone();
        let watch = io::watch(&socket, IOCondition::IN, move || match me.upgrade() {
            Some(client) => client.on_readable(),
            None => ControlFlow::Break,
        });
        self.stream.replace(Some(Stream {
            socket,
            lines: LineReader::new(MAX_LINE),
            watch,
            answered: false,
        }));
    }

    /// The stream stopped: forget the state, try again later.
    fn lost(&self, why: &str) {
        self.stream.take();
        self.requests.cancel_all();
        self.niri.take();
        let me = self.me.clone();
        self.retry.lost(WHAT, why, move || {
            if let Some(client) = me.upgrade() {
                client.connect();
            }
        });
        self.shared.publish(Default::default());
    }

    fn on_readable(&self) -> ControlFlow {
        let mut lines = Vec::new();
        let (result, answered, dropped) = {
            let mut stream = self.stream.borrow_mut();
            let Some(stream) = stream.as_mut() else {
                return ControlFlow::Break;
            };
            let before = stream.lines.dropped();
            let reader = &mut stream.lines;
            let result = io::read_available(&mut stream.socket, READ_BUDGET, |bytes| {
                reader.push(bytes, |line| lines.push(line.to_owned()));
            });
            let dropped = reader.dropped() - before;
            // niri's answer is the first line.
            let answered = stream.answered;
            stream.answered |= !lines.is_empty();
            (result, answered, dropped)
        };
        if dropped > 0 {
            tracing::warn!("{WHAT}: {dropped} event(s) longer than {MAX_LINE} bytes dropped");
        }
        let mut events = lines.iter();
        if !answered {
            match events.next().map(|line| reply_ok(line.as_bytes())) {
                Some(Ok(())) => self.retry.succeeded(WHAT),
                Some(Err(why)) => {
                    self.lost(&format!("the event stream was refused: {why}"));
                    return ControlFlow::Break;
                }
                None => {}
            }
        }
        let mut changed = false;
        for line in events {
            match Event::parse(line) {
                Ok(event) => {
                    self.niri.borrow_mut().apply(event);
                    changed = true;
                }
                Err(why) => tracing::debug!("{WHAT}: an event was not understood: {why}"),
            }
        }
        if changed {
            let state = self.niri.borrow().state();
            self.shared.publish(state);
        }
        match result {
            Ok(false) => ControlFlow::Continue,
            Ok(true) => {
                self.lost("niri closed the event stream");
                ControlFlow::Break
            }
            Err(err) => {
                self.lost(&format!("event stream: {err}"));
                ControlFlow::Break
            }
        }
    }

    fn request(&self, what: &'static str, request: &[u8]) {
        self.requests.send(&self.path, request, move |reply| {
            if let Err(why) = reply.and_then(|line| reply_ok(&line)) {
                tracing::warn!("{WHAT}: {what}: {why}");
            }
        });
    }
}

impl Backend for NiriClient {
    fn focus(&self, workspace: &Workspace) {
        let id = self.niri.borrow().workspace_id(workspace);
        match id {
            Some(id) => self.request("showing a workspace", &focus_workspace(id)),
            None => tracing::warn!("{WHAT}: no workspace {:?} to show", workspace.name),
        }
    }

    fn next_layout(&self) {
        self.request("switching the layout", NEXT_LAYOUT);
    }

    fn stop(&self) {
        self.retry.cancel();
        self.stream.take();
        self.requests.cancel_all();
    }
}
