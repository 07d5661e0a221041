//! niri's JSON as `niri-ipc` (niri's own types) writes it, read back here; and what a
//! stream of events adds up to.

use niri_ipc::{
    Action, Event as Ipc, KeyboardLayouts, LayoutSwitchTarget, Reply, Request, Response, Timestamp,
    Window, WindowLayout, Workspace, WorkspaceReferenceArg,
};

use super::*;

fn line(event: &Ipc) -> String {
    serde_json::to_string(event).expect("niri-ipc serializes")
}

fn parse(event: &Ipc) -> Event {
    Event::parse(&line(event)).expect("an event of niri's")
}

fn workspace(id: u64, idx: u8, output: &str) -> Workspace {
    Workspace {
        id,
        idx,
        name: None,
        output: Some(output.into()),
        is_urgent: false,
        is_active: false,
        is_focused: false,
        active_window_id: None,
    }
}

fn window(id: u64, workspace: u64, title: &str) -> Window {
    Window {
        id,
        title: Some(title.into()),
        app_id: Some(format!("app{id}")),
        pid: Some(1000 + id as i32),
        workspace_id: Some(workspace),
        is_focused: false,
        is_floating: false,
        is_urgent: false,
        layout: WindowLayout {
            pos_in_scrolling_layout: Some((1, 1)),
            tile_size: (800.0, 600.0),
            window_size: (800, 600),
            tile_pos_in_workspace_view: None,
            window_offset_in_tile: (0.0, 0.0),
        },
        focus_timestamp: Some(Timestamp { secs: 5, nanos: 0 }),
    }
}

/// The state after `events`, each sent as niri-ipc writes it.
fn after(events: &[Ipc]) -> (Niri, crate::events::compositor::CompositorState) {
    let mut niri = Niri::default();
    for event in events {
        niri.apply(parse(event));
    }
    let state = niri.state();
    (niri, state)
}

#[test]
fn the_requests_are_niris_own() {
    let read = |bytes: &[u8]| -> Request {
        assert_eq!(bytes.last(), Some(&b'\n'), "one line");
        serde_json::from_slice(bytes).expect("a niri request")
    };
    assert!(matches!(read(EVENT_STREAM), Request::EventStream));
    assert!(matches!(
        read(NEXT_LAYOUT),
        Request::Action(Action::SwitchLayout {
            layout: LayoutSwitchTarget::Next
        })
    ));
    match read(&focus_workspace(u64::MAX)) {
        Request::Action(Action::FocusWorkspace { reference }) => {
            assert_eq!(reference, WorkspaceReferenceArg::Id(u64::MAX))
        }
        other => panic!("not a focus request: {other:?}"),
    }
}

#[test]
fn replies_are_told_apart() {
    let ok: Reply = Ok(Response::Handled);
    let refused: Reply = Err("no workspace <b>7</b>".into());
    let json = |reply: &Reply| serde_json::to_vec(reply).expect("serializes");
    assert_eq!(reply_ok(&json(&ok)), Ok(()));
    assert_eq!(reply_ok(&[json(&ok), b"\n".to_vec()].concat()), Ok(()));
    assert_eq!(
        reply_ok(&json(&refused)),
        Err("no workspace <b>7</b>".into())
    );
    assert!(reply_ok(b"").is_err());
    assert!(reply_ok(b"{\"Ok\":").is_err());
}

#[test]
fn every_event_followed_reads_as_niri_writes_it() {
    let mut named = workspace(3, 2, "DP-1");
    named.name = Some("mail".into());
    assert_eq!(
        parse(&Ipc::WorkspacesChanged {
            workspaces: vec![named]
        }),
        Event::WorkspacesChanged(vec![wire::Workspace {
            id: 3,
            idx: 2,
            name: Some("mail".into()),
            output: Some("DP-1".into()),
            ..Default::default()
        }])
    );
    assert_eq!(
        parse(&Ipc::WindowOpenedOrChanged {
            window: window(9, 3, "t")
        }),
        Event::WindowOpenedOrChanged(wire::Window {
            id: 9,
            title: Some("t".into()),
            app_id: Some("app9".into()),
            workspace_id: Some(3),
            ..Default::default()
        })
    );
    let pairs = [
        (
            Ipc::WorkspaceUrgencyChanged {
                id: 4,
                urgent: true,
            },
            Event::WorkspaceUrgencyChanged {
                id: 4,
                urgent: true,
            },
        ),
        (
            Ipc::WorkspaceActivated {
                id: 4,
                focused: false,
            },
            Event::WorkspaceActivated {
                id: 4,
                focused: false,
            },
        ),
        (Ipc::WindowClosed { id: 2 }, Event::WindowClosed { id: 2 }),
        (
            Ipc::WindowFocusChanged { id: None },
            Event::WindowFocusChanged { id: None },
        ),
        (
            Ipc::WindowFocusChanged { id: Some(8) },
            Event::WindowFocusChanged { id: Some(8) },
        ),
        (
            Ipc::WindowUrgencyChanged {
                id: 8,
                urgent: true,
            },
            Event::WindowUrgencyChanged {
                id: 8,
                urgent: true,
            },
        ),
        (
            Ipc::KeyboardLayoutSwitched { idx: 1 },
            Event::KeyboardLayoutSwitched { idx: 1 },
        ),
        (
            Ipc::OverviewOpenedOrClosed { is_open: true },
            Event::OverviewOpenedOrClosed { is_open: true },
        ),
        (Ipc::ConfigLoaded { failed: false }, Event::Other),
        (Ipc::CastStopped { stream_id: 1 }, Event::Other),
        (
            Ipc::WindowsChanged { windows: vec![] },
            Event::WindowsChanged(vec![]),
        ),
    ];
    for (ipc, ours) in pairs {
        assert_eq!(parse(&ipc), ours, "{}", line(&ipc));
    }
    let layouts = Ipc::KeyboardLayoutsChanged {
        keyboard_layouts: KeyboardLayouts {
            names: vec!["English (US)".into(), "German".into()],
            current_idx: 1,
        },
    };
    assert!(matches!(parse(&layouts), Event::KeyboardLayoutsChanged(k) if k.current_idx == 1));
}

#[test]
fn malformed_lines_are_refused_without_a_panic() {
    for bad in [
        "",
        "null",
        "[1,2]",
        "\"EventStream\"",
        "{}",
        "{\"WindowClosed\":{\"id\":-1}}",
        "{\"WindowClosed\":{}}",
        "{\"WorkspacesChanged\":{\"workspaces\":[{\"id\":\"x\"}]}}",
        "{\"WindowClosed\":{\"id\":1},\"WindowFocusChanged\":{\"id\":1}}",
        "{\"WorkspaceActivated\":7}",
        "{\"Window",
    ] {
        assert!(Event::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_stream_adds_up_to_workspaces_per_output_and_the_focused_window() {
    let mut a1 = workspace(10, 1, "DP-1");
    (a1.is_active, a1.is_focused) = (true, true);
    let mut a2 = workspace(11, 2, "DP-1");
    a2.name = Some("mail".into());
    let mut b1 = workspace(20, 1, "HDMI-A-1");
    b1.is_active = true;
    let mut focused = window(1, 10, "notes");
    focused.is_focused = true;
    let (niri, state) = after(&[
        Ipc::WorkspacesChanged {
            workspaces: vec![b1.clone(), a2.clone(), a1.clone()],
        },
        Ipc::WindowsChanged {
            windows: vec![focused, window(2, 10, "mpv"), window(3, 20, "term")],
        },
    ]);
    let shown: Vec<(&str, &str, bool, bool, u32)> = state
        .workspaces
        .iter()
        .map(|w| {
            (
                w.output.as_str(),
                w.name.as_str(),
                w.focused,
                w.visible,
                w.windows,
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("DP-1", "1", true, true, 2),
            ("DP-1", "mail", false, false, 0),
            ("HDMI-A-1", "1", false, true, 1),
        ]
    );
    assert_eq!(state.window_title.as_deref(), Some("notes"));
    assert_eq!(state.window_app_id.as_deref(), Some("app1"));
    // Each workspace's windows, oldest first.
    let listed: Vec<Vec<(&str, Option<&str>)>> = state
        .workspaces
        .iter()
        .map(|w| {
            let names = w.window_names.iter();
            names
                .map(|n| (n.title.as_str(), n.app_id.as_deref()))
                .collect()
        })
        .collect();
    assert_eq!(
        listed,
        [
            vec![("notes", Some("app1")), ("mpv", Some("app2"))],
            vec![],
            vec![("term", Some("app3"))]
        ]
    );
    // A click on the bar's "mail" asks for niri's workspace 11.
    assert_eq!(niri.workspace_id(&state.workspaces[1]), Some(11));
    assert_eq!(niri.workspace_id(&state.workspaces[2]), Some(20));

    // Focus moves to the other output, a window opens there and takes the focus, the
    // first one closes, and one turns urgent.
    let (_, state) = after(&[
        Ipc::WorkspacesChanged {
            workspaces: vec![a1.clone(), a2.clone(), b1.clone()],
        },
        Ipc::WindowsChanged {
            windows: vec![window(1, 10, "notes"), window(2, 10, "mpv")],
        },
        Ipc::WorkspaceActivated {
            id: 11,
            focused: true,
        },
        Ipc::WindowOpenedOrChanged {
            window: Window {
                is_focused: true,
                ..window(4, 11, "inbox")
            },
        },
        Ipc::WindowClosed { id: 1 },
        Ipc::WindowUrgencyChanged {
            id: 2,
            urgent: true,
        },
    ]);
    let flags: Vec<(&str, bool, bool, bool, u32)> = state
        .workspaces
        .iter()
        .map(|w| (w.name.as_str(), w.focused, w.visible, w.urgent, w.windows))
        .collect();
    assert_eq!(
        flags,
        [
            ("1", false, false, true, 1),
            ("mail", true, true, false, 1),
            ("1", false, true, false, 0),
        ]
    );
    assert_eq!(state.window_title.as_deref(), Some("inbox"));

    // The focused window closes: no title. Focus to nothing: none either.
    let (_, state) = after(&[
        Ipc::WindowsChanged {
            windows: vec![Window {
                is_focused: true,
                ..window(5, 10, "x")
            }],
        },
        Ipc::WindowClosed { id: 5 },
    ]);
    assert_eq!(state.window_title, None);
    let (_, state) = after(&[
        Ipc::WindowsChanged {
            windows: vec![window(5, 10, "x")],
        },
        Ipc::WindowFocusChanged { id: Some(5) },
        Ipc::WindowFocusChanged { id: None },
    ]);
    assert_eq!(state.window_title, None);
}

#[test]
fn an_output_unplugged_moves_its_workspaces_and_urgency_layouts_and_overview_follow() {
    let mut a1 = workspace(10, 1, "DP-1");
    (a1.is_active, a1.is_focused) = (true, true);
    let mut b1 = workspace(20, 1, "HDMI-A-1");
    b1.is_active = true;
    let mut moved = b1.clone();
    (moved.idx, moved.output, moved.is_active) = (2, Some("DP-1".into()), false);
    let (niri, state) = after(&[
        Ipc::WorkspacesChanged {
            workspaces: vec![a1.clone(), b1],
        },
        // HDMI-A-1 is gone: its workspace now sits second on DP-1.
        Ipc::WorkspacesChanged {
            workspaces: vec![a1, moved],
        },
        Ipc::WorkspaceUrgencyChanged {
            id: 20,
            urgent: true,
        },
        Ipc::KeyboardLayoutsChanged {
            keyboard_layouts: KeyboardLayouts {
                names: vec!["English (US)".into(), "German".into()],
                current_idx: 0,
            },
        },
        Ipc::KeyboardLayoutSwitched { idx: 1 },
        Ipc::OverviewOpenedOrClosed { is_open: true },
    ]);
    let outputs: Vec<(&str, i64, bool)> = state
        .workspaces
        .iter()
        .map(|w| (w.output.as_str(), w.id, w.urgent))
        .collect();
    assert_eq!(outputs, [("DP-1", 1, false), ("DP-1", 2, true)]);
    assert_eq!(niri.workspace_id(&state.workspaces[1]), Some(20));
    let keyboard = state.keyboard.expect("layouts");
    assert_eq!(keyboard.active, "German");
    assert_eq!(keyboard.layouts, ["English (US)", "German"]);
    assert_eq!(state.mode.as_deref(), Some(OVERVIEW_MODE));
    let (_, state) = after(&[
        Ipc::OverviewOpenedOrClosed { is_open: true },
        Ipc::OverviewOpenedOrClosed { is_open: false },
        // An index past the list: no active layout rather than a panic.
        Ipc::KeyboardLayoutsChanged {
            keyboard_layouts: KeyboardLayouts {
                names: vec!["English (US)".into()],
                current_idx: 9,
            },
        },
    ]);
    assert_eq!(state.mode, None);
    assert_eq!(state.keyboard.map(|k| k.active), Some(String::new()));
}

#[test]
fn hostile_titles_and_floods_stay_bounded() {
    let title = format!(
        "<b>{}</b>\u{0}\u{7}{}",
        "x".repeat(10_000),
        "é".repeat(5000)
    );
    let mut hostile = window(1, 10, &title);
    hostile.is_focused = true;
    hostile.app_id = Some("\u{202e}&amp;".into());
    let windows: Vec<Window> = (0..MAX_WINDOWS as u64 + 100)
        .map(|id| window(id + 2, 10, "w"))
        .collect();
    let (_, state) = after(&[
        Ipc::WorkspacesChanged {
            workspaces: (0..MAX_WORKSPACES as u64 + 10)
                .map(|id| workspace(id, (id % 256) as u8, "DP-1"))
                .collect(),
        },
        Ipc::WindowsChanged { windows },
        Ipc::WindowOpenedOrChanged { window: hostile },
    ]);
    assert_eq!(state.workspaces.len(), MAX_WORKSPACES);
    let on_first: u32 = state.workspaces.iter().map(|w| w.windows).sum();
    assert_eq!(
        on_first as usize, MAX_WINDOWS,
        "at most MAX_WINDOWS windows are kept"
    );
    // The focused window is the hostile one only if it fit: it did not, so no title.
    assert_eq!(state.window_title, None);
    let mut hostile = window(1, 10, &title);
    hostile.is_focused = true;
    let (_, state) = after(&[Ipc::WindowOpenedOrChanged { window: hostile }]);
    let shown = state.window_title.expect("a title");
    assert_eq!(shown.chars().count(), crate::events::compositor::MAX_TEXT);
    assert!(shown.starts_with("<b>"), "kept as data, not markup");
}
