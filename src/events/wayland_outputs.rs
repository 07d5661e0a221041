//! The `wl_output`s a Wayland client binds to learn each output's name (the interface's
//! version 4), kept by their registry names so that a removed global releases its output:
//! the workspace backend's and the window list's, the same.

use std::collections::HashMap;

use wayland_client::protocol::wl_output::{self, WlOutput};
use wayland_client::protocol::wl_registry::WlRegistry;
use wayland_client::{Dispatch, Proxy, QueueHandle};

#[derive(Default)]
pub struct Outputs(HashMap<u32, WlOutput>);

impl Outputs {
    /// Binds the global `name` if it is a `wl_output` that says its name; whether it was.
    pub fn bind<D>(
        &mut self,
        registry: &WlRegistry,
        (name, interface, version): (u32, &str, u32),
        qh: &QueueHandle<D>,
    ) -> bool
    where
        D: Dispatch<WlOutput, ()> + 'static,
    {
        if interface != "wl_output" || version < 4 {
            return false;
        }
        let output = registry.bind::<WlOutput, _, D>(name, 4, qh, ());
        self.0.insert(name, output);
        true
    }

    /// Releases the output whose global `name` was removed: its object id, for the model
    /// to forget; `None` for a global that was no output.
    pub fn remove(&mut self, name: u32) -> Option<u32> {
        let output = self.0.remove(&name)?;
        let id = output.id().protocol_id();
        output.release();
        Some(id)
    }
}

/// The output's object id and the name a `wl_output` event gives it, if it is its name.
pub fn named(output: &WlOutput, event: wl_output::Event) -> Option<(u32, String)> {
    match event {
        wl_output::Event::Name { name } => Some((output.id().protocol_id(), name)),
        _ => None,
    }
}
