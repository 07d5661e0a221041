//! The client against fake compositors on Unix sockets in a temporary folder: a
//! Hyprland 0.56 with a Lua config (the dialect fallback), title events, garbage on the
//! event socket, a lost connection; and sways that answer garbage.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gtk4::glib;

use super::*;

fn on_own_context(body: impl FnOnce(&glib::MainContext)) {
    let context = glib::MainContext::new();
    context
        .with_thread_default(|| body(&context))
        .expect("a fresh context is free");
}

fn wait(context: &glib::MainContext, what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        while context.iteration(false) {}
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn pump(context: &glib::MainContext, time: Duration) {
    let end = Instant::now() + time;
    while Instant::now() < end {
        while context.iteration(false) {}
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Accepts connections on `path` in a thread until `stop`, handing each to `serve`.
fn serve(
    path: &Path,
    stop: &Arc<AtomicBool>,
    serve: impl Fn(UnixStream) + Send + 'static,
) -> std::thread::JoinHandle<()> {
    let listener = UnixListener::bind(path).expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let stop = stop.clone();
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            match listener.accept() {
                Ok((stream, _)) => {
                    stream.set_nonblocking(false).expect("blocking");
                    serve(stream);
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    })
}

type Replies = Arc<Mutex<HashMap<String, String>>>;

/// A fake Hyprland: `.socket.sock` answers from `replies` (one request per
/// connection, read at once as Hyprland does); `.socket2.sock` connections are kept
/// for the test to write events to.
struct FakeHyprland {
    runtime: tempfile::TempDir,
    requests: Arc<Mutex<Vec<String>>>,
    replies: Replies,
    events: Arc<Mutex<Vec<UnixStream>>>,
    stop: Arc<AtomicBool>,
}

impl FakeHyprland {
    fn start() -> FakeHyprland {
        let runtime = tempfile::tempdir().expect("tempdir");
        let dir = runtime.path().join("hypr/sig");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let fake = FakeHyprland {
            runtime,
            requests: Arc::default(),
            replies: Arc::default(),
            events: Arc::default(),
            stop: Arc::default(),
        };
        let (requests, replies) = (fake.requests.clone(), fake.replies.clone());
        serve(&dir.join(".socket.sock"), &fake.stop, move |mut stream| {
            let mut buf = [0; 8192];
            let n = stream.read(&mut buf).unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]).into_owned();
            let reply = replies.lock().expect("lock").get(&request).cloned();
            requests.lock().expect("lock").push(request);
            let _ = stream.write_all(reply.unwrap_or("unknown request".into()).as_bytes());
        });
        let events = fake.events.clone();
        serve(&dir.join(".socket2.sock"), &fake.stop, move |stream| {
            events.lock().expect("lock").push(stream);
        });
        fake
    }

    fn reply(&self, request: &str, reply: &str) {
        let mut replies = self.replies.lock().expect("lock");
        replies.insert(request.into(), reply.into());
    }

    fn send_event(&self, bytes: &[u8]) {
        let mut events = self.events.lock().expect("lock");
        let stream = events.last_mut().expect("a client listens");
        stream.write_all(bytes).expect("write an event");
    }

    fn count(&self, request: &str) -> usize {
        let requests = self.requests.lock().expect("lock");
        requests.iter().filter(|r| *r == request).count()
    }

    fn connect(&self) -> Rc<Compositor> {
        let runtime = self.runtime.path().display().to_string();
        let var = move |name: &str| match name {
            "HYPRLAND_INSTANCE_SIGNATURE" => Some("sig".to_owned()),
            "XDG_RUNTIME_DIR" => Some(runtime.clone()),
            _ => None,
        };
        Compositor::connect_with_env(var, None, |_| {}).expect("a Hyprland client")
    }
}

impl Drop for FakeHyprland {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn workspaces_json(focused: i64) -> (String, String) {
    let workspaces = r#"[{"id": 1, "name": "1", "monitor": "DP-1", "windows": 1},
                         {"id": 2, "name": "2", "monitor": "DP-1", "windows": 0}]"#;
    let monitors = format!(
        r#"[{{"name": "DP-1", "focused": true, "activeWorkspace": {{"id": {focused},
            "name": "{focused}"}}, "specialWorkspace": {{"id": 0, "name": ""}}}}]"#
    );
    (workspaces.into(), monitors)
}

#[test]
fn a_fake_hyprland_drives_the_state_and_learns_the_lua_dialect_from_a_reply() {
    let fake = FakeHyprland::start();
    let (workspaces, monitors) = workspaces_json(1);
    fake.reply("j/version", r#"{"version": "0.56.2", "tag": "v0.56.2"}"#);
    fake.reply("j/workspaces", &workspaces);
    fake.reply("j/monitors", &monitors);
    fake.reply(
        "j/activewindow",
        r#"{"address": "0xabc", "class": "foot", "title": "t1"}"#,
    );
    // 0.56 with a Lua config: the legacy form is refused with Hyprland's note.
    fake.reply(
        "/dispatch workspace 2",
        "error: [string \"return hl.dispatch(workspace 2)\"]:1: ')' expected near '2'\n\n \
         → Note: dispatch in lua is a shorthand for hl.dispatch(...), your syntax might \
         need to be updated.",
    );
    fake.reply("/dispatch hl.dsp.focus({ workspace = 2 })", "ok");
    on_own_context(|context| {
        let compositor = fake.connect();
        wait(context, "the first state", || {
            compositor.state().window_title.as_deref() == Some("t1")
        });
        let state = compositor.state();
        assert_eq!(state.focused_workspace().map(|w| w.id), Some(1));
        assert_eq!(state.window_app_id.as_deref(), Some("foot"));

        // A title event of the focused window: no new round of queries.
        let rounds = fake.count("j/workspaces");
        fake.send_event(b"windowtitlev2>>abc,t2\nwindowtitlev2>>def,other\n");
        wait(context, "the new title", || {
            compositor.state().window_title.as_deref() == Some("t2")
        });
        pump(context, Duration::from_millis(50));
        assert_eq!(fake.count("j/workspaces"), rounds);

        // Garbage (a line far too long) is skipped; the events after it count.
        let (workspaces, monitors) = workspaces_json(2);
        fake.reply("j/workspaces", &workspaces);
        fake.reply("j/monitors", &monitors);
        fake.send_event(&vec![b'x'; 200_000]);
        fake.send_event(b"\n\xff\xfe>>\nworkspace>>2\nworkspacev2>>2,2\n");
        wait(context, "workspace 2", || {
            compositor.state().focused_workspace().map(|w| w.id) == Some(2)
        });

        // Switching: the legacy form first (0.56), then Lua after Hyprland's note, and
        // Lua from then on.
        let two = compositor.state().workspaces[1].clone();
        compositor.focus_workspace(&two);
        wait(context, "the Lua dispatch", || {
            fake.count("/dispatch hl.dsp.focus({ workspace = 2 })") == 1
        });
        assert_eq!(fake.count("/dispatch workspace 2"), 1);
        compositor.focus_workspace(&two);
        wait(context, "the second Lua dispatch", || {
            fake.count("/dispatch hl.dsp.focus({ workspace = 2 })") == 2
        });
        assert_eq!(fake.count("/dispatch workspace 2"), 1);
        assert_eq!(fake.count("j/version"), 1);

        // The event socket closes: the state empties, and the client comes back.
        fake.events.lock().expect("lock").clear();
        wait(context, "an empty state", || {
            compositor.state().workspaces.is_empty()
        });
        wait(context, "the state again", || {
            !compositor.state().workspaces.is_empty()
        });
        assert_eq!(fake.events.lock().expect("lock").len(), 1);
    });
}

#[test]
fn a_query_closed_without_an_answer_is_asked_again() {
    // Hyprland closes a request's connection without a word when it was too busy to read
    // the request in time; no event may follow to start another round.
    let fake = FakeHyprland::start();
    let (workspaces, monitors) = workspaces_json(1);
    fake.reply("j/version", r#"{"version": "0.57.0"}"#);
    fake.reply("j/workspaces", "");
    fake.reply("j/monitors", &monitors);
    fake.reply("j/activewindow", "{}");
    on_own_context(|context| {
        let compositor = fake.connect();
        wait(context, "the first round", || {
            fake.count("j/workspaces") == 1
        });
        fake.reply("j/workspaces", &workspaces);
        wait(context, "the state", || {
            compositor.state().focused_workspace().is_some()
        });
        pump(context, Duration::from_millis(50));
        assert_eq!(fake.count("j/workspaces"), 2, "one more round, then quiet");
    });
}

/// A fake sway that accepts connections and answers every one with `reply`.
fn garbage_sway(reply: &'static [u8]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sway.sock");
    let stop = Arc::new(AtomicBool::new(false));
    let connections = Arc::new(AtomicUsize::new(0));
    let counter = connections.clone();
    serve(&path, &stop, move |mut stream| {
        counter.fetch_add(1, Ordering::Relaxed);
        let _ = stream.write_all(reply);
        // Kept open a while, as a confused peer would.
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(5));
            drop(stream);
        });
    });
    on_own_context(|context| {
        let path = path.display().to_string();
        let var = move |name: &str| (name == "SWAYSOCK").then(|| path.clone());
        let compositor = Compositor::connect_with_env(var, None, |_| {}).expect("a sway client");
        pump(context, Duration::from_secs(3));
        assert!(compositor.state().workspaces.is_empty());
        // Two sockets per attempt, after 0, 0.5, 1.5 s (the next one is at 3.5 s).
        let attempts = connections.load(Ordering::Relaxed);
        assert!((4..=8).contains(&attempts), "{attempts} connections in 3 s");
    });
    stop.store(true, Ordering::Relaxed);
}

#[test]
fn a_sway_socket_speaking_garbage_is_dropped_and_retried_with_backoff() {
    garbage_sway(b"HTTP/1.1 400 Bad Request\r\n\r\n");
}

#[test]
fn a_sway_socket_announcing_an_absurd_message_is_dropped() {
    // i3-ipc, 4 GiB, type 0.
    garbage_sway(b"i3-ipc\xff\xff\xff\xff\x00\x00\x00\x00");
}
