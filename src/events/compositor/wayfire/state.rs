//! What Wayfire's replies and events have said so far, and the [`CompositorState`] it
//! makes. A view's geometry is in its output's coordinates, relative to the workspace
//! shown there: the workspace it is on is the shown one plus how many output widths (and
//! heights) away its middle is.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::super::{cap_text, CompositorState, WindowName, Workspace, MAX_LISTED};

/// Bounds on what a hostile or broken peer can make the bar hold.
pub const MAX_VIEWS: usize = 65_536;
/// Columns (and rows) of a workspace grid shown at most, and outputs followed at most:
/// 4096 workspaces in all.
pub const MAX_GRID: i64 = 16;
const MAX_OUTPUTS: usize = 16;

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
struct Rect {
    x: i64,
    y: i64,
    width: i64,
    height: i64,
}

/// The workspace shown on an output, and its grid's size.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
struct Grid {
    x: i64,
    y: i64,
    grid_width: i64,
    grid_height: i64,
}

impl Grid {
    fn columns(&self) -> i64 {
        self.grid_width.clamp(1, MAX_GRID)
    }

    fn rows(&self) -> i64 {
        self.grid_height.clamp(1, MAX_GRID)
    }
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
struct Output {
    id: u64,
    name: String,
    geometry: Rect,
    workspace: Grid,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, rename_all = "kebab-case")]
struct View {
    id: u64,
    pid: i64,
    title: String,
    app_id: String,
    geometry: Rect,
    output_id: i64,
    role: String,
    mapped: bool,
}

impl View {
    /// A window of an application, as a bar counts them (not a panel, not one being
    /// made or gone).
    fn is_window(&self) -> bool {
        self.mapped && self.role == "toplevel" && self.pid != -1
    }
}

#[derive(Debug, Default)]
pub struct Wayfire {
    outputs: Vec<Output>,
    views: HashMap<u64, View>,
    focused_view: Option<u64>,
    focused_output: Option<u64>,
}

fn parsed<T: for<'de> Deserialize<'de>>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}

impl Wayfire {
    /// `window-rules/list-outputs`' reply: every output.
    pub fn set_outputs(&mut self, reply: &Value) {
        let outputs = reply.as_array().into_iter().flatten();
        self.outputs = outputs.filter_map(parsed).take(MAX_OUTPUTS).collect();
    }

    /// `window-rules/list-views`' reply: every view.
    pub fn set_views(&mut self, reply: &Value) {
        self.views.clear();
        for view in reply.as_array().into_iter().flatten() {
            self.put_view(view);
        }
    }

    /// `window-rules/get-focused-view`'s reply (`{"info": view or null}`).
    pub fn set_focused_view(&mut self, reply: &Value) {
        let view = reply.get("info").filter(|info| info.is_object());
        self.focused_view = view.and_then(|view| self.put_view(view));
    }

    /// `window-rules/get-focused-output`'s reply (`{"info": output}`).
    pub fn set_focused_output(&mut self, reply: &Value) {
        if let Some(output) = reply.get("info").and_then(parsed::<Output>) {
            self.focused_output = Some(output.id);
            self.put_output(output);
        }
    }

    /// One event. `true` when the outputs should be asked for again: an output event
    /// (one came or went, or changed its grid).
    pub fn apply(&mut self, event: &Value) -> bool {
        let name = event.get("event").and_then(Value::as_str).unwrap_or("");
        let output = event
            .get("output-data")
            .or_else(|| event.get("output").filter(|o| o.is_object()))
            .and_then(parsed::<Output>);
        if let Some(output) = output {
            if name == "output-gain-focus" {
                self.focused_output = Some(output.id);
            }
            self.put_output(output);
        }
        match (name, event.get("view")) {
            ("view-unmapped", Some(view)) => {
                let id = view.get("id").and_then(Value::as_u64);
                if let Some(id) = id {
                    self.views.remove(&id);
                }
                if self.focused_view.is_some() && self.focused_view == id {
                    self.focused_view = None;
                }
            }
            ("view-focused", Some(view)) => {
                self.focused_view = view.is_object().then(|| self.put_view(view)).flatten();
            }
            (_, Some(view)) if view.is_object() => {
                self.put_view(view);
            }
            _ => {}
        }
        name.starts_with("output-")
    }

    fn put_view(&mut self, value: &Value) -> Option<u64> {
        let view: View = parsed(value)?;
        let id = view.id;
        if self.views.len() < MAX_VIEWS || self.views.contains_key(&id) {
            self.views.insert(id, view);
        }
        Some(id)
    }

    fn put_output(&mut self, output: Output) {
        let room = self.outputs.len() < MAX_OUTPUTS;
        match self.outputs.iter_mut().find(|o| o.id == output.id) {
            Some(known) => *known = output,
            None if room => self.outputs.push(output),
            None => {}
        }
    }

    /// Where the workspace the bar shows as `shown` is: its output's id and its column
    /// and row.
    pub fn place_of(&self, shown: &Workspace) -> Option<(u64, i64, i64)> {
        let output = self.outputs.iter().find(|o| o.name == shown.output)?;
        let index = shown.id.checked_sub(1).filter(|i| *i >= 0)?;
        let grid = output.workspace;
        (index < grid.columns() * grid.rows())
            .then(|| (output.id, index % grid.columns(), index / grid.columns()))
    }

    /// The column and row of the workspace `view` is on, on `output`.
    fn workspace_of(view: &View, output: &Output) -> (i64, i64) {
        let grid = output.workspace;
        let (width, height) = (output.geometry.width.max(1), output.geometry.height.max(1));
        let middle_x = view.geometry.x + view.geometry.width / 2;
        let middle_y = view.geometry.y + view.geometry.height / 2;
        let column = grid.x + middle_x.div_euclid(width);
        let row = grid.y + middle_y.div_euclid(height);
        (
            column.clamp(0, grid.columns() - 1),
            row.clamp(0, grid.rows() - 1),
        )
    }

    /// The picture for the modules: each output's grid, row by row, numbered from 1.
    pub fn state(&self) -> CompositorState {
        let focused_view = self.focused_view.and_then(|id| self.views.get(&id));
        let focused_output = self
            .focused_output
            .filter(|id| self.outputs.iter().any(|o| o.id == *id))
            .or_else(|| focused_view.and_then(|v| u64::try_from(v.output_id).ok()))
            .or_else(|| self.outputs.first().map(|o| o.id));
        let mut outputs: Vec<&Output> = self.outputs.iter().collect();
        outputs.sort_by(|a, b| a.name.cmp(&b.name));
        let mut workspaces = Vec::new();
        for output in outputs {
            let grid = output.workspace;
            let mut listed: Vec<Vec<&View>> =
                vec![Vec::new(); (grid.columns() * grid.rows()) as usize];
            let on_output = self
                .views
                .values()
                .filter(|v| v.output_id == output.id as i64);
            for view in on_output.filter(|v| v.is_window()) {
                let (column, row) = Self::workspace_of(view, output);
                listed[(row * grid.columns() + column) as usize].push(view);
            }
            for (index, mut views) in listed.into_iter().enumerate() {
                let windows = views.len() as u32;
                // Oldest first: Wayfire's ids grow.
                views.sort_unstable_by_key(|v| v.id);
                let window_names = views
                    .iter()
                    .take(MAX_LISTED)
                    .map(|v| WindowName {
                        title: cap_text(&v.title),
                        app_id: Some(cap_text(&v.app_id)).filter(|a| !a.is_empty()),
                    })
                    .collect();
                let index = index as i64;
                let shown = (index % grid.columns(), index / grid.columns()) == (grid.x, grid.y);
                workspaces.push(Workspace {
                    id: index + 1,
                    name: (index + 1).to_string(),
                    output: cap_text(&output.name),
                    focused: shown && focused_output == Some(output.id),
                    visible: shown,
                    windows,
                    window_names,
                    ..Workspace::default()
                });
            }
        }
        let window = focused_view.filter(|v| v.mapped);
        CompositorState {
            workspaces,
            window_title: window.map(|v| cap_text(&v.title)),
            window_app_id: window
                .map(|v| cap_text(&v.app_id))
                .filter(|a| !a.is_empty()),
            ..CompositorState::default()
        }
    }
}
