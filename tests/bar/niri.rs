//! A Niri user's bar: `niri/workspaces` and `niri/window` fed by niri's IPC, here served
//! by the stand-in niri of tests/common/niri.rs (no real niri can be had here), drawn in
//! headless sway (the bar needs a layer-shell compositor to draw on) with no SWAYSOCK,
//! so the bar speaks niri alone. Read by the test hook and by OCR; a click is a niri
//! action.

use std::os::unix::fs::PermissionsExt;

use niri_ipc::{Action, Event, WorkspaceReferenceArg};

use crate::common::niri::{window_of, workspace_of, StandIn};
use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

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
    let mut beta = workspace_of(11, 2, "HEADLESS-1", false, false);
    beta.name = Some("beta".into());
    let mut other = workspace_of(20, 1, "DP-9", true, false);
    other.name = Some("other".into());
    let initial = vec![
        Event::WorkspacesChanged {
            workspaces: vec![
                workspace_of(10, 1, "HEADLESS-1", true, true),
                beta,
                // Another output's: not on this bar.
                other,
            ],
        },
        Event::WindowsChanged {
            windows: vec![window_of(1, 10, "START", true)],
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
    // Made before the bar: GDK drops the first events of a pointer that comes later.
    let mut pointer = session.pointer();
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

    // A click on the second button asks niri for workspace 11 by its id.
    let asked = || format!("{:?}", niri.actions()).contains("FocusWorkspace { reference: Id(11) }");
    let (x, y) = bar.button_center("workspaces", 1);
    pointer.move_to(x, y);
    pointer.click("left");
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
