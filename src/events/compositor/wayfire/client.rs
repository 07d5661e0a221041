//! The Wayfire backend: one connection takes the replies to the first requests (outputs,
//! views, the focus), then the events, and carries the bar's requests. Wayfire answers a
//! connection's requests in order, so each reply is matched to the oldest request still
//! waiting; a message with an `event` key is an event. What is read in one wake-up is
//! published once.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::rc::{Rc, Weak};

use gtk4::glib::{self, ControlFlow, IOCondition};
use serde_json::{json, Value};

use super::super::backend::{Backend, Start};
use super::super::io::{self, Retry};
use super::super::shared::Shared;
use super::super::Workspace;
use super::{message, Frames, Wayfire};

const WHAT: &str = "Wayfire IPC";
/// Bytes read per wake-up before other sources get their turn.
const READ_BUDGET: usize = 1 << 20;

pub(in super::super) const START: Start = |path, shared| WayfireClient::start(path, shared);

/// A request whose reply is still to come.
#[derive(Clone, Copy, Debug)]
enum Asked {
    Outputs,
    Views,
    FocusedView,
    FocusedOutput,
    Events,
    /// One of the bar's: its reply only says whether it worked.
    Action(&'static str),
}

impl Asked {
    fn method(self) -> &'static str {
        match self {
            Asked::Outputs => "window-rules/list-outputs",
            Asked::Views => "window-rules/list-views",
            Asked::FocusedView => "window-rules/get-focused-view",
            Asked::FocusedOutput => "window-rules/get-focused-output",
            Asked::Events => "window-rules/events/watch",
            Asked::Action(method) => method,
        }
    }
}

struct WayfireClient {
    path: PathBuf,
    shared: Rc<Shared>,
    me: Weak<WayfireClient>,
    connection: RefCell<Option<Connection>>,
    wayfire: RefCell<Wayfire>,
    retry: Retry,
}

struct Connection {
    socket: UnixStream,
    frames: Frames,
    asked: VecDeque<Asked>,
    watch: glib::Source,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.watch.destroy();
    }
}

impl WayfireClient {
    fn start(path: PathBuf, shared: Rc<Shared>) -> Rc<WayfireClient> {
        let client = Rc::new_cyclic(|me| WayfireClient {
            path,
            shared,
            me: me.clone(),
            connection: RefCell::new(None),
            wayfire: RefCell::new(Wayfire::default()),
            retry: Retry::default(),
        });
        client.connect();
        client
    }

    fn connect(&self) {
        let socket = match io::connect(&self.path) {
            Ok(socket) => socket,
            Err(err) => return self.lost(&format!("{}: {err}", self.path.display())),
        };
        let me = self.me.clone();
        let watch = io::watch(&socket, IOCondition::IN, move || match me.upgrade() {
            Some(client) => client.on_readable(),
            None => ControlFlow::Break,
        });
        self.connection.replace(Some(Connection {
            socket,
            frames: Frames::default(),
            asked: VecDeque::new(),
            watch,
        }));
        for asked in [
            Asked::Outputs,
            Asked::Views,
            Asked::FocusedView,
            Asked::FocusedOutput,
            Asked::Events,
        ] {
            self.ask(asked, json!({}));
        }
    }

    /// Sends a request on the connection; a few hundred bytes into a socket Wayfire reads
    /// go at once, or the connection is taken as gone.
    fn ask(&self, asked: Asked, data: Value) {
        let sent = {
            let mut connection = self.connection.borrow_mut();
            let Some(connection) = connection.as_mut() else {
                return;
            };
            let mut request = message(asked.method(), data);
            match io::write_available(&mut connection.socket, &mut request) {
                Ok(()) if request.is_empty() => {
                    connection.asked.push_back(asked);
                    Ok(())
                }
                Ok(()) => Err("Wayfire does not take the request".to_owned()),
                Err(err) => Err(err.to_string()),
            }
        };
        if let Err(why) = sent {
            self.lost(&format!("{}: {why}", asked.method()));
        }
    }

    /// The connection is gone: forget the state, try again later.
    fn lost(&self, why: &str) {
        self.connection.take();
        self.wayfire.take();
        let me = self.me.clone();
        self.retry.lost(WHAT, why, move || {
            if let Some(client) = me.upgrade() {
                client.connect();
            }
        });
        self.shared.publish(Default::default());
    }

    fn on_readable(&self) -> ControlFlow {
        let mut messages: Vec<Vec<u8>> = Vec::new();
        let (result, framing) = {
            let mut connection = self.connection.borrow_mut();
            let Some(connection) = connection.as_mut() else {
                return ControlFlow::Break;
            };
            let frames = &mut connection.frames;
            let mut framing = Ok(());
            let result = io::read_available(&mut connection.socket, READ_BUDGET, |bytes| {
                if framing.is_ok() {
                    framing = frames.push(bytes, |m| messages.push(m.to_vec()));
                }
            });
            (result, framing)
        };
        let mut changed = false;
        let mut outputs_again = false;
        for text in &messages {
            let Ok(value) = serde_json::from_slice::<Value>(text) else {
                tracing::debug!("{WHAT}: a message was not JSON");
                continue;
            };
            if value.get("event").is_some() {
                outputs_again |= self.wayfire.borrow_mut().apply(&value);
                changed = true;
                continue;
            }
            let asked = self
                .connection
                .borrow_mut()
                .as_mut()
                .and_then(|c| c.asked.pop_front());
            changed |= self.replied(asked, &value);
        }
        if outputs_again {
            self.ask(Asked::Outputs, json!({}));
        }
        if changed {
            let state = self.wayfire.borrow().state();
            self.shared.publish(state);
        }
        let gone = match (framing, result) {
            (Err(why), _) => Some(why),
            (_, Ok(false)) => None,
            (_, Ok(true)) => Some("Wayfire closed the connection".to_owned()),
            (_, Err(err)) => Some(err.to_string()),
        };
        match gone {
            None => ControlFlow::Continue,
            Some(why) => {
                self.lost(&why);
                ControlFlow::Break
            }
        }
    }

    /// Takes the reply to `asked`; whether the state may have changed.
    fn replied(&self, asked: Option<Asked>, reply: &Value) -> bool {
        let mut wayfire = self.wayfire.borrow_mut();
        let refused = reply.get("error").or_else(|| {
            let result = reply.get("result")?;
            (result.as_str() != Some("ok")).then_some(result)
        });
        match (asked, refused) {
            (Some(asked), Some(why)) => {
                tracing::warn!("{WHAT}: {} was refused: {why}", asked.method());
                if matches!(asked, Asked::Events) {
                    drop(wayfire);
                    self.lost("the events were refused (is the ipc-rules plugin on?)");
                }
                false
            }
            (Some(Asked::Outputs), None) => {
                wayfire.set_outputs(reply);
                true
            }
            (Some(Asked::Views), None) => {
                wayfire.set_views(reply);
                true
            }
            (Some(Asked::FocusedView), None) => {
                wayfire.set_focused_view(reply);
                true
            }
            (Some(Asked::FocusedOutput), None) => {
                wayfire.set_focused_output(reply);
                true
            }
            (Some(Asked::Events), None) => {
                self.retry.succeeded(WHAT);
                false
            }
            // A reply nothing asked for: Wayfire's, not ours to read.
            (Some(Asked::Action(_)) | None, None) | (None, Some(_)) => false,
        }
    }
}

impl Backend for WayfireClient {
    fn focus(&self, workspace: &Workspace) {
        let place = self.wayfire.borrow().place_of(workspace);
        match place {
            Some((output, x, y)) => self.ask(
                Asked::Action("vswitch/set-workspace"),
                json!({ "x": x, "y": y, "output-id": output }),
            ),
            None => tracing::warn!("{WHAT}: no workspace {:?} to show", workspace.name),
        }
    }

    fn next_layout(&self) {
        tracing::debug!("{WHAT}: switching the keyboard layout is not offered");
    }

    fn stop(&self) {
        self.retry.cancel();
        self.connection.take();
    }
}
