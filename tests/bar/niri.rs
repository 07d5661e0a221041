//! A Niri user's bar: `niri/workspaces` and `niri/window` fed by niri's IPC, here served
//! by the stand-in niri of tests/common/niri.rs (no real niri can be had here), drawn in
//! headless sway (the bar needs a layer-shell compositor to draw on) with no SWAYSOCK,
//! so the bar speaks niri alone. Read by the test hook and by OCR; a click is a niri
//! action.

use std::os::unix::fs::PermissionsExt;

use niri_ipc::{Action, Event, Window, WindowLayout, Workspace, WorkspaceReferenceArg};

use crate::common::niri::StandIn;
use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

fn workspace(id: u64, idx: u8, name: Option<&str>, output: &str, shown: bool) -> Workspace {
    Workspace {
        id,
        idx,
        name: name.map(str::to_owned),
        output: Some(output.into()),
        is_urgent: false,
        is_active: shown,
        is_focused: shown && output == "HEADLESS-1",
        active_window_id: None,
    }
}

fn window(id: u64, workspace: u64, title: &str) -> Window {
    Window {
        id,
        title: Some(title.into()),
        app_id: Some("org.example.Notes".into()),
        pid: None,
        workspace_id: Some(workspace),
        is_focused: true,
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

#[test]
fn a_niri_config_shows_niris_workspaces_and_window_and_clicks_are_niri_actions() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"niri/workspaces\", \"niri/window\"]\nmodules_right = [\"clock\"]\n",
    );
    let socket = session.runtime_dir().join("niri.wayland-1.4242.sock");
    let initial = vec![
        Event::WorkspacesChanged {
            workspaces: vec![
                workspace(10, 1, None, "HEADLESS-1", true),
                workspace(11, 2, Some("beta"), "HEADLESS-1", false),
                // Another output's: not on this bar.
                workspace(20, 1, Some("other"), "DP-9", true),
            ],
        },
        Event::WindowsChanged {
            windows: vec![window(1, 10, "START")],
        },
    ];
    let show = |action: &Action| match action {
        Action::FocusWorkspace {
            reference: WorkspaceReferenceArg::Id(id),
        } => vec![Event::WorkspaceActivated {
            id: *id,
            focused: true,
        }],
        _ => vec![],
    };
    let niri = StandIn::start(&socket, initial, Box::new(show));
    // The bar runs as the session's user; the stand-in as root.
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let mut bar = session.start_bar(&[("NIRI_SOCKET", &socket.display().to_string())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    wait_for("niri's workspaces and window", WAIT, || {
        field("workspaces") == "1:focused+visible+occupied|beta:empty" && field("window") == "START"
    });
    let left_text = || crate::common::ocr::read_text(&session.screenshot(0, 0, 400, 26));
    wait_for("`beta` and `START` on screen", WAIT, || {
        let text = left_text();
        eprintln!("OCR: {text:?}");
        text.contains("beta") && text.contains("START")
    });

    // A click on the second button asks niri for workspace 11 by its id (and one on the
    // first, for workspace 10: the buttons' widths come from the theme, so the click
    // moves right until it lands on beta).
    let mut pointer = session.pointer();
    let asked = || format!("{:?}", niri.actions()).contains("FocusWorkspace { reference: Id(11) }");
    for (attempt, x) in [40, 56, 72, 88].into_iter().enumerate() {
        pointer.move_to(x, 12);
        pointer.click("left");
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while !asked() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if asked() {
            break;
        }
        eprintln!("click {attempt} at x={x} did not ask for beta; clicking further right");
    }
    if !asked() {
        eprintln!(
            "the bar's log: {}\nniri was asked: {:?}",
            bar.log_text(),
            niri.actions()
        );
    }
    wait_for("the click asked niri for beta", WAIT, asked);
    let actions = format!("{:?}", niri.actions());
    assert!(
        !actions.contains("Id(20)"),
        "another output's workspace is not on this bar: {actions}"
    );
    wait_for("beta focused on the bar", WAIT, || {
        field("workspaces") == "1:occupied|beta:focused+visible+empty"
    });

    // The window closes: the title hides. niri exits: the workspaces go, the bar stays.
    niri.send(&[Event::WindowClosed { id: 1 }]);
    wait_for("no title", WAIT, || field("window.visible") == "false");
    niri.stop();
    wait_for("no workspaces", WAIT, || field("workspaces").is_empty());
    assert!(bar.try_wait().is_none(), "the bar outlives niri");
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");
}
