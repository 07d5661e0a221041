//! The Wayland objects of the workspace backend and what each event does to the
//! [`Desktop`]: the registry binds `wl_output` (version 4, for its name),
//! `ext_workspace_manager_v1` and `zwlr_foreign_toplevel_manager_v1` where the compositor
//! offers them.

use std::collections::HashMap;

use wayland_client::protocol::wl_callback::{self, WlCallback};
use wayland_client::protocol::wl_output::{self, WlOutput};
use wayland_client::protocol::wl_registry::{self, WlRegistry};
use wayland_client::{event_created_child, Connection, Dispatch, Proxy, QueueHandle, WEnum};
use wayland_protocols::ext::workspace::v1::client::ext_workspace_group_handle_v1::{
    self as group, ExtWorkspaceGroupHandleV1,
};
use wayland_protocols::ext::workspace::v1::client::ext_workspace_handle_v1::{
    self as workspace, ExtWorkspaceHandleV1,
};
use wayland_protocols::ext::workspace::v1::client::ext_workspace_manager_v1::{
    self as manager, ExtWorkspaceManagerV1,
};
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_handle_v1::{
    self as toplevel, ZwlrForeignToplevelHandleV1,
};
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_manager_v1::{
    self as toplevels, ZwlrForeignToplevelManagerV1,
};

use super::super::{CompositorState, Workspace};
use super::desktop::Desktop;
use crate::events::tasks::{self, client::Applied};
use crate::events::wayland_outputs::{named, Outputs};

/// The protocols' state: the model, and the objects requests go to.
#[derive(Default)]
pub(super) struct Protocols {
    desktop: Desktop,
    outputs: Outputs,
    manager: Option<ExtWorkspaceManagerV1>,
    workspaces: HashMap<u32, ExtWorkspaceHandleV1>,
    /// Something changed since the state was last taken.
    changed: bool,
    /// A foreign-toplevel manager was bound.
    toplevels: bool,
}

fn id(proxy: &impl Proxy) -> u32 {
    proxy.id().protocol_id()
}

impl Protocols {
    /// The state, when it changed since the last call.
    pub(super) fn take_change(&mut self) -> Option<CompositorState> {
        std::mem::take(&mut self.changed).then(|| self.desktop.state())
    }

    /// Asks for `shown` to be activated; false when there is no such workspace.
    pub(super) fn activate(&self, shown: &Workspace) -> bool {
        let handle = self
            .desktop
            .workspace_object(shown)
            .and_then(|object| self.workspaces.get(&object));
        match (handle, &self.manager) {
            (Some(handle), Some(manager)) => {
                handle.activate();
                manager.commit();
                true
            }
            _ => false,
        }
    }
}

impl Dispatch<WlRegistry, ()> for Protocols {
    fn event(
        state: &mut Self,
        registry: &WlRegistry,
        event: wl_registry::Event,
        _: &(),
        _: &Connection,
        qh: &QueueHandle<Self>,
    ) {
        match event {
            wl_registry::Event::Global {
                name,
                interface,
                version,
            } => match interface.as_str() {
                "wl_output" => {
                    state
                        .outputs
                        .bind(registry, (name, &interface, version), qh);
                }
                "ext_workspace_manager_v1" => {
                    tracing::debug!("the compositor offers ext-workspace-v1");
                    state.manager = Some(registry.bind(name, 1, qh, ()));
                }
                "zwlr_foreign_toplevel_manager_v1" => {
                    let _: ZwlrForeignToplevelManagerV1 =
                        registry.bind(name, version.min(3), qh, ());
                    state.toplevels = true;
                }
                _ => {}
            },
            wl_registry::Event::GlobalRemove { name } => {
                if let Some(output) = state.outputs.remove(name) {
                    state.desktop.output_gone(output);
                    state.changed = true;
                }
            }
            _ => {}
        }
    }
}

/// The answer to the `wl_display.sync` sent after the registry: the globals are all in.
impl Dispatch<WlCallback, ()> for Protocols {
    fn event(
        state: &mut Self,
        _: &WlCallback,
        _: wl_callback::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if state.manager.is_none() {
            tracing::info!("the compositor offers no ext-workspace-v1: no workspaces");
        }
        if !state.toplevels {
            tracing::info!("the compositor offers no wlr-foreign-toplevel: no window title");
        }
    }
}

impl Dispatch<WlOutput, ()> for Protocols {
    fn event(
        state: &mut Self,
        output: &WlOutput,
        event: wl_output::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let Some((output, name)) = named(output, event) {
            state.desktop.output_named(output, &name);
            state.changed = true;
        }
    }
}

impl Dispatch<ExtWorkspaceManagerV1, ()> for Protocols {
    fn event(
        state: &mut Self,
        _: &ExtWorkspaceManagerV1,
        event: manager::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            manager::Event::WorkspaceGroup { workspace_group } => {
                state.desktop.group_added(id(&workspace_group));
            }
            manager::Event::Workspace { workspace } => {
                state.desktop.workspace_added(id(&workspace));
                state.workspaces.insert(id(&workspace), workspace);
            }
            manager::Event::Done => state.changed = true,
            manager::Event::Finished => {
                state.manager = None;
                state.changed = true;
            }
            _ => {}
        }
    }

    event_created_child!(Protocols, ExtWorkspaceManagerV1, [
        manager::EVT_WORKSPACE_GROUP_OPCODE => (ExtWorkspaceGroupHandleV1, ()),
        manager::EVT_WORKSPACE_OPCODE => (ExtWorkspaceHandleV1, ()),
    ]);
}

impl Dispatch<ExtWorkspaceGroupHandleV1, ()> for Protocols {
    fn event(
        state: &mut Self,
        handle: &ExtWorkspaceGroupHandleV1,
        event: group::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let group = id(handle);
        let desktop = &mut state.desktop;
        match event {
            group::Event::OutputEnter { output } => desktop.group_output(group, id(&output), true),
            group::Event::OutputLeave { output } => desktop.group_output(group, id(&output), false),
            group::Event::WorkspaceEnter { workspace } => {
                desktop.group_workspace(group, id(&workspace), true)
            }
            group::Event::WorkspaceLeave { workspace } => {
                desktop.group_workspace(group, id(&workspace), false)
            }
            group::Event::Removed => {
                desktop.group_removed(group);
                handle.destroy();
            }
            _ => {}
        }
    }
}

impl Dispatch<ExtWorkspaceHandleV1, ()> for Protocols {
    fn event(
        state: &mut Self,
        handle: &ExtWorkspaceHandleV1,
        event: workspace::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let workspace = id(handle);
        let desktop = &mut state.desktop;
        match event {
            workspace::Event::Name { name } => desktop.workspace_named(workspace, &name),
            workspace::Event::Coordinates { coordinates } => {
                desktop.workspace_coordinates(workspace, &coordinates)
            }
            workspace::Event::State { state: bits } => {
                let bits = match bits {
                    WEnum::Value(bits) => bits.bits(),
                    WEnum::Unknown(bits) => bits,
                };
                desktop.workspace_state(workspace, bits);
            }
            workspace::Event::Removed => {
                desktop.workspace_removed(workspace);
                state.workspaces.remove(&workspace);
                handle.destroy();
            }
            _ => {}
        }
    }
}

impl Dispatch<ZwlrForeignToplevelManagerV1, ()> for Protocols {
    fn event(
        state: &mut Self,
        _: &ZwlrForeignToplevelManagerV1,
        event: toplevels::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let toplevels::Event::Toplevel { toplevel } = event {
            if !state.desktop.windows.added(id(&toplevel)) {
                toplevel.destroy();
            }
        }
    }

    event_created_child!(Protocols, ZwlrForeignToplevelManagerV1, [
        toplevels::EVT_TOPLEVEL_OPCODE => (ZwlrForeignToplevelHandleV1, ()),
    ]);
}

impl Dispatch<ZwlrForeignToplevelHandleV1, ()> for Protocols {
    fn event(
        state: &mut Self,
        handle: &ZwlrForeignToplevelHandleV1,
        event: toplevel::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match tasks::client::apply(&mut state.desktop.windows, id(handle), event) {
            Applied::Nothing => {}
            Applied::Done => state.changed = true,
            Applied::Closed => {
                handle.destroy();
                state.changed = true;
            }
        }
    }
}
