//! The taskbar's client: `zwlr_foreign_toplevel_manager_v1` on a Wayland connection of
//! the bar's own, with `wl_output` (version 4, for the outputs' names) and the seat (an
//! activation names one). Each wake-up's events are dispatched into the [`TaskList`],
//! and the windows published once if anything changed. Without Wayland or without the
//! protocol the state is `None`, said once.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use gtk4::glib::{self, ControlFlow};
use wayland_client::protocol::wl_callback::{self, WlCallback};
use wayland_client::protocol::wl_output::{self, WlOutput};
use wayland_client::protocol::wl_registry::{self, WlRegistry};
use wayland_client::protocol::wl_seat::{self, WlSeat};
use wayland_client::{event_created_child, Connection, Dispatch, Proxy, QueueHandle};
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_handle_v1::{
    self as toplevel, ZwlrForeignToplevelHandleV1 as Handle,
};
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_manager_v1::{
    self as manager, ZwlrForeignToplevelManagerV1 as Manager,
};

use super::apps::Apps;
use super::{TaskAction, TaskCommand, TaskList, TaskSettings, Tasks};
use crate::events::source::{OnChange, Watch};
use crate::events::wayland_link::Link;
use crate::events::wayland_outputs::{named, Outputs};

const WHAT: &str = "taskbar";

/// Follows the open windows; dropping it closes its connection.
pub struct TaskWatch {
    inner: Rc<RefCell<Option<Live>>>,
}

struct Live {
    link: Link<Protocols>,
    protocols: Protocols,
}

/// The protocols' state: the model and the objects requests go to.
struct Protocols {
    list: TaskList,
    apps: Apps,
    /// The outputs, for their names.
    outputs: Outputs,
    seat: Option<WlSeat>,
    manager: Option<Manager>,
    handles: HashMap<u32, Handle>,
    /// The globals were all in.
    synced: bool,
    changed: bool,
}

fn id(proxy: &impl Proxy) -> u32 {
    proxy.id().protocol_id()
}

impl Watch<Tasks> for TaskWatch {
    fn start(settings: &TaskSettings, on_change: OnChange<Tasks>) -> Option<TaskWatch> {
        let on_change: Rc<OnChange<Tasks>> = Rc::new(on_change);
        let inner: Rc<RefCell<Option<Live>>> = Rc::new(RefCell::new(None));
        let env = |var: &str| std::env::var(var).ok();
        let located = crate::events::compositor::wayland::locate(&env);
        let Some(Ok(path)) = located else {
            tracing::info!("{WHAT}: no Wayland display: no windows shown");
            glib::idle_add_local_once(move || on_change(None));
            return Some(TaskWatch { inner });
        };
        let weak: Weak<RefCell<Option<Live>>> = Rc::downgrade(&inner);
        let told = on_change.clone();
        let link = Link::open(&path, move || match weak.upgrade() {
            Some(inner) => on_readable(&inner, &told),
            None => ControlFlow::Break,
        });
        match link {
            Ok(link) => {
                let protocols = Protocols {
                    list: TaskList::new(settings.app_ids.clone()),
                    apps: Apps::default(),
                    outputs: Outputs::default(),
                    seat: None,
                    manager: None,
                    handles: HashMap::new(),
                    synced: false,
                    changed: false,
                };
                inner.replace(Some(Live { link, protocols }));
            }
            Err(why) => {
                tracing::info!("{WHAT}: {}: {why}", path.display());
                glib::idle_add_local_once(move || on_change(None));
            }
        }
        Some(TaskWatch { inner })
    }

    fn command(&self, command: &TaskCommand) {
        let mut inner = self.inner.borrow_mut();
        let Some(live) = inner.as_mut() else {
            return;
        };
        if live.protocols.carry_out(command) {
            if let Err(err) = live.link.flush() {
                tracing::warn!("{WHAT}: {err}");
            }
        }
    }
}

fn on_readable(inner: &Rc<RefCell<Option<Live>>>, on_change: &OnChange<Tasks>) -> ControlFlow {
    let outcome = {
        let mut inner = inner.borrow_mut();
        let Some(live) = inner.as_mut() else {
            return ControlFlow::Break;
        };
        let Live { link, protocols } = live;
        link.pump(protocols).map(|()| protocols.take_change())
    };
    match outcome {
        Ok(Some(tasks)) => on_change(tasks.as_ref()),
        Ok(None) => {}
        Err(why) => {
            tracing::info!("{WHAT}: {why}");
            inner.borrow_mut().take();
            on_change(None);
            return ControlFlow::Break;
        }
    }
    ControlFlow::Continue
}

impl Protocols {
    /// What to publish, when something changed since the last call: the windows, or
    /// `None` when the compositor has no foreign-toplevel manager.
    fn take_change(&mut self) -> Option<Option<Tasks>> {
        if !std::mem::take(&mut self.changed) || !self.synced {
            return None;
        }
        if self.manager.is_none() {
            return Some(None);
        }
        let apps = RefCell::new(&mut self.apps);
        Some(Some(
            self.list.tasks(&|app_id| apps.borrow_mut().of(app_id)),
        ))
    }

    /// Sends `command`'s request; false when the window is gone.
    fn carry_out(&self, command: &TaskCommand) -> bool {
        let (Some(handle), Some(task)) =
            (self.handles.get(&command.task), self.list.get(command.task))
        else {
            return false;
        };
        let activate = || match &self.seat {
            Some(seat) => handle.activate(seat),
            None => tracing::warn!("{WHAT}: no seat to activate a window on"),
        };
        match command.action {
            TaskAction::Activate => activate(),
            TaskAction::Minimize if task.minimized => handle.unset_minimized(),
            TaskAction::Minimize => handle.set_minimized(),
            TaskAction::MinimizeRaise if task.minimized => handle.unset_minimized(),
            TaskAction::MinimizeRaise if task.active => handle.set_minimized(),
            TaskAction::MinimizeRaise => activate(),
            TaskAction::Maximize if task.maximized => handle.unset_maximized(),
            TaskAction::Maximize => handle.set_maximized(),
            TaskAction::Fullscreen if task.fullscreen => handle.unset_fullscreen(),
            TaskAction::Fullscreen => handle.set_fullscreen(None),
            TaskAction::Close => handle.close(),
        }
        true
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
                "wl_seat" if state.seat.is_none() => {
                    state.seat = Some(registry.bind(name, 1, qh, ()));
                }
                "zwlr_foreign_toplevel_manager_v1" if state.manager.is_none() => {
                    state.manager = Some(registry.bind(name, version.min(3), qh, ()));
                }
                _ => {}
            },
            wl_registry::Event::GlobalRemove { name } => {
                if let Some(output) = state.outputs.remove(name) {
                    state.list.output_gone(output);
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
            tracing::info!("{WHAT}: the compositor offers no wlr-foreign-toplevel: no windows");
        }
        state.synced = true;
        state.changed = true;
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
            state.list.output_named(output, &name);
            state.changed = true;
        }
    }
}

/// The seat's capabilities and name do not matter here.
impl Dispatch<WlSeat, ()> for Protocols {
    fn event(
        _: &mut Self,
        _: &WlSeat,
        _: wl_seat::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

impl Dispatch<Manager, ()> for Protocols {
    fn event(
        state: &mut Self,
        _: &Manager,
        event: manager::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        match event {
            manager::Event::Toplevel { toplevel } => {
                if state.list.added(id(&toplevel)) {
                    state.handles.insert(id(&toplevel), toplevel);
                } else {
                    toplevel.destroy();
                }
            }
            manager::Event::Finished => {
                state.manager = None;
                state.changed = true;
            }
            _ => {}
        }
    }

    event_created_child!(Protocols, Manager, [
        manager::EVT_TOPLEVEL_OPCODE => (Handle, ()),
    ]);
}

impl Dispatch<Handle, ()> for Protocols {
    fn event(
        state: &mut Self,
        handle: &Handle,
        event: toplevel::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let task = id(handle);
        match apply(&mut state.list, task, event) {
            Applied::Nothing => {}
            Applied::Done => state.changed = true,
            Applied::Closed => {
                state.handles.remove(&task);
                handle.destroy();
                state.changed = true;
            }
        }
    }
}

/// What a toplevel handle's event did to the list.
pub(crate) enum Applied {
    /// A change to come: the compositor sends `done` after it.
    Nothing,
    /// `done`: the window's changes are all in.
    Done,
    /// The window is gone: its handle is to be destroyed.
    Closed,
}

/// Applies a toplevel handle's event to `list` (also the Wayland workspace backend's,
/// for the focused window).
pub(crate) fn apply(list: &mut TaskList, task: u32, event: toplevel::Event) -> Applied {
    match event {
        toplevel::Event::Title { title } => list.title(task, &title),
        toplevel::Event::AppId { app_id } => list.app_id(task, &app_id),
        toplevel::Event::State { state: states } => list.state(task, &states),
        toplevel::Event::OutputEnter { output } => list.output(task, id(&output), true),
        toplevel::Event::OutputLeave { output } => list.output(task, id(&output), false),
        toplevel::Event::Done => {
            list.done(task);
            return Applied::Done;
        }
        toplevel::Event::Closed => {
            list.closed(task);
            return Applied::Closed;
        }
        _ => {}
    }
    Applied::Nothing
}
