//! The backend for any compositor without an IPC of its own (labwc, Wayfire, COSMIC…):
//! a Wayland connection of the bar's own, beside GTK's, bound to the standard protocols
//! the compositor offers: `ext_workspace_manager_v1` for the workspaces and
//! `zwlr_foreign_toplevel_manager_v1` for the focused window. Its socket is watched on
//! the main loop; what was read is dispatched at once and published once per wake-up.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::{Rc, Weak};

use gtk4::glib::ControlFlow;

use super::super::backend::{Backend, Start};
use super::super::shared::Shared;
use super::super::Workspace;
use super::protocols::Protocols;
use crate::events::wayland_link::Link;

const WHAT: &str = "Wayland workspaces";

pub(in super::super) const START: Start = |path, shared| WaylandClient::start(path, shared);

struct WaylandClient {
    shared: Rc<Shared>,
    me: Weak<WaylandClient>,
    live: RefCell<Option<Live>>,
}

struct Live {
    link: Link<Protocols>,
    protocols: Protocols,
}

impl WaylandClient {
    fn start(path: PathBuf, shared: Rc<Shared>) -> Rc<WaylandClient> {
        let client = Rc::new_cyclic(|me| WaylandClient {
            shared,
            me: me.clone(),
            live: RefCell::new(None),
        });
        let me = client.me.clone();
        let link = Link::open(&path, move || match me.upgrade() {
            Some(client) => client.on_readable(),
            None => ControlFlow::Break,
        });
        match link {
            Ok(link) => {
                let protocols = Protocols::default();
                client.live.replace(Some(Live { link, protocols }));
            }
            Err(why) => tracing::info!("{WHAT}: {}: {why}", path.display()),
        }
        client
    }

    fn on_readable(&self) -> ControlFlow {
        let outcome = {
            let mut live = self.live.borrow_mut();
            let Some(live) = live.as_mut() else {
                return ControlFlow::Break;
            };
            let Live { link, protocols } = live;
            link.pump(protocols).map(|()| protocols.take_change())
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
        if let Err(err) = live.link.flush() {
            tracing::warn!("{WHAT}: showing a workspace: {err}");
        }
    }

    /// The standard protocols have no keyboard layouts.
    fn next_layout(&self) {}

    fn stop(&self) {
        self.live.take();
    }
}
