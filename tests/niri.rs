//! The compositor client against a stand-in niri (tests/common/niri.rs: niri's IPC served
//! with niri's own types, since no real niri can be had here): the state from the event
//! stream, clicks as niri actions, a flood, malformed and oversized lines, niri refusing
//! and restarting.

mod common;

use std::time::{Duration, Instant};

use niri_ipc::{Action, Event, KeyboardLayouts, LayoutSwitchTarget, WorkspaceReferenceArg};

use common::ipc::{connect, focused, on_own_context, pump, wait_state, workspace};
use common::niri::{window_of, workspace_of, StandIn};

const WAIT: Duration = Duration::from_secs(10);

/// Two outputs: DP-1 with workspaces 1 (focused, "notes" focused on it) and 2 ("mail"),
/// HDMI-A-1 with its workspace 1; two layouts.
fn desktop() -> Vec<Event> {
    let mut mail = workspace_of(11, 2, "DP-1", false, false);
    mail.name = Some("mail".into());
    vec![
        Event::WorkspacesChanged {
            workspaces: vec![
                workspace_of(10, 1, "DP-1", true, true),
                mail,
                workspace_of(20, 1, "HDMI-A-1", true, false),
            ],
        },
        Event::WindowsChanged {
            windows: vec![
                window_of(1, 10, "notes", true),
                window_of(2, 20, "video", false),
            ],
        },
        Event::KeyboardLayoutsChanged {
            keyboard_layouts: KeyboardLayouts {
                names: vec!["English (US)".into(), "German".into()],
                current_idx: 0,
            },
        },
        Event::OverviewOpenedOrClosed { is_open: false },
        Event::ConfigLoaded { failed: false },
    ]
}

/// As niri does: showing a workspace activates and focuses it; a layout switch says so.
fn like_niri(action: &Action) -> Vec<Event> {
    match action {
        Action::FocusWorkspace {
            reference: WorkspaceReferenceArg::Id(id),
        } => vec![Event::WorkspaceActivated {
            id: *id,
            focused: true,
        }],
        Action::SwitchLayout {
            layout: LayoutSwitchTarget::Next,
        } => vec![Event::KeyboardLayoutSwitched { idx: 1 }],
        _ => vec![],
    }
}

fn socket_path(dir: &tempfile::TempDir) -> String {
    dir.path()
        .join("niri.wayland-1.123.sock")
        .display()
        .to_string()
}

#[test]
fn workspaces_windows_and_layouts_follow_the_stream_and_clicks_are_niri_actions() {
    on_own_context(|context| {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = socket_path(&dir);
        let niri = StandIn::start(path.as_ref(), desktop(), Box::new(like_niri));
        let (compositor, _) = connect(&[("NIRI_SOCKET", &path)]);
        let state = wait_state(context, &compositor, "niri's desktop", WAIT, |s| {
            s.workspaces.len() == 3 && s.keyboard.is_some()
        });
        assert_eq!(focused(&state), Some("1"));
        assert_eq!(state.workspaces[0].output, "DP-1");
        assert_eq!(state.workspaces[1].name, "mail");
        assert_eq!(state.workspaces[2].output, "HDMI-A-1");
        assert!(state.workspaces[2].visible && !state.workspaces[2].focused);
        assert_eq!(state.window_title.as_deref(), Some("notes"));
        assert_eq!(state.window_app_id.as_deref(), Some("org.example.App"));
        assert_eq!(
            state.keyboard.as_ref().map(|k| k.active.as_str()),
            Some("English (US)")
        );

        // A click on "mail": niri is asked for its workspace by id, and says it is shown.
        let mail = workspace(&state, "mail").expect("mail").clone();
        compositor.focus_workspace(&mail);
        let state = wait_state(context, &compositor, "mail focused", WAIT, |s| {
            focused(s) == Some("mail")
        });
        assert!(!workspace(&state, "1").is_some_and(|w| w.output == "DP-1" && w.visible));
        let asked = format!("{:?}", niri.actions());
        assert_eq!(asked, "[FocusWorkspace { reference: Id(11) }]");
        compositor.next_layout();
        wait_state(context, &compositor, "the next layout", WAIT, |s| {
            s.keyboard.as_ref().is_some_and(|k| k.active == "German")
        });

        // Windows come, change, turn urgent and go; the overview opens.
        niri.send(&[
            Event::WindowOpenedOrChanged {
                window: window_of(3, 11, "<b>inbox</b> & more", true),
            },
            Event::WindowUrgencyChanged {
                id: 2,
                urgent: true,
            },
            Event::OverviewOpenedOrClosed { is_open: true },
        ]);
        let state = wait_state(context, &compositor, "inbox focused", WAIT, |s| {
            s.window_title.as_deref() == Some("<b>inbox</b> & more") && s.mode.is_some()
        });
        assert!(
            state.workspaces[2].urgent,
            "its window is urgent: {state:#?}"
        );
        assert_eq!(state.mode.as_deref(), Some("overview"));
        niri.send(&[Event::WindowClosed { id: 3 }]);
        wait_state(context, &compositor, "no focused window", WAIT, |s| {
            s.window_title.is_none()
        });
    });
}

#[test]
fn a_flood_of_events_is_read_in_batches_and_garbage_is_skipped() {
    on_own_context(|context| {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = socket_path(&dir);
        let niri = StandIn::start(path.as_ref(), desktop(), Box::new(like_niri));
        let (compositor, changes) = connect(&[("NIRI_SOCKET", &path)]);
        wait_state(context, &compositor, "the desktop", WAIT, |s| {
            s.workspaces.len() == 3
        });
        let flood: Vec<Event> = (0..10_000)
            .map(|n| Event::WindowOpenedOrChanged {
                window: window_of(1, 10, &format!("title {n}"), true),
            })
            .collect();
        let before = changes.get();
        let started = Instant::now();
        niri.send(&flood);
        wait_state(context, &compositor, "the last title", WAIT, |s| {
            s.window_title.as_deref() == Some("title 9999")
        });
        let published = changes.get() - before;
        eprintln!(
            "10,000 events: {published} changes in {:?}",
            started.elapsed()
        );
        assert!(
            published < 1000,
            "{published} state changes for 10,000 events"
        );

        // Lines that are not JSON, not an event, or over the 16 MiB cap are skipped and
        // the stream goes on: no reconnect, the next event counts.
        let mut garbage = b"{\"WindowClosed\"\nnot json\n\x00\xff\n[]\n".to_vec();
        garbage.extend(std::iter::repeat_n(b'x', (16 << 20) + 10));
        garbage.extend(b"\n{\"WindowFocusChanged\":{\"id\":null}}\n");
        niri.send_raw(&garbage);
        wait_state(context, &compositor, "the focus dropped", WAIT, |s| {
            s.window_title.is_none() && s.workspaces.len() == 3
        });
        assert_eq!(niri.streams(), 1, "the same stream goes on");
    });
}

#[test]
fn niri_restarting_or_refusing_empties_the_state_until_it_is_back() {
    on_own_context(|context| {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = socket_path(&dir);
        // Before niri is up: nothing, and no error but a log line.
        let (compositor, _) = connect(&[("NIRI_SOCKET", &path)]);
        pump(context, Duration::from_millis(300));
        assert!(compositor.state().workspaces.is_empty());
        let niri = StandIn::start(path.as_ref(), desktop(), Box::new(like_niri));
        wait_state(context, &compositor, "niri up", WAIT, |s| {
            s.workspaces.len() == 3
        });
        niri.stop();
        wait_state(context, &compositor, "niri gone", WAIT, |s| {
            s.workspaces.is_empty()
        });
        // A niri that answers the event stream with an error is retried, not trusted.
        let refusing = std::os::unix::net::UnixListener::bind(&path).expect("bind");
        refusing.set_nonblocking(true).expect("nonblocking");
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut conn = loop {
            // The client's retry runs on this thread's context: keep it going.
            match refusing.accept() {
                Ok((conn, _)) => break conn,
                Err(_) if Instant::now() < deadline => pump(context, Duration::from_millis(50)),
                Err(err) => panic!("the client did not come back: {err}"),
            }
        };
        conn.set_nonblocking(false).expect("blocking");
        let mut request = [0; 64];
        let n = std::io::Read::read(&mut conn, &mut request).expect("its request");
        assert_eq!(&request[..n], b"\"EventStream\"\n");
        std::io::Write::write_all(
            &mut conn,
            b"{\"Err\":\"busy\"}\n{\"WorkspacesChanged\":{\"workspaces\":[]}}\n",
        )
        .expect("refuse");
        pump(context, Duration::from_millis(300));
        assert!(compositor.state().workspaces.is_empty());
        drop((conn, refusing));
        std::fs::remove_file(&path).expect("remove the socket");
        let niri = StandIn::start(path.as_ref(), desktop(), Box::new(like_niri));
        let state = wait_state(
            context,
            &compositor,
            "niri back",
            Duration::from_secs(30),
            |s| s.workspaces.len() == 3,
        );
        assert_eq!(state.window_title.as_deref(), Some("notes"));
        drop(niri);
    });
}
