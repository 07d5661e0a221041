//! The sway backend: one connection subscribed to workspace, output, window and mode
//! events, and one for requests. Each event that can change the workspaces asks for
//! GET_WORKSPACES and GET_TREE again on the second connection; events that arrive while
//! those are under way make one more round afterwards, so a burst costs two at most.
//! A title change of the focused window is taken from the event itself.

use std::cell::{Cell, RefCell};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::rc::{Rc, Weak};

use gtk4::glib::{self, ControlFlow, IOCondition};

use super::super::backend::{Backend, Start};
use super::super::io::{self, Retry};
use super::super::shared::Shared;
use super::super::{CompositorState, Workspace};
use super::{self as sway, input as sway_input, Decoder, EventAction};

/// Requests and commands waiting for a socket that does not take them: past this the
/// connection is dropped as stuck.
const MAX_OUT: usize = 1 << 20;
/// Bytes read per wake-up before other sources get their turn.
const READ_BUDGET: usize = 1 << 20;
const WHAT: &str = "sway IPC";

pub(super) struct Sway {
    path: PathBuf,
    shared: Rc<Shared>,
    me: Weak<Sway>,
    conn: RefCell<Option<Connection>>,
    retry: Retry,
    /// An event of the batch being read asks for a refresh (one for the whole batch).
    wanted: Cell<bool>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Events,
    Queries,
}

struct Connection {
    events: Stream,
    queries: Stream,
    /// GET_WORKSPACES and GET_TREE are under way.
    refreshing: bool,
    /// Something changed while they were: ask again when they are back.
    again: bool,
    /// The GET_WORKSPACES reply, waiting for its tree.
    workspaces: Option<Vec<Workspace>>,
    /// Which of [`sway::SUBSCRIPTIONS`] was asked for.
    subscription: usize,
}

struct Stream {
    socket: UnixStream,
    decoder: Decoder,
    out: Vec<u8>,
    read_watch: glib::Source,
    write_watch: Option<glib::Source>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.read_watch.destroy();
        if let Some(watch) = self.write_watch.take() {
            watch.destroy();
        }
    }
}

pub(in super::super) const START: Start = |path, shared| Sway::start(path, shared);

impl Sway {
    fn start(path: PathBuf, shared: Rc<Shared>) -> Rc<Sway> {
        let sway = Rc::new_cyclic(|me| Sway {
            path,
            shared,
            me: me.clone(),
            conn: RefCell::new(None),
            retry: Retry::default(),
            wanted: Cell::new(false),
        });
        sway.connect();
        sway
    }

    fn stream(&self, which: Which) -> std::io::Result<Stream> {
        let socket = io::connect(&self.path)?;
        let me = self.me.clone();
        let read_watch = io::watch(&socket, IOCondition::IN, move || match me.upgrade() {
            Some(sway) => sway.on_readable(which),
            None => ControlFlow::Break,
        });
        Ok(Stream {
            socket,
            decoder: Decoder::new(),
            out: Vec::new(),
            read_watch,
            write_watch: None,
        })
    }

    fn connect(&self) {
        let connection = self.stream(Which::Events).and_then(|events| {
            Ok(Connection {
                events,
                queries: self.stream(Which::Queries)?,
                refreshing: false,
                again: false,
                workspaces: None,
                subscription: 0,
            })
        });
        match connection {
            Ok(connection) => {
                self.conn.replace(Some(connection));
                // The state is asked for once the subscription holds (see `subscribed`).
                self.subscribe(0);
            }
            Err(err) => self.lost(&format!("{}: {err}", self.path.display())),
        }
    }

    fn subscribe(&self, which: usize) {
        let Some(events) = sway::SUBSCRIPTIONS.get(which) else {
            return self.lost("sway refuses to send events");
        };
        if let Some(connection) = self.conn.borrow_mut().as_mut() {
            connection.subscription = which;
        }
        self.send(
            Which::Events,
            &sway::encode(sway::SUBSCRIBE, events.as_bytes()),
        );
    }

    /// The connection is gone or unusable: forget it and the state, try again later.
    fn lost(&self, why: &str) {
        self.conn.take();
        let me = self.me.clone();
        self.retry.lost(WHAT, why, move || {
            if let Some(sway) = me.upgrade() {
                sway.connect();
            }
        });
        self.shared.publish(CompositorState::default());
    }

    /// Queues `message` on one of the streams and writes what the socket takes.
    fn send(&self, which: Which, message: &[u8]) {
        let mut conn = self.conn.borrow_mut();
        let Some(connection) = conn.as_mut() else {
            return;
        };
        let stream = match which {
            Which::Events => &mut connection.events,
            Which::Queries => &mut connection.queries,
        };
        stream.out.extend_from_slice(message);
        let result = self.flush(stream, which);
        drop(conn);
        if let Err(why) = result {
            self.lost(&why);
        }
    }

    /// Writes what waits; watches for room while something is left.
    fn flush(&self, stream: &mut Stream, which: Which) -> Result<(), String> {
        io::write_available(&mut stream.socket, &mut stream.out).map_err(|e| e.to_string())?;
        if stream.out.len() > MAX_OUT {
            return Err("sway does not read its socket".into());
        }
        if stream.out.is_empty() {
            if let Some(watch) = stream.write_watch.take() {
                watch.destroy();
            }
        } else if stream.write_watch.is_none() {
            let me = self.me.clone();
            let watch = io::watch(&stream.socket, IOCondition::OUT, move || {
                let Some(sway) = me.upgrade() else {
                    return ControlFlow::Break;
                };
                sway.send(which, &[]);
                ControlFlow::Continue
            });
            stream.write_watch = Some(watch);
        }
        Ok(())
    }

    /// Asks for the workspaces and the tree, or for one more round after the current.
    fn refresh(&self) {
        let mut conn = self.conn.borrow_mut();
        let Some(connection) = conn.as_mut() else {
            return;
        };
        if connection.refreshing {
            connection.again = true;
            return;
        }
        connection.refreshing = true;
        drop(conn);
        let mut requests = sway::encode(sway::GET_WORKSPACES, b"");
        requests.extend(sway::encode(sway::GET_TREE, b""));
        self.send(Which::Queries, &requests);
    }

    fn on_readable(&self, which: Which) -> ControlFlow {
        let mut messages = Vec::new();
        let result = {
            let mut conn = self.conn.borrow_mut();
            let Some(connection) = conn.as_mut() else {
                return ControlFlow::Break;
            };
            let stream = match which {
                Which::Events => &mut connection.events,
                Which::Queries => &mut connection.queries,
            };
            let decoder = &mut stream.decoder;
            match io::read_available(&mut stream.socket, READ_BUDGET, |b| decoder.push(b)) {
                Ok(ended) => loop {
                    match decoder.next_message() {
                        Ok(Some(message)) => messages.push(message),
                        Ok(None) if ended => break Err("sway closed the connection".to_owned()),
                        Ok(None) => break Ok(()),
                        Err(err) => break Err(format!("dropped the connection: {err}")),
                    }
                },
                Err(err) => Err(format!("lost the connection: {err}")),
            }
        };
        // Messages that arrived whole before the end still count.
        for (kind, payload) in messages {
            if self.conn.borrow().is_none() {
                break;
            }
            match which {
                Which::Events => self.on_event(kind, &payload),
                Which::Queries => self.on_reply(kind, &payload),
            }
        }
        if self.wanted.take() {
            self.refresh();
        }
        match result {
            Ok(()) => ControlFlow::Continue,
            Err(why) => {
                // Still the connection this watch belongs to: `lost` drops its watches.
                if self.conn.borrow().is_some() {
                    self.lost(&why);
                }
                ControlFlow::Break
            }
        }
    }

    /// The events are subscribed to: now the state is asked for. Asked before, on the
    /// other connection, a change between sway's answer and the subscription (a keyboard
    /// plugged in while the bar starts) would be in neither, and missed for good.
    fn subscribed(&self) {
        self.refresh();
        // The layout and the mode, once: their events keep them.
        let mut requests = sway::encode(sway_input::GET_INPUTS, b"");
        requests.extend(sway::encode(sway_input::GET_BINDING_STATE, b""));
        self.send(Which::Queries, &requests);
    }

    fn on_event(&self, kind: u32, payload: &[u8]) {
        if kind == sway::SUBSCRIBE {
            if sway::check_reply(payload).is_ok() {
                return self.subscribed();
            }
            let tried = self.conn.borrow().as_ref().map_or(0, |c| c.subscription);
            let refused = sway::SUBSCRIPTIONS.get(tried).unwrap_or(&"");
            tracing::debug!("{WHAT}: subscribing to {refused} refused");
            self.subscribe(tried + 1);
            return;
        }
        match sway::event_action(kind, payload) {
            EventAction::Requery => self.wanted.set(true),
            EventAction::Title { title, app_id } => {
                let refreshing = self.conn.borrow().as_ref().is_some_and(|c| c.refreshing);
                if refreshing || self.wanted.get() {
                    // The answer under way may predate the new title.
                    self.wanted.set(true);
                } else {
                    self.shared.update(|state| {
                        state.window_title = title;
                        state.window_app_id = app_id;
                    });
                }
            }
            EventAction::Mode(mode) => self.shared.update(|state| state.mode = mode),
            EventAction::Keyboard(keyboard) => {
                self.shared.update(|state| state.keyboard = Some(keyboard));
            }
            EventAction::Ignore => {}
        }
    }

    fn on_reply(&self, kind: u32, payload: &[u8]) {
        match kind {
            sway::GET_WORKSPACES => {
                let parsed = sway::parse_workspaces(payload);
                if let Err(why) = &parsed {
                    tracing::warn!("{WHAT}: {why}");
                }
                if let Some(connection) = self.conn.borrow_mut().as_mut() {
                    connection.workspaces = parsed.ok();
                }
            }
            sway::GET_TREE => {
                let (workspaces, again) = {
                    let mut conn = self.conn.borrow_mut();
                    let Some(connection) = conn.as_mut() else {
                        return;
                    };
                    connection.refreshing = false;
                    let again = std::mem::take(&mut connection.again);
                    (connection.workspaces.take(), again)
                };
                if let Some(workspaces) = workspaces {
                    // The layout and the mode stay as their own replies and events left them.
                    let kept = self.shared.state();
                    let mut state = CompositorState {
                        workspaces,
                        keyboard: kept.keyboard,
                        mode: kept.mode,
                        ..CompositorState::default()
                    };
                    match sway::apply_tree(payload, &mut state) {
                        Ok(()) => {
                            self.retry.succeeded(WHAT);
                            self.shared.publish(state);
                        }
                        Err(why) => tracing::warn!("{WHAT}: {why}"),
                    }
                }
                if again {
                    self.refresh();
                }
            }
            sway::RUN_COMMAND => {
                if let Err(why) = sway::check_reply(payload) {
                    tracing::warn!("{WHAT}: a command failed: {why}");
                }
            }
            sway_input::GET_INPUTS => match sway_input::parse_inputs(payload) {
                Ok(keyboard) => self.shared.update(|state| state.keyboard = keyboard),
                Err(why) => tracing::warn!("{WHAT}: {why}"),
            },
            sway_input::GET_BINDING_STATE => match sway_input::parse_mode(payload) {
                Ok(mode) => self.shared.update(|state| state.mode = mode),
                Err(why) => tracing::debug!("{WHAT}: {why}"),
            },
            _ => {}
        }
    }
}

impl Sway {
    /// Switches to `workspace`; `unwarped`, with Sway's pointer warping off for the
    /// switch and back to `container` after, as Waybar does.
    fn run_workspace_command(&self, workspace: &Workspace, unwarped: bool) {
        let Some(command) = sway::workspace_command(workspace) else {
            tracing::warn!(
                "{WHAT}: cannot write a command for workspace {:?}",
                workspace.name
            );
            return;
        };
        let command = match unwarped {
            true => sway::unwarped(&command),
            false => command,
        };
        tracing::debug!("{WHAT}: {command}");
        self.send(
            Which::Queries,
            &sway::encode(sway::RUN_COMMAND, command.as_bytes()),
        );
    }
}

impl Backend for Sway {
    fn stop(&self) {
        self.retry.cancel();
        self.conn.take();
    }

    /// Switches every keyboard to its next layout.
    fn next_layout(&self) {
        let command = sway_input::NEXT_LAYOUT.as_bytes();
        self.send(Which::Queries, &sway::encode(sway::RUN_COMMAND, command));
    }

    fn focus(&self, workspace: &Workspace) {
        self.run_workspace_command(workspace, false);
    }

    fn focus_without_warping(&self, workspace: &Workspace) {
        self.run_workspace_command(workspace, true);
    }
}
