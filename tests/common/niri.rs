//! A stand-in niri: no Debian release or package registry has a real niri, so this serves
//! niri's documented IPC on a Unix socket with niri's own types (the `niri-ipc` crate).
//! Each connection reads request lines; `EventStream` is answered `Ok(Handled)` and the
//! connection then gets every event the test sends; an action is recorded, answered,
//! and may send events of its own (as niri does when a workspace is shown).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use niri_ipc::{Action, Event, Reply, Request, Response, Window, WindowLayout, Workspace};

/// What the stand-in does with an action: the events it then sends to every stream.
pub type OnAction = dyn Fn(&Action) -> Vec<Event> + Send + Sync;

pub struct StandIn {
    path: PathBuf,
    streams: Arc<Mutex<Vec<UnixStream>>>,
    actions: Arc<Mutex<Vec<Action>>>,
    stop: Arc<AtomicBool>,
    accept: Option<std::thread::JoinHandle<()>>,
    /// To the thread that writes the test's events: the test's own thread runs the
    /// client's main loop, so it must not wait for the client to read.
    outgoing: Option<Sender<Vec<u8>>>,
}

impl StandIn {
    /// Listens at `path`; every new event stream first gets `initial` (niri sends the
    /// whole state up front).
    pub fn start(path: &Path, initial: Vec<Event>, on_action: Box<OnAction>) -> StandIn {
        let listener = UnixListener::bind(path).expect("bind the stand-in's socket");
        listener.set_nonblocking(true).expect("nonblocking");
        let streams: Arc<Mutex<Vec<UnixStream>>> = Arc::default();
        let actions: Arc<Mutex<Vec<Action>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let on_action: Arc<OnAction> = Arc::from(on_action);
        let (s, a, st) = (streams.clone(), actions.clone(), stop.clone());
        let accept = std::thread::spawn(move || {
            while !st.load(Ordering::Relaxed) {
                let Ok((conn, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                conn.set_nonblocking(false).expect("blocking");
                let (s, a, on_action) = (s.clone(), a.clone(), on_action.clone());
                let initial = initial.clone();
                std::thread::spawn(move || serve(conn, &initial, &s, &a, &*on_action));
            }
        });
        let (outgoing, queue) = mpsc::channel::<Vec<u8>>();
        let writer_streams = streams.clone();
        std::thread::spawn(move || {
            for bytes in queue {
                broadcast(&writer_streams, &bytes);
            }
        });
        StandIn {
            path: path.to_owned(),
            streams,
            actions,
            stop,
            accept: Some(accept),
            outgoing: Some(outgoing),
        }
    }

    /// Sends `events` to every event stream, as one write each.
    pub fn send(&self, events: &[Event]) {
        let mut bytes = Vec::new();
        for event in events {
            serde_json::to_writer(&mut bytes, event).expect("serializes");
            bytes.push(b'\n');
        }
        self.send_raw(&bytes);
    }

    /// Writes `bytes` as they are to every event stream, in the background and in order.
    pub fn send_raw(&self, bytes: &[u8]) {
        if let Some(outgoing) = &self.outgoing {
            outgoing.send(bytes.to_vec()).expect("the writer runs");
        }
    }

    /// How many event streams are open.
    pub fn streams(&self) -> usize {
        self.streams.lock().expect("streams").len()
    }

    pub fn actions(&self) -> Vec<Action> {
        self.actions.lock().expect("actions").clone()
    }

    /// niri exits: the streams close and the socket is gone.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        self.outgoing.take();
        self.stop.store(true, Ordering::Relaxed);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
        for stream in self.streams.lock().expect("streams").drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn broadcast(streams: &Mutex<Vec<UnixStream>>, bytes: &[u8]) {
    // A stream the client closed is dropped from the list.
    streams
        .lock()
        .expect("streams")
        .retain_mut(|stream| stream.write_all(bytes).is_ok());
}

fn reply(conn: &mut UnixStream, reply: &Reply) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(reply).expect("serializes");
    line.push(b'\n');
    conn.write_all(&line)
}

/// One client's connection: request lines until it closes or asks for the event stream.
fn serve(
    mut conn: UnixStream,
    initial: &[Event],
    streams: &Mutex<Vec<UnixStream>>,
    actions: &Mutex<Vec<Action>>,
    on_action: &OnAction,
) {
    let mut reader = BufReader::new(conn.try_clone().expect("clone"));
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
        let request: Result<Request, _> = serde_json::from_str(&line);
        line.clear();
        let answered = match request {
            Ok(Request::EventStream) => {
                if reply(&mut conn, &Ok(Response::Handled)).is_err() {
                    return;
                }
                let mut bytes = Vec::new();
                for event in initial {
                    serde_json::to_writer(&mut bytes, event).expect("serializes");
                    bytes.push(b'\n');
                }
                if conn.write_all(&bytes).is_ok() {
                    streams.lock().expect("streams").push(conn);
                }
                return;
            }
            Ok(Request::Action(action)) => {
                actions.lock().expect("actions").push(action.clone());
                let answered = reply(&mut conn, &Ok(Response::Handled));
                let events = on_action(&action);
                if !events.is_empty() {
                    let mut bytes = Vec::new();
                    for event in &events {
                        serde_json::to_writer(&mut bytes, event).expect("serializes");
                        bytes.push(b'\n');
                    }
                    broadcast(streams, &bytes);
                }
                answered
            }
            Ok(other) => reply(
                &mut conn,
                &Err(format!("the stand-in does not serve {other:?}")),
            ),
            Err(err) => reply(&mut conn, &Err(format!("error parsing request: {err}"))),
        };
        if answered.is_err() {
            return;
        }
    }
}

/// A workspace as niri describes it (no name).
pub fn workspace_of(id: u64, idx: u8, output: &str, active: bool, focused: bool) -> Workspace {
    Workspace {
        id,
        idx,
        name: None,
        output: Some(output.into()),
        is_urgent: false,
        is_active: active,
        is_focused: focused,
        active_window_id: None,
    }
}

/// A tiled window as niri describes it.
pub fn window_of(id: u64, workspace: u64, title: &str, focused: bool) -> Window {
    Window {
        id,
        title: Some(title.into()),
        app_id: Some("org.example.App".into()),
        pid: None,
        workspace_id: Some(workspace),
        is_focused: focused,
        is_floating: false,
        is_urgent: false,
        layout: WindowLayout {
            pos_in_scrolling_layout: None,
            tile_size: (1.0, 1.0),
            window_size: (1, 1),
            tile_pos_in_workspace_view: None,
            window_offset_in_tile: (0.0, 0.0),
        },
        focus_timestamp: None,
    }
}
