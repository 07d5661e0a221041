//! The Hyprland backend: event lines from `.socket2.sock`, and short requests to
//! `.socket.sock` (one per connection: Hyprland answers and closes). An event that can
//! change the workspaces asks for `j/workspaces`, `j/monitors`, `j/activewindow` and
//! `j/clients` at once (and `j/devices` and `submap` until a keyboard has been read);
//! events during a round make one more. The dispatch dialect comes from `j/version`,
//! once per connection.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::rc::{Rc, Weak};
use std::time::Duration;

use gtk4::glib::{self, ControlFlow, IOCondition};

use super::super::backend::{Backend, Start};
use super::super::io::{self, Retry};
use super::super::lines::LineReader;
use super::super::oneshot::OneShots;
use super::super::shared::Shared;
use super::super::Workspace;
use super::{self as hyprland, Action, Dialect, Event};

mod round;

const WHAT: &str = "Hyprland IPC";
const READ_BUDGET: usize = 1 << 20;
/// Urgent windows remembered at most (a client that keeps asking cannot grow the set).
const MAX_URGENT: usize = 256;

pub(super) struct Hyprland {
    dir: PathBuf,
    shared: Rc<Shared>,
    me: Weak<Hyprland>,
    events: RefCell<Option<Events>>,
    requests: Rc<OneShots>,
    round: RefCell<Round>,
    dialect: Cell<Option<Dialect>>,
    /// The focused window's address, and the last windows of the shown workspaces, for
    /// title events.
    active: RefCell<Option<String>>,
    shown: RefCell<BTreeSet<String>>,
    urgent: RefCell<BTreeSet<String>>,
    /// The keyboard was read on this connection.
    keyboard_read: Cell<bool>,
    retry: Retry,
}

struct Events {
    socket: UnixStream,
    lines: LineReader,
    watch: glib::Source,
}

impl Drop for Events {
    fn drop(&mut self) {
        self.watch.destroy();
    }
}

/// One round of queries (`round.rs`): which replies are in, and whether another round is
/// wanted.
#[derive(Default)]
struct Round {
    /// Bumped for every round, so replies of an abandoned one are recognised.
    number: u64,
    running: bool,
    again: bool,
    replies: HashMap<&'static str, Vec<u8>>,
    /// How many replies the round waits for.
    wanted: usize,
}

pub(in super::super) const START: Start = |dir, shared| Hyprland::start(dir, shared);

impl Hyprland {
    fn start(dir: PathBuf, shared: Rc<Shared>) -> Rc<Hyprland> {
        let hyprland = Rc::new_cyclic(|me| Hyprland {
            dir,
            shared,
            me: me.clone(),
            events: RefCell::new(None),
            requests: OneShots::new(),
            round: RefCell::new(Round::default()),
            dialect: Cell::new(None),
            active: RefCell::new(None),
            shown: RefCell::default(),
            urgent: RefCell::new(BTreeSet::new()),
            keyboard_read: Cell::new(false),
            retry: Retry::default(),
        });
        hyprland.connect();
        hyprland
    }

    fn connect(&self) {
        let path = self.dir.join(".socket2.sock");
        let socket = match io::connect(&path) {
            Ok(socket) => socket,
            Err(err) => return self.lost(&format!("{}: {err}", path.display())),
        };
        let me = self.me.clone();
        let watch = io::watch(&socket, IOCondition::IN, move || match me.upgrade() {
            Some(hyprland) => hyprland.on_readable(),
            None => ControlFlow::Break,
        });
        self.events.replace(Some(Events {
            socket,
            lines: LineReader::new(hyprland::MAX_LINE),
            watch,
        }));
        self.dialect.set(None);
        self.keyboard_read.set(false);
        self.detect_dialect(|_| {});
        self.requery();
    }

    /// The events stopped: forget the state, try again later.
    fn lost(&self, why: &str) {
        self.events.take();
        self.requests.cancel_all();
        {
            // A new number: a reply still on its way cannot count for a later round.
            let mut round = self.round.borrow_mut();
            let number = round.number + 1;
            *round = Round {
                number,
                ..Round::default()
            };
        }
        self.active.take();
        self.urgent.take();
        let me = self.me.clone();
        self.retry.lost(WHAT, why, move || {
            if let Some(hyprland) = me.upgrade() {
                hyprland.connect();
            }
        });
        self.shared.publish(Default::default());
    }

    /// Runs `then` after `delay`, replacing what was scheduled before.
    fn schedule(&self, delay: Duration, then: fn(&Hyprland)) {
        let me = self.me.clone();
        self.retry.after(delay, move || {
            if let Some(hyprland) = me.upgrade() {
                then(&hyprland);
            }
        });
    }

    fn on_readable(&self) -> ControlFlow {
        let mut lines = Vec::new();
        let result = {
            let mut events = self.events.borrow_mut();
            let Some(events) = events.as_mut() else {
                return ControlFlow::Break;
            };
            let reader = &mut events.lines;
            io::read_available(&mut events.socket, READ_BUDGET, |bytes| {
                reader.push(bytes, |line| lines.extend(Event::parse(line)));
            })
        };
        // One round for the whole batch (newer releases send most events twice).
        let mut requery = false;
        for event in lines {
            requery |= self.on_event(event, requery);
        }
        if requery {
            self.requery();
        }
        match result {
            Ok(false) => ControlFlow::Continue,
            Ok(true) => {
                self.lost("Hyprland closed the event socket");
                ControlFlow::Break
            }
            Err(err) => {
                self.lost(&format!("event socket: {err}"));
                ControlFlow::Break
            }
        }
    }

    /// Takes one event; whether it asks for a round of queries. `requery`: an earlier
    /// event of the batch already does.
    fn on_event(&self, event: Event, requery: bool) -> bool {
        match &event {
            Event::Urgent { address } => {
                let mut urgent = self.urgent.borrow_mut();
                if urgent.len() < MAX_URGENT {
                    urgent.insert(address.clone());
                }
            }
            Event::ActiveWindowV2 {
                address: Some(address),
            }
            | Event::CloseWindow { address } => {
                self.urgent.borrow_mut().remove(address);
            }
            _ => {}
        }
        let action = event.action(self.active.borrow().as_deref(), &self.shown.borrow());
        match action {
            Action::Requery => true,
            // The answer under way (or asked for) may predate the new title.
            Action::Title(_) if requery || self.round.borrow().running => true,
            Action::Title(title) => {
                self.shared.update(|state| state.window_title = Some(title));
                false
            }
            Action::Layout(layout) => {
                self.shared.update(|state| {
                    let keyboard = state.keyboard.get_or_insert_with(Default::default);
                    keyboard.active = layout;
                });
                false
            }
            Action::Mode(mode) => {
                self.shared.update(|state| state.mode = mode);
                false
            }
            Action::Ignore => false,
        }
    }

    fn request(&self, request: &str, done: impl FnOnce(Result<Vec<u8>, String>) + 'static) {
        let path = self.dir.join(".socket.sock");
        self.requests.send(&path, request.as_bytes(), done);
    }

    /// Learns the dialect (once per connection), then runs `then` with it.
    fn detect_dialect(&self, then: impl FnOnce(Dialect) + 'static) {
        if let Some(dialect) = self.dialect.get() {
            return then(dialect);
        }
        let me = self.me.clone();
        self.request("j/version", move |reply| {
            let Some(hyprland) = me.upgrade() else {
                return;
            };
            let dialect = match reply {
                Ok(json) => Dialect::from_version(&json),
                Err(_) => return then(Dialect::Lua),
            };
            tracing::debug!("{WHAT}: dispatch dialect {dialect:?}");
            hyprland.dialect.set(Some(dialect));
            then(dialect);
        });
    }

    /// Sends the request that shows `workspace`; if Hyprland says it speaks the other
    /// dialect (0.55 and 0.56 go by the config file), switches and tries once more.
    fn dispatch(&self, workspace: Workspace, dialect: Dialect, retry: bool) {
        let Some(request) = dialect.focus_workspace(&workspace) else {
            tracing::warn!(
                "{WHAT}: cannot write a request for workspace {:?}",
                workspace.name
            );
            return;
        };
        tracing::debug!("{WHAT}: {request}");
        let me = self.me.clone();
        self.request(&request, move |reply| {
            let Some(hyprland) = me.upgrade() else {
                return;
            };
            let reply = match reply {
                Ok(reply) => String::from_utf8_lossy(&reply).into_owned(),
                Err(why) => return tracing::warn!("{WHAT}: switching workspaces: {why}"),
            };
            if retry && dialect.misunderstood(&reply) {
                hyprland.dialect.set(Some(dialect.other()));
                hyprland.dispatch(workspace, dialect.other(), false);
            } else if reply.trim() != "ok" {
                let reply = super::super::cap_text(reply.trim());
                tracing::warn!("{WHAT}: switching workspaces failed: {reply}");
            }
        });
    }
}

impl Backend for Hyprland {
    fn stop(&self) {
        self.retry.cancel();
        self.events.take();
        self.requests.cancel_all();
    }

    fn focus(&self, workspace: &Workspace) {
        let me = self.me.clone();
        let workspace = workspace.clone();
        self.detect_dialect(move |dialect| {
            if let Some(hyprland) = me.upgrade() {
                hyprland.dispatch(workspace, dialect, true);
            }
        });
    }

    /// Switches every keyboard to its next layout (a command of hyprctl's, the same in
    /// both dialects).
    fn next_layout(&self) {
        self.request("switchxkblayout all next", |reply| match reply {
            Ok(answer) if answer.trim_ascii() == b"ok" => {}
            Ok(answer) => tracing::warn!(
                "{WHAT}: switchxkblayout: {}",
                String::from_utf8_lossy(&answer).trim()
            ),
            Err(why) => tracing::warn!("{WHAT}: switchxkblayout: {why}"),
        });
    }
}
