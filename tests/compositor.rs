//! The compositor IPC client against real compositors: headless sway run as the test
//! user (the client runs here, as root, on sway's socket). Hyprland's real-compositor
//! test is tests/hyprland.rs. The client lives on a glib main context of the test's own,
//! iterated while waiting.

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use ringbar::events::compositor::{CompositorState, Workspace};

use common::ipc::{
    connect, focused, on_own_context, pump, thread_cpu_time, wait_state, workspace, Running,
};
use common::session::{self, Session};
use common::{require_root, serial};

const WAIT: Duration = Duration::from_secs(20);

fn sway_socket(session: &Session) -> PathBuf {
    fs::read_dir(session.runtime_dir())
        .expect("runtime dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("sway-ipc.") && name.ends_with(".sock")
        })
        .expect("sway's IPC socket")
}

/// Sway's own idea of the focused workspace.
fn sway_focused(session: &Session) -> String {
    let json = session.swaymsg(&["-t", "get_workspaces", "-r"]);
    let list: Vec<serde_json::Value> = serde_json::from_str(&json).expect("workspaces JSON");
    list.iter()
        .find(|w| w["focused"] == true)
        .and_then(|w| w["name"].as_str())
        .expect("a focused workspace")
        .to_owned()
}

fn flower(session: &Session) -> Running {
    let child = session
        .as_user("weston-flower")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start weston-flower");
    Running(child)
}

#[test]
fn sway_workspaces_windows_titles_and_switching() {
    let _serial = serial();
    require_root();
    let session = Session::start(session::Compositor::Sway);
    let socket = sway_socket(&session);
    on_own_context(|context| {
        let started = Instant::now();
        let (compositor, _) = connect(&[("SWAYSOCK", &socket.display().to_string())]);
        let wait = |what: &str, check: &dyn Fn(&CompositorState) -> bool| {
            wait_state(context, &compositor, what, WAIT, check)
        };

        let state = wait("the first workspace", &|s| focused(s) == Some("1"));
        eprintln!("first state after {:?}", started.elapsed());
        assert_eq!(
            state.workspaces,
            [Workspace {
                id: 1,
                name: "1".into(),
                output: "HEADLESS-1".into(),
                focused: true,
                visible: true,
                ..Workspace::default()
            }]
        );
        assert_eq!(state.window_title, None);

        // A named workspace; the empty "1" goes away.
        session.swaymsg(&["workspace", "alpha"]);
        let state = wait("alpha", &|s| {
            focused(s) == Some("alpha") && s.workspaces.len() == 1
        });
        assert_eq!(state.workspaces[0].id, -1);

        // A window: occupancy and its title.
        let _flower = flower(&session);
        let state = wait("Flower on alpha", &|s| {
            workspace(s, "alpha").is_some_and(|w| w.windows == 1)
                && s.window_title.as_deref() == Some("Flower")
        });
        eprintln!("flower's app id: {:?}", state.window_app_id);
        assert!(state.window_app_id.is_some());

        // Another workspace: nothing focused there, alpha keeps its window.
        session.swaymsg(&["workspace", "2"]);
        let state = wait("workspace 2", &|s| focused(s) == Some("2"));
        assert_eq!(state.window_title, None);
        assert_eq!(state.window_app_id, None);
        let alpha = workspace(&state, "alpha").expect("alpha").clone();
        assert!(!alpha.visible && alpha.windows == 1);
        let _flower2 = flower(&session);
        wait("a window on 2", &|s| {
            workspace(s, "2").is_some_and(|w| w.windows == 1)
        });

        // Switching from the client.
        let switched = Instant::now();
        compositor.focus_workspace(&alpha);
        wait("alpha again", &|s| {
            focused(s) == Some("alpha") && s.window_title.as_deref() == Some("Flower")
        });
        eprintln!("focus_workspace round trip {:?}", switched.elapsed());
        assert_eq!(sway_focused(&session), "alpha");
        // A click on the focused workspace stays there, even with back-and-forth on.
        session.swaymsg(&["workspace_auto_back_and_forth", "yes"]);
        compositor.focus_workspace(&alpha);
        pump(context, Duration::from_millis(300));
        assert_eq!(sway_focused(&session), "alpha");

        // Scrolling: previous and next on the output, wrapping around; the last without
        // Sway's pointer warping (`warp-on-scroll = false`: one command of three).
        for (forward, to, warp) in [
            (false, "2", true),
            (true, "alpha", true),
            (true, "2", false),
        ] {
            compositor.step_workspace(forward, warp);
            wait(to, &|s| focused(s) == Some(to));
            assert_eq!(sway_focused(&session), to);
        }

        // Urgency of a workspace that is not shown.
        session.swaymsg(&["[workspace=alpha]", "urgent", "enable"]);
        wait("alpha urgent", &|s| {
            workspace(s, "alpha").is_some_and(|w| w.urgent)
        });

        // A name made of command syntax reaches sway as one name, and runs nothing.
        let pwned = session.home().join("pwned");
        let evil = format!("x; exec touch {}, $y", pwned.display());
        let quoted = format!("\"x; exec touch {}, $$y\"", pwned.display());
        session.swaymsg(&["workspace", &quoted]);
        wait("the odd name", &|s| focused(s) == Some(evil.as_str()));
        let _flower3 = flower(&session);
        let state = wait("a window there", &|s| {
            workspace(s, &evil).is_some_and(|w| w.windows == 1)
        });
        let odd = workspace(&state, &evil).expect("odd workspace").clone();
        session.swaymsg(&["workspace", "2"]);
        wait("2 again", &|s| focused(s) == Some("2"));
        compositor.focus_workspace(&odd);
        wait("the odd name again", &|s| focused(s) == Some(evil.as_str()));
        assert_eq!(sway_focused(&session), evil);
        pump(context, Duration::from_millis(300));
        assert!(!pwned.exists(), "the name ran as a command");
    });
}

#[test]
fn sway_going_away_costs_nothing_and_a_new_one_is_picked_up() {
    let _serial = serial();
    require_root();
    // SWAYSOCK names a link, as if the new sway reused the path of the old one.
    let links = tempfile::tempdir().expect("tempdir");
    let link = links.path().join("sway.sock");
    let first = Session::start(session::Compositor::Sway);
    std::os::unix::fs::symlink(sway_socket(&first), &link).expect("symlink");
    let mut first = Some(first);
    on_own_context(|context| {
        let (compositor, changes) = connect(&[("SWAYSOCK", &link.display().to_string())]);
        wait_state(context, &compositor, "the first sway", WAIT, |s| {
            focused(s) == Some("1")
        });

        // Killed: the state empties, and waiting for it to come back costs next to nothing.
        drop(first.take());
        wait_state(context, &compositor, "an empty state", WAIT, |s| {
            s.workspaces.is_empty()
        });
        let changes_then = changes.get();
        let cpu = thread_cpu_time();
        pump(context, Duration::from_secs(4));
        let used = thread_cpu_time() - cpu;
        eprintln!("CPU time of the test thread in 4 s without sway: {used:?}");
        assert!(
            used < Duration::from_millis(200),
            "busy while disconnected: {used:?}"
        );
        assert_eq!(changes.get(), changes_then, "no state changes while down");

        // A new sway at the same path: the client finds it within the backoff.
        let second = Session::start(session::Compositor::Sway);
        fs::remove_file(&link).expect("unlink");
        std::os::unix::fs::symlink(sway_socket(&second), &link).expect("symlink");
        let back = Instant::now();
        wait_state(context, &compositor, "the second sway", WAIT, |s| {
            focused(s) == Some("1")
        });
        eprintln!(
            "reconnected {:?} after the new sway came up",
            back.elapsed()
        );
        second.swaymsg(&["workspace", "beta"]);
        wait_state(context, &compositor, "beta", WAIT, |s| {
            focused(s) == Some("beta")
        });
        let one = Workspace {
            id: 1,
            name: "1".into(),
            ..Workspace::default()
        };
        compositor.focus_workspace(&one);
        wait_state(context, &compositor, "1 from the client", WAIT, |s| {
            focused(s) == Some("1")
        });
        assert_eq!(sway_focused(&second), "1");
    });
}
