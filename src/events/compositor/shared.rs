//! The compositor's state as the backends (Sway, Hyprland) publish it to the
//! [`Compositor`](super::Compositor) that owns them: one value and who wants to hear of
//! its changes. Its own file, so that the backends and the client depend on it and not
//! on each other.

use std::cell::RefCell;

use super::CompositorState;

/// What the backends share with [`Compositor`]: the state and who wants to hear of it.
pub(super) struct Shared {
    state: RefCell<CompositorState>,
    on_change: Box<dyn Fn(&CompositorState)>,
}

impl Shared {
    /// An empty state; `on_change` hears of every change.
    pub(super) fn new(on_change: impl Fn(&CompositorState) + 'static) -> Shared {
        Shared {
            state: RefCell::new(CompositorState::default()),
            on_change: Box::new(on_change),
        }
    }

    /// Takes `new` as the state; `on_change` runs when it differs. No borrow is held
    /// while it runs, so it may call back into the [`Compositor`].
    pub(super) fn publish(&self, new: CompositorState) {
        if *self.state.borrow() == new {
            return;
        }
        self.state.replace(new.clone());
        (self.on_change)(&new);
    }

    /// Publishes the state as `change` leaves it.
    pub(super) fn update(&self, change: impl FnOnce(&mut CompositorState)) {
        let mut new = self.state.borrow().clone();
        change(&mut new);
        self.publish(new);
    }

    pub(super) fn state(&self) -> CompositorState {
        self.state.borrow().clone()
    }
}
