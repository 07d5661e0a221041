//! The backend for any compositor without an IPC of its own (labwc, Wayfire, COSMIC…):
//! a Wayland connection of the bar's own, beside GTK's, bound to the standard protocols
//! the compositor offers: `ext_workspace_manager_v1` for the workspaces and
//! `zwlr_foreign_toplevel_manager_v1` for the focused window. Its socket is watched on
//! the main loop; what was read is dispatched at once and published once per wake-up.

use std::cell::RefCell;
use std::io::ErrorKind;
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::rc::{Rc, Weak};

use gtk4::glib::{self, ControlFlow, IOCondition};
use wayland_client::backend::WaylandError;
use wayland_client::{Connection, EventQueue};

use super::super::backend::{Backend, Kind};
use super::super::io;
use super::super::shared::Shared;
use super::super::Workspace;
use super::protocols::Protocols;

const WHAT: &str = "Wayland workspaces";

pub(in super::super) const BACKEND: Kind = Kind {
    name: "wayland",
    locate: super::locate,
    start: |path, shared| WaylandClient::start(path, shared),
};

struct WaylandClient {
    shared: Rc<Shared>,
    me: Weak<WaylandClient>,
    live: RefCell<Option<Live>>,
}

struct Live {
    connection: Connection,
    queue: EventQueue<Protocols>,
    protocols: Protocols,
    watch: glib::Source,
}

impl Drop for Live {
    fn drop(&mut self) {
        self.watch.destroy();
    }
}

impl WaylandClient {
    fn start(path: PathBuf, shared: Rc<Shared>) -> Rc<WaylandClient> {
        let client = Rc::new_cyclic(|me| WaylandClient {
            shared,
            me: me.clone(),
            live: RefCell::new(None),
        });
        match client.connect(&path) {
            Ok(live) => {
                client.live.replace(Some(live));
            }
            Err(why) => tracing::info!("{WHAT}: {}: {why}", path.display()),
        }
        client
    }

    fn connect(&self, path: &std::path::Path) -> Result<Live, String> {
        let socket = io::connect(path).map_err(|err| err.to_string())?;
        let connection = Connection::from_socket(socket).map_err(|err| err.to_string())?;
        let queue = connection.new_event_queue();
        connection.display().get_registry(&queue.handle(), ());
        connection.display().sync(&queue.handle(), ());
        connection.flush().map_err(|err| err.to_string())?;
        let me = self.me.clone();
        let fd = connection.backend().poll_fd().as_raw_fd();
        let watch = io::watch(&fd, IOCondition::IN, move || match me.upgrade() {
            Some(client) => client.on_readable(),
            None => ControlFlow::Break,
        });
        Ok(Live {
            connection,
            queue,
            protocols: Protocols::default(),
            watch,
        })
    }

    fn on_readable(&self) -> ControlFlow {
        let outcome = {
            let mut live = self.live.borrow_mut();
            let Some(live) = live.as_mut() else {
                return ControlFlow::Break;
            };
            read_and_dispatch(live)
        };
        match outcome {
            Ok(Some(state)) => {
                self.shared.publish(state);
                ControlFlow::Continue
            }
            Ok(None) => ControlFlow::Continue,
            Err(why) => {
                // The compositor is gone: so is the bar's own connection, soon.
                tracing::info!("{WHAT}: {why}");
                self.live.take();
                self.shared.publish(Default::default());
                ControlFlow::Break
            }
        }
    }
}

/// Reads what the socket holds and dispatches it; the new state if anything changed.
fn read_and_dispatch(live: &mut Live) -> Result<Option<super::super::CompositorState>, String> {
    let dispatch = |live: &mut Live| {
        live.queue
            .dispatch_pending(&mut live.protocols)
            .map_err(|err| err.to_string())
    };
    dispatch(live)?;
    if let Some(guard) = live.queue.prepare_read() {
        match guard.read() {
            Ok(_) => {}
            Err(WaylandError::Io(err)) if err.kind() == ErrorKind::WouldBlock => {}
            Err(err) => return Err(err.to_string()),
        }
    }
    dispatch(live)?;
    // Bindings and requests made while dispatching go out now.
    match live.connection.flush() {
        Ok(()) => {}
        Err(WaylandError::Io(err)) if err.kind() == ErrorKind::WouldBlock => {}
        Err(err) => return Err(err.to_string()),
    }
    Ok(live.protocols.take_change())
}

impl Backend for WaylandClient {
    fn focus(&self, workspace: &Workspace) {
        let mut live = self.live.borrow_mut();
        let Some(live) = live.as_mut() else {
            return;
        };
        if !live.protocols.activate(workspace) {
            tracing::warn!("{WHAT}: no workspace {:?} to show", workspace.name);
            return;
        }
        if let Err(err) = live.connection.flush() {
            tracing::warn!("{WHAT}: showing a workspace: {err}");
        }
    }

    /// The standard protocols have no keyboard layouts.
    fn next_layout(&self) {}

    fn stop(&self) {
        self.live.take();
    }
}
