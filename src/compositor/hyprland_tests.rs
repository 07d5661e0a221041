use super::*;

fn parse(line: &str) -> Event {
    Event::parse(line).unwrap_or_else(|| panic!("{line:?} parses"))
}

#[test]
fn v2_events_parse_with_ids_and_names_holding_commas() {
    assert_eq!(
        parse("workspacev2>>2,2\n"),
        Event::Workspace {
            id: Some(2),
            name: "2".into()
        }
    );
    assert_eq!(
        parse("createworkspacev2>>-1338,chat, mail"),
        Event::CreateWorkspace {
            id: Some(-1338),
            name: "chat, mail".into()
        }
    );
    assert_eq!(
        parse("destroyworkspacev2>>5,5"),
        Event::DestroyWorkspace {
            id: Some(5),
            name: "5".into()
        }
    );
    assert_eq!(
        parse("moveworkspacev2>>3,a,b,DP-2"),
        Event::MoveWorkspace {
            id: Some(3),
            name: "a,b".into(),
            monitor: "DP-2".into()
        }
    );
    assert_eq!(
        parse("renameworkspace>>3,web, mail"),
        Event::RenameWorkspace {
            id: Some(3),
            name: "web, mail".into()
        }
    );
    assert_eq!(
        parse("focusedmonv2>>DP-1,4"),
        Event::FocusedMonitor {
            monitor: "DP-1".into(),
            workspace: WorkspaceRef::Id(4)
        }
    );
    assert_eq!(
        parse("activespecialv2>>-98,special:term,DP-1"),
        Event::ActiveSpecial {
            id: Some(-98),
            name: "special:term".into(),
            monitor: "DP-1".into()
        }
    );
    // The special workspace closed: no id, no name.
    assert_eq!(
        parse("activespecialv2>>,,DP-1"),
        Event::ActiveSpecial {
            id: None,
            name: String::new(),
            monitor: "DP-1".into()
        }
    );
    assert_eq!(
        parse("movewindowv2>>55d1c0a3b2e0,-1338,chat, mail"),
        Event::MoveWindow {
            address: "55d1c0a3b2e0".into(),
            workspace_id: Some(-1338),
            workspace: "chat, mail".into()
        }
    );
    assert_eq!(
        parse("activewindowv2>>55D1C0A3B2E0"),
        Event::ActiveWindowV2 {
            address: Some("55d1c0a3b2e0".into())
        }
    );
    assert_eq!(
        parse("activewindowv2>>"),
        Event::ActiveWindowV2 { address: None }
    );
    assert_eq!(
        parse("windowtitlev2>>abc,vim: a, b >> c"),
        Event::WindowTitleV2 {
            address: "abc".into(),
            title: "vim: a, b >> c".into()
        }
    );
    assert_eq!(
        parse("openwindow>>abc,2,foot,~/src, again"),
        Event::OpenWindow {
            address: "abc".into(),
            workspace: "2".into(),
            class: "foot".into(),
            title: "~/src, again".into()
        }
    );
    assert_eq!(
        parse("closewindow>>abc"),
        Event::CloseWindow {
            address: "abc".into()
        }
    );
    assert_eq!(
        parse("urgent>>abc"),
        Event::Urgent {
            address: "abc".into()
        }
    );
    assert_eq!(
        parse("monitoraddedv2>>1,DP-2,Dell Inc. U2720Q, rev 2"),
        Event::MonitorAdded {
            name: "DP-2".into()
        }
    );
    assert_eq!(
        parse("monitorremovedv2>>1,DP-2,Dell"),
        Event::MonitorRemoved {
            name: "DP-2".into()
        }
    );
    assert_eq!(
        parse("changeworkspaceid>>3,7"),
        Event::ChangeWorkspaceId { old: 3, new: 7 }
    );
    assert_eq!(parse("configreloaded>>"), Event::ConfigReloaded);
}

/// Lines as Hyprland 0.57 sent them (recorded from the real one): the v2 events carry
/// the workspace's address where the id was, which is the name of a named or special
/// workspace.
#[test]
fn events_of_0_57_carry_addresses_for_named_workspaces() {
    let replay = "createworkspacev2>>chat,chat\n\
                  workspacev2>>a,b,a,b\n\
                  workspacev2>>2,2\n\
                  destroyworkspacev2>>1,web, x\n\
                  activespecialv2>>special:term,special:term,Virtual-1\n\
                  activespecialv2>>,,Virtual-1\n\
                  focusedmonv2>>Virtual-1,chat\n\
                  movewindowv2>>5604bb0b20a0,a,b,a,b\n\
                  moveworkspacev2>>a,b,a,b,DP-2\n\
                  renameworkspace>>1,web, x\n\
                  openwindow>>5604bb0b20a0,1,org.freedesktop.weston.flower,Flower\n";
    let events: Vec<Event> = replay.lines().map(parse).collect();
    assert_eq!(
        events,
        [
            Event::CreateWorkspace {
                id: None,
                name: "chat".into()
            },
            Event::Workspace {
                id: None,
                name: "a,b".into()
            },
            Event::Workspace {
                id: Some(2),
                name: "2".into()
            },
            Event::DestroyWorkspace {
                id: Some(1),
                name: "web, x".into()
            },
            Event::ActiveSpecial {
                id: None,
                name: "special:term".into(),
                monitor: "Virtual-1".into()
            },
            Event::ActiveSpecial {
                id: None,
                name: String::new(),
                monitor: "Virtual-1".into()
            },
            Event::FocusedMonitor {
                monitor: "Virtual-1".into(),
                workspace: WorkspaceRef::Name("chat".into())
            },
            Event::MoveWindow {
                address: "5604bb0b20a0".into(),
                workspace_id: None,
                workspace: "a,b".into()
            },
            Event::MoveWorkspace {
                id: None,
                name: "a,b".into(),
                monitor: "DP-2".into()
            },
            Event::RenameWorkspace {
                id: Some(1),
                name: "web, x".into()
            },
            Event::OpenWindow {
                address: "5604bb0b20a0".into(),
                workspace: "1".into(),
                class: "org.freedesktop.weston.flower".into(),
                title: "Flower".into()
            },
        ]
    );
}

/// Lines as older releases (before the v2 events) sent them, replayed.
#[test]
fn events_of_older_releases_parse_by_name() {
    let replay = "workspace>>3\n\
                  focusedmon>>DP-1,web, mail\n\
                  createworkspace>>9\n\
                  destroyworkspace>>9\n\
                  moveworkspace>>web, mail,HDMI-A-1\n\
                  activespecial>>special:scratch,DP-1\n\
                  activewindow>>firefox,Mozilla, Firefox\n\
                  activewindow>>,\n\
                  windowtitle>>5612ab\n\
                  movewindow>>5612ab,web, mail\n\
                  monitoradded>>HDMI-A-1\n\
                  monitorremoved>>HDMI-A-1\n";
    let events: Vec<Event> = replay.lines().map(parse).collect();
    assert_eq!(
        events,
        [
            Event::Workspace {
                id: None,
                name: "3".into()
            },
            Event::FocusedMonitor {
                monitor: "DP-1".into(),
                workspace: WorkspaceRef::Name("web, mail".into())
            },
            Event::CreateWorkspace {
                id: None,
                name: "9".into()
            },
            Event::DestroyWorkspace {
                id: None,
                name: "9".into()
            },
            Event::MoveWorkspace {
                id: None,
                name: "web, mail".into(),
                monitor: "HDMI-A-1".into()
            },
            Event::ActiveSpecial {
                id: None,
                name: "special:scratch".into(),
                monitor: "DP-1".into()
            },
            Event::ActiveWindow {
                class: "firefox".into(),
                title: "Mozilla, Firefox".into()
            },
            Event::ActiveWindow {
                class: String::new(),
                title: String::new()
            },
            Event::WindowTitle {
                address: "5612ab".into()
            },
            Event::MoveWindow {
                address: "5612ab".into(),
                workspace_id: None,
                workspace: "web, mail".into()
            },
            Event::MonitorAdded {
                name: "HDMI-A-1".into()
            },
            Event::MonitorRemoved {
                name: "HDMI-A-1".into()
            },
        ]
    );
}

#[test]
fn unknown_malformed_and_odd_lines_are_skipped_without_panic() {
    for line in [
        "",
        ">>",
        "no separator",
        "activelayout>>kbd,us",
        "submap>>resize",
        "workspacev2>>3",
        "urgent>>not hex!",
        "urgent>>",
        "moveworkspacev2>>1,only",
        "openwindow>>abc,2",
        "activewindowv2>>12345678901234567890",
    ] {
        assert_eq!(Event::parse(line), None, "{line:?}");
    }
    // Hyprland cuts data at 1024 bytes, possibly inside a UTF-8 sequence: the reader
    // decodes lossily, and a long title is capped.
    let bytes = [b"windowtitlev2>>ab,".as_slice(), &[0xe2, 0x82], b"x"].concat();
    let line = String::from_utf8_lossy(&bytes);
    assert_eq!(
        Event::parse(&line),
        Some(Event::WindowTitleV2 {
            address: "ab".into(),
            title: "\u{fffd}x".into()
        })
    );
    let long = format!("windowtitlev2>>ab,{}", "t".repeat(5000));
    let Some(Event::WindowTitleV2 { title, .. }) = Event::parse(&long) else {
        panic!("a long title parses");
    };
    assert_eq!(title.len(), crate::compositor::MAX_TEXT);
}

#[test]
fn actions_update_the_title_of_the_active_window_only() {
    let title = parse("windowtitlev2>>abc,new title");
    assert_eq!(title.action(Some("abc")), Action::Title("new title".into()));
    assert_eq!(title.action(Some("def")), Action::Ignore);
    assert_eq!(title.action(None), Action::Ignore);
    let v1 = parse("windowtitle>>abc");
    assert_eq!(v1.action(Some("abc")), Action::Requery);
    assert_eq!(v1.action(Some("def")), Action::Ignore);
    for line in [
        "workspacev2>>2,2",
        "focusedmonv2>>DP-1,4",
        "openwindow>>abc,2,foot,t",
        "closewindow>>abc",
        "activewindowv2>>abc",
        "urgent>>abc",
        "monitoradded>>DP-2",
        "renameworkspace>>1,x",
    ] {
        assert_eq!(parse(line).action(Some("abc")), Action::Requery, "{line}");
    }
}

const WORKSPACES: &str = r#"[{
    "id": 1, "name": "1", "monitor": "DP-1", "monitorID": 0, "windows": 2,
    "hasfullscreen": false, "lastwindow": "0x55d1c0a3b2e0", "lastwindowtitle": "foot",
    "ispersistent": false
},{
    "id": -98, "name": "special:term", "monitor": "DP-1", "monitorID": 0, "windows": 1
},{
    "id": 4, "name": "4", "monitor": "HDMI-A-1", "monitorID": 1, "windows": 0
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
    assert_eq!(state.window_title.as_deref(), Some("~/src"));
    assert_eq!(state.window_app_id.as_deref(), Some("foot"));
    assert_eq!(
        active_window_address(ACTIVE.as_bytes()).as_deref(),
        Some("55d1c0a3b2e0")
    );
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
    apply_urgent(&mut state, clients.as_bytes(), &mut urgent).expect("clients");
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
    apply_urgent(&mut state, clients.as_bytes(), &mut urgent).expect("clients");
    assert_eq!(urgent, ["aaa".to_owned()].into());
    let flagged: Vec<&str> = state
        .workspaces
        .iter()
        .filter(|w| w.urgent)
        .map(|w| w.name.as_str())
        .collect();
    assert_eq!(flagged, ["2"]);
    assert!(apply_urgent(&mut state, b"nope", &mut urgent).is_err());
}

#[test]
fn the_dialect_follows_the_version() {
    let v = |json: &str| Dialect::from_version(json.as_bytes());
    assert_eq!(
        v(r#"{"branch": "", "version": "0.57.0", "tag": "v0.57.0"}"#),
        Dialect::Lua
    );
    assert_eq!(
        v(r#"{"version": "0.58.1", "tag": "v0.58.1-4-gabc"}"#),
        Dialect::Lua
    );
    assert_eq!(v(r#"{"version": "1.0.0"}"#), Dialect::Lua);
    assert_eq!(
        v(r#"{"version": "0.56.2", "tag": "v0.56.2"}"#),
        Dialect::Legacy
    );
    // Releases before the `version` field: the tag.
    assert_eq!(
        v(r#"{"branch": "main", "tag": "v0.41.2-3-gabcdef"}"#),
        Dialect::Legacy
    );
    assert_eq!(v(r#"{"tag": "v0.57.0-12-g1234"}"#), Dialect::Lua);
    // Nothing readable: the newest dialect.
    assert_eq!(v("garbage"), Dialect::Lua);
    assert_eq!(v(r#"{"tag": "unknown"}"#), Dialect::Lua);
    assert_eq!(version(br#"{"version": "0.57.0"}"#), Some((0, 57)));
}

#[test]
fn wrong_dialect_replies_are_recognised() {
    let lua_note = "[string \"return hl.dispatch(workspace 2)\"]:1: ')' expected near '2'\n\n \
                    → Note: dispatch in lua is a shorthand for hl.dispatch(...), your syntax \
                    might need to be updated.";
    assert!(Dialect::Legacy.misunderstood(lua_note));
    assert!(!Dialect::Legacy.misunderstood("ok"));
    assert!(Dialect::Lua.misunderstood("Invalid dispatcher"));
    assert!(!Dialect::Lua.misunderstood("ok"));
    assert_eq!(Dialect::Lua.other(), Dialect::Legacy);
}

fn ws(id: i64, name: &str) -> Workspace {
    Workspace {
        id,
        name: name.into(),
        special: is_special(id, name),
        ..Workspace::default()
    }
}

#[test]
fn focus_requests_in_both_dialects() {
    let lua = |w: &Workspace| Dialect::Lua.focus_workspace(w);
    let legacy = |w: &Workspace| Dialect::Legacy.focus_workspace(w);
    assert_eq!(
        lua(&ws(3, "3")).as_deref(),
        Some("/dispatch hl.dsp.focus({ workspace = 3 })")
    );
    assert_eq!(
        legacy(&ws(3, "web")).as_deref(),
        Some("/dispatch workspace 3")
    );
    assert_eq!(
        lua(&ws(-1338, "chat")).as_deref(),
        Some(r#"/dispatch hl.dsp.focus({ workspace = "name:chat" })"#)
    );
    assert_eq!(
        legacy(&ws(-1338, "chat")).as_deref(),
        Some("/dispatch workspace name:chat")
    );
    assert_eq!(
        lua(&ws(-98, "special:term")).as_deref(),
        Some(r#"/dispatch hl.dsp.workspace.toggle_special("term")"#)
    );
    assert_eq!(
        lua(&ws(-99, "special:special")).as_deref(),
        Some(r#"/dispatch hl.dsp.workspace.toggle_special("special")"#)
    );
    assert_eq!(
        lua(&ws(-99, "special")).as_deref(),
        Some("/dispatch hl.dsp.workspace.toggle_special()")
    );
    assert_eq!(
        legacy(&ws(-98, "special:term")).as_deref(),
        Some("/dispatch togglespecialworkspace term")
    );
    assert_eq!(
        legacy(&ws(-99, "special")).as_deref(),
        Some("/dispatch togglespecialworkspace")
    );
}

#[test]
fn hostile_names_stay_inside_the_lua_string() {
    let evil = "x\" }) os.execute(\"rm -rf ~\") --\\\n]]";
    let request = Dialect::Lua
        .focus_workspace(&ws(-1339, evil))
        .expect("request");
    let literal = request
        .strip_prefix("/dispatch hl.dsp.focus({ workspace = \"")
        .and_then(|r| r.strip_suffix("\" })"))
        .expect("one string literal");
    // Inside the literal: no quote, backslash only as a decimal escape, no newline.
    assert!(!literal.contains('"') && !literal.contains('\n'));
    assert!(literal.contains("\\034") && literal.contains("\\092") && literal.contains("\\010"));
    // The escapes decode back to the name (bytes, so UTF-8 survives too).
    let decode = |lit: &str| {
        let bytes = lit.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\\' {
                let digits = std::str::from_utf8(&bytes[i + 1..i + 4]).expect("digits");
                out.push(digits.parse::<u8>().expect("a byte"));
                i += 4;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).expect("utf-8")
    };
    assert_eq!(decode(literal), format!("name:{evil}"));
    let unicode = lua_string("é 1");
    assert_eq!(unicode, "\"\\195\\169 1\"");
    // Legacy cannot write a NUL; nobody can write a name past the request limit.
    assert_eq!(Dialect::Legacy.focus_workspace(&ws(-1339, "a\0b")), None);
    assert_eq!(
        Dialect::Lua.focus_workspace(&ws(-1339, &"\"".repeat(3000))),
        None
    );
}

#[test]
fn addresses_are_normalised() {
    assert_eq!(address("0x55D1C0A3B2E0").as_deref(), Some("55d1c0a3b2e0"));
    assert_eq!(address(" 55d1 ").as_deref(), Some("55d1"));
    assert_eq!(address("0x"), None);
    assert_eq!(address("zz"), None);
}

#[test]
fn lines_are_split_in_any_pieces_and_overlong_ones_dropped() {
    let stream = b"workspacev2>>2,2\nactivewindowv2>>abc\nwindowtitlev2>>abc,t\xffx\n".as_slice();
    for piece in [1, 2, 7, 100] {
        let mut reader = LineReader::new();
        let mut lines = Vec::new();
        for chunk in stream.chunks(piece) {
            reader.push(chunk, |l| lines.push(l.to_owned()));
        }
        assert_eq!(
            lines,
            [
                "workspacev2>>2,2",
                "activewindowv2>>abc",
                "windowtitlev2>>abc,t\u{fffd}x"
            ],
            "pieces of {piece}"
        );
        assert_eq!(reader.buffered(), 0);
    }
    // Endless garbage without a newline stays bounded, and the next line is read again.
    let mut reader = LineReader::new();
    let mut lines = Vec::new();
    for _ in 0..100 {
        reader.push(&[b'x'; 1000], |l| lines.push(l.to_owned()));
        assert!(reader.buffered() <= MAX_LINE);
    }
    reader.push(b"yyy\nurgent>>abc\n", |l| lines.push(l.to_owned()));
    assert_eq!(lines, ["urgent>>abc"]);
    // A line of exactly the limit is kept; one byte more is not.
    let mut lines = Vec::new();
    let exact = [
        vec![b'a'; MAX_LINE],
        b"\n".to_vec(),
        vec![b'b'; MAX_LINE + 1],
        b"\nend\n".to_vec(),
    ]
    .concat();
    reader.push(&exact, |l| lines.push(l.len()));
    assert_eq!(lines, [MAX_LINE, 3]);
}
