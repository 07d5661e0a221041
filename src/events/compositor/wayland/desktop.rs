//! What the compositor's standard protocols say, by their objects' ids: the outputs'
//! names (`wl_output`), the workspace groups and workspaces (`ext-workspace-v1`) and the
//! toplevel windows (`wlr-foreign-toplevel-management-unstable-v1`); and the
//! [`CompositorState`] it makes. Pure: the client feeds it each event as it comes.

use std::collections::HashMap;

use super::super::{cap_text, CompositorState, Workspace, WINDOWS_UNKNOWN};
use crate::events::tasks::TaskList;

/// Bounds on what a compositor can make the bar hold.
pub const MAX_OBJECTS: usize = 65_536;

/// `ext_workspace_handle_v1.state` bits.
pub const ACTIVE: u32 = 1;
pub const URGENT: u32 = 2;
pub const HIDDEN: u32 = 4;

/// `zwlr_foreign_toplevel_handle_v1.state` entries.
pub const TOPLEVEL_ACTIVATED: u32 = 2;

#[derive(Debug, Default)]
pub struct Desktop {
    outputs: HashMap<u32, String>,
    /// In the order the compositor announced them.
    groups: Vec<Group>,
    workspaces: HashMap<u32, Space>,
    /// Announced order of the workspaces, the fallback order within a group.
    announced: Vec<u32>,
    /// The toplevel windows, as the taskbar follows them.
    pub windows: TaskList,
}

#[derive(Debug, Default)]
struct Group {
    id: u32,
    outputs: Vec<u32>,
    workspaces: Vec<u32>,
}

#[derive(Debug, Default)]
struct Space {
    name: String,
    coordinates: Vec<u32>,
    state: u32,
}

fn remove(list: &mut Vec<u32>, id: u32) {
    list.retain(|x| *x != id);
}

impl Desktop {
    pub fn output_named(&mut self, output: u32, name: &str) {
        if self.outputs.len() < MAX_OBJECTS || self.outputs.contains_key(&output) {
            self.outputs.insert(output, cap_text(name));
        }
    }

    pub fn output_gone(&mut self, output: u32) {
        self.outputs.remove(&output);
        for group in &mut self.groups {
            remove(&mut group.outputs, output);
        }
    }

    pub fn group_added(&mut self, group: u32) {
        if self.groups.len() < MAX_OBJECTS {
            self.groups.push(Group {
                id: group,
                ..Group::default()
            });
        }
    }

    pub fn group_removed(&mut self, group: u32) {
        self.groups.retain(|g| g.id != group);
    }

    /// An output entered (or left) the group.
    pub fn group_output(&mut self, group: u32, output: u32, entered: bool) {
        if let Some(group) = self.groups.iter_mut().find(|g| g.id == group) {
            remove(&mut group.outputs, output);
            if entered {
                group.outputs.push(output);
            }
        }
    }

    /// A workspace entered (or left) the group.
    pub fn group_workspace(&mut self, group: u32, workspace: u32, entered: bool) {
        for g in &mut self.groups {
            // A workspace is in one group at a time.
            if g.id == group || entered {
                remove(&mut g.workspaces, workspace);
            }
        }
        if entered {
            if let Some(group) = self.groups.iter_mut().find(|g| g.id == group) {
                group.workspaces.push(workspace);
            }
        }
    }

    pub fn workspace_added(&mut self, workspace: u32) {
        if self.workspaces.len() < MAX_OBJECTS {
            self.workspaces.insert(workspace, Space::default());
            self.announced.push(workspace);
        }
    }

    pub fn workspace_removed(&mut self, workspace: u32) {
        self.workspaces.remove(&workspace);
        remove(&mut self.announced, workspace);
        for group in &mut self.groups {
            remove(&mut group.workspaces, workspace);
        }
    }

    pub fn workspace_named(&mut self, workspace: u32, name: &str) {
        if let Some(space) = self.workspaces.get_mut(&workspace) {
            space.name = cap_text(name);
        }
    }

    /// `coordinates`: the protocol's array, native-endian u32s.
    pub fn workspace_coordinates(&mut self, workspace: u32, coordinates: &[u8]) {
        if let Some(space) = self.workspaces.get_mut(&workspace) {
            space.coordinates = coordinates
                .chunks_exact(4)
                .take(16)
                .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
        }
    }

    pub fn workspace_state(&mut self, workspace: u32, state: u32) {
        if let Some(space) = self.workspaces.get_mut(&workspace) {
            space.state = state;
        }
    }

    /// A group's workspaces that are not hidden, in display order: by coordinates where
    /// the compositor gives them, else as announced.
    fn shown_in(&self, group: &Group) -> Vec<u32> {
        let mut shown: Vec<u32> = group
            .workspaces
            .iter()
            .copied()
            .filter(|id| {
                self.workspaces
                    .get(id)
                    .is_some_and(|s| s.state & HIDDEN == 0)
            })
            .collect();
        let announced = |id: &u32| self.announced.iter().position(|a| a == id);
        shown.sort_by(|a, b| {
            let coordinates = |id| self.workspaces.get(id).map(|s| s.coordinates.clone());
            coordinates(a)
                .cmp(&coordinates(b))
                .then_with(|| announced(a).cmp(&announced(b)))
        });
        shown
    }

    /// The workspace protocol object the bar shows as `shown` (by output and place).
    pub fn workspace_object(&self, shown: &Workspace) -> Option<u32> {
        let place = usize::try_from(shown.id).ok()?.checked_sub(1)?;
        self.groups
            .iter()
            .find(|g| {
                g.outputs
                    .iter()
                    .any(|o| self.outputs.get(o).is_some_and(|n| *n == shown.output))
                    || (g.outputs.is_empty() && shown.output.is_empty())
            })
            .and_then(|g| self.shown_in(g).get(place).copied())
    }

    /// The picture for the modules: each group's workspaces on each of its outputs,
    /// numbered by place from 1; the active ones focused and visible; which windows a
    /// workspace holds is not known. The title is the activated toplevel's.
    pub fn state(&self) -> CompositorState {
        let mut workspaces = Vec::new();
        for group in &self.groups {
            let mut outputs: Vec<&str> = group
                .outputs
                .iter()
                .filter_map(|o| self.outputs.get(o).map(String::as_str))
                .collect();
            if outputs.is_empty() {
                outputs.push("");
            }
            let shown = self.shown_in(group);
            for output in outputs {
                for (place, id) in shown.iter().enumerate() {
                    let Some(space) = self.workspaces.get(id) else {
                        continue;
                    };
                    let number = place as i64 + 1;
                    workspaces.push(Workspace {
                        id: number,
                        name: if space.name.is_empty() {
                            number.to_string()
                        } else {
                            space.name.clone()
                        },
                        output: output.to_owned(),
                        focused: space.state & ACTIVE != 0,
                        visible: space.state & ACTIVE != 0,
                        urgent: space.state & URGENT != 0,
                        windows: WINDOWS_UNKNOWN,
                        ..Workspace::default()
                    });
                }
            }
        }
        let windows = self.windows.tasks(&|_| (None, None));
        let focused = windows.list.iter().find(|t| t.active);
        CompositorState {
            workspaces,
            window_title: focused.map(|t| t.title.clone()),
            window_app_id: focused.map(|t| t.app_id.clone()).filter(|a| !a.is_empty()),
            ..CompositorState::default()
        }
    }
}
