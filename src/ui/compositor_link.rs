//! The bar and the compositor: its IPC followed when a module needs it, its events
//! drawing the `workspaces` and `window` modules, clicks and scrolls sent back.

use std::rc::Rc;

use gtk4::glib;

use super::app::App;
use crate::events::compositor::{Compositor, CompositorState, Workspace};
use crate::modules::Update;

impl App {
    /// Connects to the session's compositor if a configured module shows its state.
    pub(super) fn follow_compositor(self: &Rc<Self>) {
        let needed = self
            .config
            .borrow()
            .modules
            .all()
            .any(|m| m.update() == Update::Compositor);
        if !needed || self.compositor.borrow().is_some() {
            return;
        }
        let on_change = glib::clone!(
            #[weak(rename_to = app)]
            self,
            move |_: &CompositorState| app.render_compositor()
        );
        self.compositor
            .replace(Compositor::connect_from_env(on_change));
    }

    pub(super) fn compositor_state(&self) -> Option<CompositorState> {
        self.compositor.borrow().as_ref().map(|c| c.state())
    }

    pub(super) fn focus_workspace(&self, workspace: &Workspace) {
        if let Some(compositor) = self.compositor.borrow().as_ref() {
            compositor.focus_workspace(workspace);
        }
    }

    pub(super) fn step_workspace(&self, forward: bool) {
        if let Some(compositor) = self.compositor.borrow().as_ref() {
            compositor.step_workspace(forward);
        }
    }
}
