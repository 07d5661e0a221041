//! Driving the compositor IPC client (`ringbar::events::compositor::Compositor`) from a test: a
//! glib main context of the test's own, iterated while waiting for the client's state.

use std::cell::Cell;
use std::process::Child;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib;
use ringbar::events::compositor::{Compositor, CompositorState, Workspace};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Runs `body` with a fresh main context as the thread default (the client's sources
/// attach to it).
pub fn on_own_context(body: impl FnOnce(&glib::MainContext)) {
    // The client's log on stderr (RINGBAR_LOG=debug for more).
    let filter =
        ringbar::app::log::log_filter(std::env::var("RINGBAR_LOG").ok().as_deref(), "info");
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .finish()
        .with(filter)
        .try_init();
    let context = glib::MainContext::new();
    context
        .with_thread_default(|| body(&context))
        .expect("a fresh context is free");
}

/// A client for the compositor named by `env`, and a count of its state changes.
pub fn connect(env: &[(&str, &str)]) -> (Rc<Compositor>, Rc<Cell<usize>>) {
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let changes = Rc::new(Cell::new(0));
    let counter = changes.clone();
    let lookup = move |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let compositor =
        Compositor::connect_with_env(lookup, None, move |_| counter.set(counter.get() + 1))
            .expect("the environment names a compositor");
    (compositor, changes)
}

/// Iterates `context` until the client's state satisfies `check`.
pub fn wait_state(
    context: &glib::MainContext,
    compositor: &Compositor,
    what: &str,
    timeout: Duration,
    check: impl Fn(&CompositorState) -> bool,
) -> CompositorState {
    let deadline = Instant::now() + timeout;
    loop {
        while context.iteration(false) {}
        let state = compositor.state();
        if check(&state) {
            return state;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; the state: {state:#?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Iterates `context` for `time`.
pub fn pump(context: &glib::MainContext, time: Duration) {
    let end = Instant::now() + time;
    while Instant::now() < end {
        while context.iteration(false) {}
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn workspace<'a>(state: &'a CompositorState, name: &str) -> Option<&'a Workspace> {
    state.workspaces.iter().find(|w| w.name == name)
}

pub fn focused(state: &CompositorState) -> Option<&str> {
    state.focused_workspace().map(|w| w.name.as_str())
}

/// A workspace to switch to, as a button would hold it.
pub fn target(id: i64, name: &str) -> Workspace {
    Workspace {
        id,
        name: name.into(),
        ..Workspace::default()
    }
}

/// A child process killed when dropped.
pub struct Running(pub Child);

impl Running {
    /// Kills it now and waits for it.
    pub fn stop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
