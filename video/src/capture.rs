//! PipeWire's graph over its own protocol (libpipewire), on the GTK main loop: PipeWire's
//! loop is an epoll fd, which glib polls; when it is readable, one non-blocking turn of
//! PipeWire's loop runs its callbacks. Nothing waits for the server.
//!
//! The registry names every node and link. Video nodes (`Video/Source`,
//! `Stream/Input/Video`) are bound, for their whole properties (`device.api`,
//! `application.process.id` are not in the registry's) and their state (running or
//! not). A burst of changes is told once, from an idle callback. When PipeWire goes
//! (its connection fails), the state is `None` (logged once) and its socket is watched
//! with inotify: a connection is made again when a server makes it, so an absent
//! server costs no wake-ups.

use std::cell::RefCell;
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::rc::{Rc, Weak};
use std::time::Duration;

use pipewire::context::Context;
use pipewire::core::Core;
use pipewire::main_loop::MainLoop;
use pipewire::node::{Node, NodeInfoRef, NodeListener};
use pipewire::registry::{GlobalObject, Registry};
use pipewire::spa::utils::dict::DictRef;
use pipewire::types::ObjectType;
use rustc_hash::FxHashMap;

use ringbar::events::capture::{CaptureState, Graph, Props, VideoNode};
use ringbar::events::source::{OnChange, Watch};

/// From the socket's creation to the connection: the server binds, then listens.
const SOCKET_SETTLE: Duration = Duration::from_millis(200);

struct Dict<'a>(&'a DictRef);

impl Props for Dict<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key)
    }
}

/// One connection to the server; dropped whole when the server goes. Fields drop in
/// order: the listeners before their proxies, the proxies before the core.
struct Connection {
    nodes: FxHashMap<u32, (NodeListener, Node)>,
    _registry_listener: pipewire::registry::Listener,
    registry: Registry,
    _core_listener: pipewire::core::Listener,
    _core: Core,
}

struct Inner {
    connection: Option<Connection>,
    graph: Graph,
    /// The state last told, so that a change that changes nothing is not told.
    told: Option<Option<CaptureState>>,
    change_queued: bool,
    absence_logged: bool,
    socket_monitor: Option<gio::FileMonitor>,
    loop_source: Option<glib::SourceId>,
    on_change: Rc<OnChange<CaptureState>>,
    // Last: the context and its loop outlive every proxy.
    context: Context,
    mainloop: MainLoop,
}

/// Follows PipeWire's video graph; dropping it disconnects. The callbacks hold it
/// weakly, so one that fires after the drop does nothing.
pub struct CaptureWatch {
    inner: Rc<RefCell<Inner>>,
}

impl Watch<CaptureState> for CaptureWatch {
    /// `None` (after one log line) when libpipewire cannot make its loop at all.
    fn start(_: &(), on_change: OnChange<CaptureState>) -> Option<CaptureWatch> {
        pipewire::init();
        let made = MainLoop::new(None).and_then(|mainloop| {
            let context = Context::new(&mainloop)?;
            Ok((mainloop, context))
        });
        let (mainloop, context) = match made {
            Ok(made) => made,
            Err(err) => {
                tracing::warn!("privacy: libpipewire's loop failed ({err}); cameras not shown");
                return None;
            }
        };
        let inner = Rc::new(RefCell::new(Inner {
            connection: None,
            graph: Graph::default(),
            told: None,
            change_queued: false,
            absence_logged: false,
            socket_monitor: None,
            loop_source: None,
            on_change: Rc::new(on_change),
            context,
            mainloop,
        }));
        let fd = inner.borrow().mainloop.loop_().fd().as_raw_fd();
        let weak = Rc::downgrade(&inner);
        let source = glib_unix::unix_fd_add_local(fd, glib::IOCondition::IN, move |_, _| {
            let Some(inner) = weak.upgrade() else {
                return glib::ControlFlow::Break;
            };
            // No borrow while PipeWire's callbacks run: they borrow it themselves.
            let mainloop = inner.borrow().mainloop.clone();
            mainloop.loop_().iterate(Duration::ZERO);
            glib::ControlFlow::Continue
        });
        inner.borrow_mut().loop_source = Some(source);
        connect(&inner);
        Some(CaptureWatch { inner })
    }
}

impl Drop for CaptureWatch {
    fn drop(&mut self) {
        let mut inner = self.inner.borrow_mut();
        inner.connection = None;
        if let Some(source) = inner.loop_source.take() {
            source.remove();
        }
    }
}

/// Where the server listens, as libpipewire looks for it.
fn socket_path() -> Option<PathBuf> {
    let remote = std::env::var_os("PIPEWIRE_REMOTE").filter(|r| !r.is_empty());
    let remote = PathBuf::from(remote.unwrap_or_else(|| "pipewire-0".into()));
    if remote.is_absolute() {
        return Some(remote);
    }
    let runtime = ["PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR"]
        .iter()
        .find_map(|key| std::env::var_os(key).filter(|dir| !dir.is_empty()))?;
    Some(PathBuf::from(runtime).join(remote))
}

fn connect(inner: &Rc<RefCell<Inner>>) {
    let made = {
        let me = inner.borrow();
        me.context.connect(None).and_then(|core| {
            let registry = core.get_registry()?;
            Ok((core, registry))
        })
    };
    let (core, registry) = match made {
        Ok(made) => made,
        Err(err) => {
            absent(inner, &format!("no PipeWire to connect to ({err})"));
            return;
        }
    };
    let weak = Rc::downgrade(inner);
    let core_listener = core
        .add_listener_local()
        .error(move |id, _seq, res, message| {
            // The core's own error is the connection's end (EPIPE when the server
            // goes); it is dropped later, not from inside its own callback.
            if id == pipewire::core::PW_ID_CORE {
                let weak = weak.clone();
                let why = format!("PipeWire went away ({message}, {res})");
                glib::idle_add_local_once(move || {
                    if let Some(inner) = weak.upgrade() {
                        absent(&inner, &why);
                    }
                });
            }
        })
        .register();
    let (weak, weak_remove) = (Rc::downgrade(inner), Rc::downgrade(inner));
    let registry_listener = registry
        .add_listener_local()
        .global(move |global| {
            if let Some(inner) = weak.upgrade() {
                added(&inner, global);
            }
        })
        .global_remove(move |id| {
            if let Some(inner) = weak_remove.upgrade() {
                removed(&inner, id);
            }
        })
        .register();
    let mut me = inner.borrow_mut();
    me.socket_monitor = None;
    me.graph = Graph::default();
    me.connection = Some(Connection {
        nodes: FxHashMap::default(),
        _registry_listener: registry_listener,
        registry,
        _core_listener: core_listener,
        _core: core,
    });
    if me.absence_logged {
        tracing::info!("privacy: PipeWire is back");
        me.absence_logged = false;
    }
    drop(me);
    // Connected with no video yet: told now, so that `--once` need not wait.
    queue_change(inner);
}

/// No server, or no longer: the state is `None`, and a server's socket is awaited.
fn absent(inner: &Rc<RefCell<Inner>>, why: &str) {
    let mut me = inner.borrow_mut();
    me.connection = None;
    me.graph = Graph::default();
    if !me.absence_logged {
        tracing::info!("privacy: {why}; cameras and screen shares not shown until it starts");
        me.absence_logged = true;
    }
    let weak = Rc::downgrade(inner);
    me.socket_monitor = socket_path().and_then(|path| {
        ringbar::events::socket_watch::watch_created(&path, move || {
            let weak = weak.clone();
            glib::timeout_add_local_once(SOCKET_SETTLE, move || {
                if let Some(inner) = weak.upgrade() {
                    if inner.borrow().connection.is_none() {
                        connect(&inner);
                    }
                }
            });
        })
    });
    drop(me);
    queue_change(inner);
}

/// A global: video nodes are bound (for their properties and state), links kept.
fn added(inner: &Rc<RefCell<Inner>>, global: &GlobalObject<&DictRef>) {
    let Some(props) = global.props else {
        return;
    };
    let mut me = inner.borrow_mut();
    let Inner {
        connection: Some(connection),
        graph,
        ..
    } = &mut *me
    else {
        return;
    };
    match global.type_ {
        ObjectType::Link => {
            graph.add_link(global.id, &Dict(props));
            drop(me);
            queue_change(inner);
        }
        ObjectType::Node => {
            let video = matches!(
                props.get("media.class"),
                Some("Video/Source" | "Stream/Input/Video")
            );
            if !video {
                return;
            }
            let Ok(node) = connection.registry.bind::<Node, _>(global) else {
                return;
            };
            let (id, weak) = (global.id, Rc::downgrade(inner));
            let listener = node
                .add_listener_local()
                .info(move |info| {
                    if let Some(inner) = weak.upgrade() {
                        node_info(&inner, id, info);
                    }
                })
                .register();
            connection.nodes.insert(id, (listener, node));
        }
        _ => {}
    }
}

fn removed(inner: &Rc<RefCell<Inner>>, id: u32) {
    let mut me = inner.borrow_mut();
    let node = me.connection.as_mut().and_then(|c| c.nodes.remove(&id));
    let changed = me.graph.remove(id);
    drop(me);
    // Dropped outside the borrow: the listener first (the tuple's order).
    drop(node);
    if changed {
        queue_change(inner);
    }
}

/// A bound node's info: its whole properties (when they changed) and its state.
fn node_info(inner: &Rc<RefCell<Inner>>, id: u32, info: &NodeInfoRef) {
    let mut me = inner.borrow_mut();
    let mut changed = false;
    if let Some(node) = info.props().and_then(|props| VideoNode::of(&Dict(props))) {
        me.graph.add_node(id, node);
        changed = true;
    }
    // The raw state: the binding's own reading panics on a state it does not know.
    let running = info.as_raw().state == pipewire::sys::pw_node_state_PW_NODE_STATE_RUNNING;
    changed |= me.graph.set_running(id, running);
    drop(me);
    if changed {
        queue_change(inner);
    }
}

/// Tells the state once after a burst of changes, if it changed.
fn queue_change(inner: &Rc<RefCell<Inner>>) {
    let mut me = inner.borrow_mut();
    if me.change_queued {
        return;
    }
    me.change_queued = true;
    let weak: Weak<RefCell<Inner>> = Rc::downgrade(inner);
    glib::idle_add_local_once(move || {
        let Some(inner) = weak.upgrade() else {
            return;
        };
        let mut me = inner.borrow_mut();
        me.change_queued = false;
        let state = me
            .connection
            .is_some()
            .then(|| me.graph.state(std::process::id()));
        if me.told.as_ref() == Some(&state) {
            return;
        }
        me.told = Some(state.clone());
        let on_change = me.on_change.clone();
        drop(me);
        on_change(state.as_ref());
    });
}
