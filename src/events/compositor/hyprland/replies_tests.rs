//! The state read from replies of old releases and of 0.57, urgency, garbage replies.

use super::*;
use crate::events::compositor::hyprland::Dialect;

const WORKSPACES: &str = r#"[{
    "id": 1, "name": "1", "monitor": "DP-1", "monitorID": 0, "windows": 2,
    "hasfullscreen": false, "lastwindow": "0x55d1c0a3b2e0", "lastwindowtitle": "foot",
    "ispersistent": false
},{
    "id": -98, "name": "special:term", "monitor": "DP-1", "monitorID": 0, "windows": 1
},{
    "id": 4, "name": "4", "monitor": "HDMI-A-1", "monitorID": 1, "windows": 0,
    "lastwindow": "0x0", "lastwindowtitle": ""
},{
    "id": -1338, "name": "chat", "monitor": "DP-1", "monitorID": 0, "windows": 1
},{
    "id": 2, "name": "2", "monitor": "DP-1", "monitorID": 0, "windows": 0
}]"#;

const MONITORS: &str = r#"[{
    "id": 0, "name": "DP-1", "activeWorkspace": {"id": 1, "name": "1"},
    "specialWorkspace": {"id": 0, "name": ""}, "focused": true, "disabled": false
},{
    "id": 1, "name": "HDMI-A-1", "activeWorkspace": {"id": 4, "name": "4"},
    "specialWorkspace": {"id": 0, "name": ""}, "focused": false
}]"#;

const ACTIVE: &str = r#"{
    "address": "0x55d1c0a3b2e0", "mapped": true, "workspace": {"id": 1, "name": "1"},
    "class": "foot", "title": "~/src", "initialClass": "foot"
}"#;

#[test]
fn state_from_workspaces_monitors_and_the_active_window() {
    let state = parse_state(
        WORKSPACES.as_bytes(),
        MONITORS.as_bytes(),
        ACTIVE.as_bytes(),
    )
    .expect("state");
    let summary: Vec<(i64, &str, &str, bool, bool, u32, bool)> = state
        .workspaces
        .iter()
        .map(|w| {
            let name = w.name.as_str();
            (
                w.id,
                name,
                w.output.as_str(),
                w.focused,
                w.visible,
                w.windows,
                w.special,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, "1", "DP-1", true, true, 2, false),
            (2, "2", "DP-1", false, false, 0, false),
            (4, "4", "HDMI-A-1", false, true, 0, false),
            (-1338, "chat", "DP-1", false, false, 1, false),
            (-98, "special:term", "DP-1", false, false, 1, true),
        ]
    );
    let monitors: Vec<Option<u32>> = state.workspaces.iter().map(|w| w.monitor_id).collect();
    assert_eq!(monitors, [Some(0), Some(0), Some(1), Some(0), Some(0)]);
    assert_eq!(state.window_title.as_deref(), Some("~/src"));
    assert_eq!(state.window_app_id.as_deref(), Some("foot"));
    assert_eq!(
        active_window_address(ACTIVE.as_bytes()).as_deref(),
        Some("55d1c0a3b2e0")
    );
}

#[test]
fn each_workspace_has_its_last_window_and_the_shown_ones_are_watched() {
    let workspaces = WORKSPACES.replacen(
        r#""windows": 0,
    "lastwindow": "0x0", "lastwindowtitle": """#,
        r#""windows": 1,
    "lastwindow": "0xABC", "lastwindowtitle": "vim <b>""#,
        1,
    );
    let state = parse_state(workspaces.as_bytes(), MONITORS.as_bytes(), b"{}").expect("state");
    let last = |name: &str| {
        let workspace = state.workspaces.iter().find(|w| w.name == name);
        workspace
            .and_then(|w| w.last_window.clone())
            .map(|l| l.title)
    };
    assert_eq!(last("1").as_deref(), Some("foot"));
    assert_eq!(last("4").as_deref(), Some("vim <b>"));
    assert_eq!(last("2"), None, "no last window");
    let shown = shown_last_windows(workspaces.as_bytes(), MONITORS.as_bytes());
    assert_eq!(
        shown,
        BTreeSet::from(["55d1c0a3b2e0".to_owned(), "abc".to_owned()])
    );
    // Workspace 4 without a window: `0x0`.
    let shown = shown_last_windows(WORKSPACES.as_bytes(), MONITORS.as_bytes());
    assert_eq!(shown, BTreeSet::from(["55d1c0a3b2e0".to_owned()]));
}

#[test]
fn an_open_special_workspace_has_the_focus_and_no_window_means_no_title() {
    let monitors = MONITORS.replacen(
        r#"{"id": 0, "name": ""}"#,
        r#"{"id": -98, "name": "special:term"}"#,
        1,
    );
    for none in ["{}", "", "Invalid", "[]"] {
        let state = parse_state(WORKSPACES.as_bytes(), monitors.as_bytes(), none.as_bytes())
            .expect("state");
        let focused = state.focused_workspace().expect("a focused workspace");
        assert_eq!(focused.name, "special:term");
        assert!(focused.visible);
        let one = state.workspaces.iter().find(|w| w.id == 1).expect("ws 1");
        assert!(one.visible && !one.focused);
        assert_eq!(state.window_title, None);
        assert_eq!(state.window_app_id, None);
        assert_eq!(active_window_address(none.as_bytes()), None);
    }
}

/// Replies of the real Hyprland 0.57 (trimmed): named and special workspaces have an
/// `address` and a `type` but no `id`, and so does a monitor's closed special workspace.
#[test]
fn state_from_0_57_replies_without_ids_for_named_workspaces() {
    let workspaces = r#"[{
        "address": "1", "id": 1, "type": "normal", "name": "web, x", "monitor": "Virtual-1",
        "monitorID": 0, "windows": 1, "lastwindow": "0x5604bb0b20a0"
    },{
        "address": "a,b", "type": "normal", "name": "a,b", "monitor": "Virtual-1",
        "monitorID": 0, "windows": 0
    },{
        "address": "special:term", "type": "special", "name": "special:term",
        "monitor": "Virtual-1", "monitorID": 0, "windows": 2
    }]"#;
    let monitors = r#"[{
        "id": 0, "name": "Virtual-1",
        "activeWorkspace": {"address": "a,b", "type": "normal", "name": "a,b"},
        "specialWorkspace": {"address": "", "type": "", "name": ""},
        "focused": true, "disabled": false
    }]"#;
    let active = r#"{
        "address": "0x5604bb0b20a0", "workspace": {"address": "1", "id": 1, "type": "normal",
        "name": "web, x"}, "class": "org.freedesktop.weston.flower", "title": "Flower"
    }"#;
    let state = parse_state(
        workspaces.as_bytes(),
        monitors.as_bytes(),
        active.as_bytes(),
    )
    .expect("state");
    let summary: Vec<(i64, &str, bool, bool, u32, bool)> = state
        .workspaces
        .iter()
        .map(|w| {
            (
                w.id,
                w.name.as_str(),
                w.focused,
                w.visible,
                w.windows,
                w.special,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, "web, x", false, false, 1, false),
            (-1, "a,b", true, true, 0, false),
            (-99, "special:term", false, false, 2, true),
        ]
    );
    assert_eq!(state.window_title.as_deref(), Some("Flower"));
    // The named one is focused by name, the numbered one by number.
    assert_eq!(
        Dialect::Lua
            .focus_workspace(&state.workspaces[1])
            .as_deref(),
        Some(r#"/dispatch hl.dsp.focus({ workspace = "name:a\044b" })"#)
    );
    assert_eq!(
        Dialect::Lua
            .focus_workspace(&state.workspaces[0])
            .as_deref(),
        Some("/dispatch hl.dsp.focus({ workspace = 1 })")
    );
    let clients = r#"[{"address": "0x5604bb0b20a0", "workspace": {"address": "1", "id": 1,
        "type": "normal", "name": "web, x"}}]"#;
    let mut state = state;
    let mut urgent: BTreeSet<String> = ["5604bb0b20a0".to_owned()].into();
    apply_clients(&mut state, clients.as_bytes(), &mut urgent).expect("clients");
    assert!(state.workspaces[0].urgent && !state.workspaces[1].urgent);
}

#[test]
fn garbage_replies_are_errors_and_odd_bytes_are_replaced() {
    assert!(parse_state(b"[", MONITORS.as_bytes(), b"{}").is_err());
    assert!(parse_state(WORKSPACES.as_bytes(), b"ok", b"{}").is_err());
    assert!(parse_state(b"{}", MONITORS.as_bytes(), b"{}").is_err());
    let odd = [
        br#"{"address": "0x1", "class": "a"#.as_slice(),
        &[0xff],
        br#"b", "title": "t"}"#,
    ]
    .concat();
    let state = parse_state(WORKSPACES.as_bytes(), MONITORS.as_bytes(), &odd).expect("state");
    assert_eq!(state.window_app_id.as_deref(), Some("a\u{fffd}b"));
}

#[test]
fn urgent_windows_mark_their_workspaces_and_gone_ones_are_forgotten() {
    let mut state = parse_state(
        WORKSPACES.as_bytes(),
        MONITORS.as_bytes(),
        ACTIVE.as_bytes(),
    )
    .expect("state");
    let clients = r#"[
        {"address": "0xaaa", "workspace": {"id": 2, "name": "2"}, "class": "x", "title": "x"},
        {"address": "0xbbb", "workspace": {"id": -1338, "name": "chat"}, "title": "y"}
    ]"#;
    let mut urgent: BTreeSet<String> = ["aaa", "ccc"].map(String::from).into();
    apply_clients(&mut state, clients.as_bytes(), &mut urgent).expect("clients");
    assert_eq!(urgent, ["aaa".to_owned()].into());
    let flagged: Vec<&str> = state
        .workspaces
        .iter()
        .filter(|w| w.urgent)
        .map(|w| w.name.as_str())
        .collect();
    assert_eq!(flagged, ["2"]);
    // Each workspace lists its windows; one without any lists none.
    let listed = |name: &str| {
        let workspace = state.workspaces.iter().find(|w| w.name == name);
        workspace.expect(name).window_names.clone()
    };
    let x = WindowName {
        title: "x".into(),
        app_id: Some("x".into()),
    };
    assert_eq!(listed("2"), [x]);
    let y = WindowName {
        title: "y".into(),
        app_id: None,
    };
    assert_eq!(listed("chat"), [y]);
    assert!(state
        .workspaces
        .iter()
        .filter(|w| w.name != "2" && w.name != "chat")
        .all(|w| w.window_names.is_empty()));
    assert!(apply_clients(&mut state, b"nope", &mut urgent).is_err());
}

#[test]
fn the_main_keyboard_of_the_devices() {
    let devices = br#"{"mice": [], "keyboards": [
        {"address": "0x1", "name": "power-button", "layout": "us", "active_keymap": "English (US)", "main": false},
        {"address": "0x2", "name": "at-kbd", "layout": "us,de", "variant": ",", "active_keymap": "German", "main": true}
    ]}"#;
    let keyboard = main_keyboard(devices).expect("parses").expect("a keyboard");
    assert_eq!(keyboard.active, "German");
    assert_eq!(keyboard.layouts, ["us", "de"]);
    let none = br#"{"keyboards": []}"#;
    assert_eq!(main_keyboard(none), Ok(None));
    let unnamed = br#"{"keyboards": [{"name": "v", "layout": "", "active_keymap": ""}]}"#;
    assert_eq!(main_keyboard(unnamed), Ok(None));
    assert!(main_keyboard(b"[").is_err());
}
