//! What the foreign-toplevel protocol's events add up to, by the objects' ids: the
//! outputs' names and each window. A window is shown once the compositor has sent its
//! first `done` (its title, app id and state are in by then), and gone at `closed`.

use std::collections::{BTreeMap, HashMap};

use super::{Task, Tasks};
use crate::events::compositor::cap_text;

/// An app id's desktop entry name and icon, where one was found.
pub type App = (Option<String>, Option<String>);

/// The most windows (and outputs) a compositor can make the bar hold.
pub const MAX_TASKS: usize = 4096;

/// `zwlr_foreign_toplevel_handle_v1.state` entries.
const MAXIMIZED: u32 = 0;
const MINIMIZED: u32 = 1;
const ACTIVATED: u32 = 2;
const FULLSCREEN: u32 = 3;

#[derive(Debug, Default)]
pub struct TaskList {
    outputs: HashMap<u32, String>,
    /// In the order announced.
    tasks: Vec<Entry>,
    /// `app_ids-mapping`.
    app_ids: BTreeMap<String, String>,
}

#[derive(Debug, Default)]
struct Entry {
    task: Task,
    outputs: Vec<u32>,
    /// Its first `done` came.
    shown: bool,
}

impl TaskList {
    pub fn new(app_ids: BTreeMap<String, String>) -> TaskList {
        TaskList {
            app_ids,
            ..TaskList::default()
        }
    }

    fn entry(&mut self, id: u32) -> Option<&mut Entry> {
        self.tasks.iter_mut().find(|e| e.task.id == id)
    }

    /// The window `id`, as last announced (shown or not).
    pub fn get(&self, id: u32) -> Option<&Task> {
        self.tasks.iter().find(|e| e.task.id == id).map(|e| &e.task)
    }

    pub fn output_named(&mut self, output: u32, name: &str) {
        if self.outputs.len() < MAX_TASKS || self.outputs.contains_key(&output) {
            self.outputs.insert(output, cap_text(name));
        }
    }

    pub fn output_gone(&mut self, output: u32) {
        self.outputs.remove(&output);
        for entry in &mut self.tasks {
            entry.outputs.retain(|o| *o != output);
        }
    }

    /// A new window; false when the bar holds as many as it takes (it is not followed).
    pub fn added(&mut self, id: u32) -> bool {
        if self.tasks.len() >= MAX_TASKS {
            return false;
        }
        self.tasks.retain(|e| e.task.id != id);
        self.tasks.push(Entry {
            task: Task {
                id,
                ..Task::default()
            },
            ..Entry::default()
        });
        true
    }

    pub fn closed(&mut self, id: u32) {
        self.tasks.retain(|e| e.task.id != id);
    }

    pub fn title(&mut self, id: u32, title: &str) {
        if let Some(entry) = self.entry(id) {
            entry.task.title = cap_text(title);
        }
    }

    pub fn app_id(&mut self, id: u32, app_id: &str) {
        let mapped = self.app_ids.get(app_id).map(String::as_str);
        let shown = cap_text(mapped.unwrap_or(app_id));
        if let Some(entry) = self.entry(id) {
            entry.task.app_id = shown;
        }
    }

    /// `states`: the protocol's array of native-endian u32 entries.
    pub fn state(&mut self, id: u32, states: &[u8]) {
        let Some(entry) = self.entry(id) else {
            return;
        };
        let has = |wanted: u32| {
            states
                .chunks_exact(4)
                .any(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]) == wanted)
        };
        let task = &mut entry.task;
        task.maximized = has(MAXIMIZED);
        task.minimized = has(MINIMIZED);
        task.active = has(ACTIVATED);
        task.fullscreen = has(FULLSCREEN);
    }

    /// The window entered (or left) an output.
    pub fn output(&mut self, id: u32, output: u32, entered: bool) {
        if let Some(entry) = self.entry(id) {
            entry.outputs.retain(|o| *o != output);
            if entered && entry.outputs.len() < 64 {
                entry.outputs.push(output);
            }
        }
    }

    pub fn done(&mut self, id: u32) {
        if let Some(entry) = self.entry(id) {
            entry.shown = true;
        }
    }

    /// The windows shown; `app` gives an app id's desktop entry name and icon.
    pub fn tasks(&self, app: &dyn Fn(&str) -> App) -> Tasks {
        let list = self
            .tasks
            .iter()
            .filter(|e| e.shown)
            .map(|e| {
                let mut task = e.task.clone();
                task.outputs = e
                    .outputs
                    .iter()
                    .filter_map(|o| self.outputs.get(o).cloned())
                    .collect();
                (task.app_name, task.icon) = app(&task.app_id);
                task
            })
            .collect();
        Tasks { list }
    }
}
