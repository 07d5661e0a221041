use super::*;

const WORKSPACES: &str = r#"[
  {"id": 4, "type": "workspace", "num": 2, "name": "2", "output": "HEADLESS-1",
   "focused": false, "visible": false, "urgent": true, "rect": {"x": 0, "y": 0}},
  {"id": 5, "type": "workspace", "num": -1, "name": "alpha", "output": "HEADLESS-1",
   "focused": true, "visible": true, "urgent": false},
  {"id": 7, "type": "workspace", "num": 1, "name": "1:web", "output": "HEADLESS-2",
   "focused": false, "visible": true, "urgent": false}
]"#;

/// GET_TREE of two outputs: "alpha" holds a split of two windows and a floating one,
/// "1:web" an X11 window and a mail window focused after it, "2" nothing; the
/// scratchpad holds one more.
const TREE: &str = r#"{
  "id": 1, "type": "root", "name": "root", "focused": false,
  "nodes": [
    {"id": 2, "type": "output", "name": "__i3", "nodes": [
      {"id": 3, "type": "workspace", "name": "__i3_scratch", "nodes": [],
       "floating_nodes": [{"id": 30, "type": "floating_con", "name": "hidden",
                           "app_id": "x", "nodes": [], "floating_nodes": []}]}]},
    {"id": 10, "type": "output", "name": "HEADLESS-1", "focused": false, "nodes": [
      {"id": 4, "type": "workspace", "name": "2", "nodes": [], "floating_nodes": []},
      {"id": 5, "type": "workspace", "name": "alpha", "focused": false,
       "nodes": [
         {"id": 11, "type": "con", "name": null, "layout": "splitv", "nodes": [
           {"id": 12, "type": "con", "name": "Flower", "app_id": "weston-flower",
            "focused": true, "nodes": [], "floating_nodes": []},
           {"id": 13, "type": "con", "name": "term", "app_id": "foot",
            "nodes": [], "floating_nodes": []}]}],
       "floating_nodes": [
         {"id": 14, "type": "floating_con", "name": "float", "app_id": "float",
          "nodes": [], "floating_nodes": []}]}]},
    {"id": 20, "type": "output", "name": "HEADLESS-2", "nodes": [
      {"id": 7, "type": "workspace", "name": "1:web", "focus": [22, 21], "nodes": [
        {"id": 21, "type": "con", "name": "Firefox", "app_id": null,
         "window_properties": {"class": "firefox", "title": "Firefox"},
         "nodes": [], "floating_nodes": []},
        {"id": 22, "type": "con", "name": "Mail", "app_id": "thunderbird",
         "nodes": [], "floating_nodes": []}], "floating_nodes": []}]}
  ]
}"#;

fn state() -> CompositorState {
    CompositorState {
        workspaces: parse_workspaces(WORKSPACES.as_bytes()).expect("workspaces"),
        ..CompositorState::default()
    }
}

#[test]
fn workspaces_come_in_display_order_with_their_flags() {
    let list = state().workspaces;
    let names: Vec<&str> = list.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["1:web", "2", "alpha"]);
    assert_eq!(list[0].id, 1);
    assert_eq!(list[0].output, "HEADLESS-2");
    assert!(list[0].visible && !list[0].focused);
    assert!(list[1].urgent && !list[1].visible);
    assert_eq!(list[2].id, -1);
    assert!(list[2].focused && list[2].visible && !list[2].special);
}

#[test]
fn the_tree_gives_window_counts_and_the_focused_window() {
    let mut state = state();
    apply_tree(TREE.as_bytes(), &mut state).expect("tree");
    let counts: Vec<(&str, u32)> = state
        .workspaces
        .iter()
        .map(|w| (w.name.as_str(), w.windows))
        .collect();
    assert_eq!(counts, [("1:web", 2), ("2", 0), ("alpha", 3)]);
    // Each workspace's last focused window, down the focus order (else the first).
    let last: Vec<Option<(&str, Option<&str>)>> = state
        .workspaces
        .iter()
        .map(|w| {
            let last = w.last_window.as_ref()?;
            Some((last.title.as_str(), last.app_id.as_deref()))
        })
        .collect();
    assert_eq!(
        last,
        [
            Some(("Mail", Some("thunderbird"))),
            None,
            Some(("Flower", Some("weston-flower")))
        ]
    );
    assert_eq!(state.window_title.as_deref(), Some("Flower"));
    assert_eq!(state.window_app_id.as_deref(), Some("weston-flower"));
    // Every workspace's windows in the tree's order, floating ones last.
    let listed: Vec<Vec<&str>> = state
        .workspaces
        .iter()
        .map(|w| w.window_names.iter().map(|n| n.title.as_str()).collect())
        .collect();
    assert_eq!(
        listed,
        [
            vec!["Firefox", "Mail"],
            vec![],
            vec!["Flower", "term", "float"]
        ]
    );
    assert_eq!(
        state.workspaces[0].window_names[0].app_id.as_deref(),
        Some("firefox"),
        "an X11 window's class"
    );
    // The scratchpad's window, counted for no workspace.
    let stashed = state.scratchpad.expect("sway has a scratchpad");
    assert_eq!(
        stashed,
        [crate::events::compositor::Stashed {
            app: "x".into(),
            title: "hidden".into()
        }]
    );
}

#[test]
fn an_x11_window_has_its_class_and_an_empty_workspace_has_no_title() {
    let mut state = state();
    let x11 = TREE
        .replace(
            r#""focused": true, "nodes": [], "floating_nodes": []},"#,
            r#""nodes": [], "floating_nodes": []},"#,
        )
        .replace(
            r#""name": "Firefox", "app_id": null,"#,
            r#""name": "Firefox", "app_id": null, "focused": true,"#,
        );
    apply_tree(x11.as_bytes(), &mut state).expect("tree");
    assert_eq!(state.window_title.as_deref(), Some("Firefox"));
    assert_eq!(state.window_app_id.as_deref(), Some("firefox"));

    let empty = TREE
        .replace(
            r#""focused": true, "nodes": [], "floating_nodes": []},"#,
            r#""nodes": [], "floating_nodes": []},"#,
        )
        .replace(
            r#""name": "2", "nodes""#,
            r#""name": "2", "focused": true, "nodes""#,
        );
    apply_tree(empty.as_bytes(), &mut state).expect("tree");
    assert_eq!(state.window_title, None);
    assert_eq!(state.window_app_id, None);
}

#[test]
fn odd_bytes_and_long_titles_do_not_break_the_tree() {
    let long = "x".repeat(5000);
    let tree = TREE.replace("\"Flower\"", &format!("\"{long}\""));
    let mut bytes = tree.into_bytes();
    // An invalid UTF-8 byte inside the app id.
    let at = bytes
        .windows(13)
        .position(|w| w == b"weston-flower")
        .expect("app id");
    bytes[at + 6] = 0xff;
    let mut state = state();
    apply_tree(&bytes, &mut state).expect("tree");
    assert_eq!(
        state.window_title.as_ref().map(|t| t.chars().count()),
        Some(crate::events::compositor::MAX_TEXT)
    );
    assert_eq!(state.window_app_id.as_deref(), Some("weston\u{fffd}flower"));
}

#[test]
fn garbage_json_is_an_error() {
    assert!(parse_workspaces(b"{\"not\": \"a list\"}").is_err());
    assert!(parse_workspaces(b"\xff\xfe").is_err());
    assert!(apply_tree(b"[", &mut CompositorState::default()).is_err());
    let deep = "[".repeat(100_000);
    assert!(parse_workspaces(deep.as_bytes()).is_err());
}

#[test]
fn messages_round_trip_through_the_decoder_in_any_pieces() {
    let mut stream = encode(GET_WORKSPACES, b"");
    stream.extend(encode(EVENT_WINDOW, br#"{"change":"focus"}"#));
    stream.extend(encode(GET_TREE, &[b'x'; 1000]));
    for piece in [1, 3, 13, 14, 15, 64, 4096] {
        let mut decoder = Decoder::new();
        let mut got = Vec::new();
        for chunk in stream.chunks(piece) {
            decoder.push(chunk);
            while let Some(message) = decoder.next_message().expect("valid stream") {
                got.push(message);
            }
        }
        assert_eq!(got.len(), 3, "pieces of {piece}");
        assert_eq!(got[0], (GET_WORKSPACES, Vec::new()));
        assert_eq!(got[1].0, EVENT_WINDOW);
        assert_eq!(got[2], (GET_TREE, vec![b'x'; 1000]));
        assert_eq!(decoder.buffered(), 0);
    }
}

#[test]
fn the_decoder_refuses_garbage_and_absurd_lengths_without_buffering_them() {
    let mut decoder = Decoder::new();
    decoder.push(b"HTTP/1.1 200 OK\r\n");
    assert_eq!(decoder.next_message(), Err(DecodeError::BadMagic));
    decoder.push(&encode(RUN_COMMAND, b"[]"));
    assert_eq!(decoder.next_message(), Err(DecodeError::BadMagic));
    assert_eq!(decoder.buffered(), 0);

    // Wrong from the first differing byte, before a whole header arrived.
    let mut decoder = Decoder::new();
    decoder.push(b"i3-x");
    assert_eq!(decoder.next_message(), Err(DecodeError::BadMagic));

    let mut decoder = Decoder::new();
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&u32::MAX.to_ne_bytes());
    header.extend_from_slice(&0u32.to_ne_bytes());
    decoder.push(&header);
    assert_eq!(
        decoder.next_message(),
        Err(DecodeError::TooLong(u32::MAX as usize))
    );

    // Every prefix of a valid message is merely incomplete.
    let message = encode(GET_TREE, b"{}");
    for end in 0..message.len() {
        let mut decoder = Decoder::new();
        decoder.push(&message[..end]);
        assert_eq!(decoder.next_message(), Ok(None), "prefix of {end}");
    }
}

#[test]
fn events_ask_for_a_requery_or_carry_the_new_title() {
    assert_eq!(
        event_action(EVENT_WORKSPACE, br#"{"change":"focus"}"#),
        EventAction::Requery
    );
    assert_eq!(event_action(EVENT_OUTPUT, b"{}"), EventAction::Requery);
    assert_eq!(
        event_action(EVENT_MODE, br#"{"change":"resize"}"#),
        EventAction::Mode(Some("resize".into()))
    );
    assert_eq!(
        event_action(EVENT_MODE, br#"{"change":"default"}"#),
        EventAction::Mode(None)
    );
    assert_eq!(event_action(EVENT_SHUTDOWN, b"{}"), EventAction::Ignore);
    let title = br#"{"change":"title","container":{"type":"con","name":"new","app_id":"foot","focused":true,"nodes":[],"floating_nodes":[]}}"#;
    assert_eq!(
        event_action(EVENT_WINDOW, title),
        EventAction::Title {
            title: Some("new".into()),
            app_id: Some("foot".into())
        }
    );
    let other = br#"{"change":"title","container":{"type":"con","name":"bg","focused":false}}"#;
    assert_eq!(event_action(EVENT_WINDOW, other), EventAction::Ignore);
    // A window shown on another output: its bar may show the title.
    let shown = br#"{"change":"title","container":{"type":"con","name":"bg","visible":true}}"#;
    assert_eq!(event_action(EVENT_WINDOW, shown), EventAction::Requery);
    for change in ["new", "close", "focus", "move", "floating", "urgent"] {
        let payload = format!(r#"{{"change":"{change}","container":{{"type":"con"}}}}"#);
        assert_eq!(
            event_action(EVENT_WINDOW, payload.as_bytes()),
            EventAction::Requery,
            "{change}"
        );
    }
    assert_eq!(event_action(EVENT_WINDOW, b"garbage"), EventAction::Requery);
}

fn named(id: i64, name: &str) -> Workspace {
    Workspace {
        id,
        name: name.into(),
        ..Workspace::default()
    }
}

#[test]
fn a_switch_without_warping_turns_it_off_around_the_switch() {
    let command = workspace_command(&named(3, "3")).expect("a command");
    assert_eq!(
        unwarped(&command),
        r#"mouse_warping none; workspace --no-auto-back-and-forth "3"; mouse_warping container"#
    );
}

#[test]
fn workspace_commands_quote_names_and_fall_back_to_numbers() {
    let cmd = |id, name| workspace_command(&named(id, name));
    assert_eq!(
        cmd(3, "3"),
        Some(r#"workspace --no-auto-back-and-forth "3""#.into())
    );
    assert_eq!(
        cmd(-1, "mail; exec rm -rf ~, kill"),
        Some(r#"workspace --no-auto-back-and-forth "mail; exec rm -rf ~, kill""#.into())
    );
    assert_eq!(
        cmd(-1, "$HOME [class=x]"),
        Some(r#"workspace --no-auto-back-and-forth "$$HOME [class=x]""#.into())
    );
    assert_eq!(
        cmd(2, "2:\"quoted\""),
        Some("workspace --no-auto-back-and-forth number 2".into())
    );
    assert_eq!(
        cmd(4, "next"),
        Some("workspace --no-auto-back-and-forth number 4".into())
    );
    assert_eq!(cmd(-1, "a\\\"; exec evil"), None);
    assert_eq!(cmd(-1, "Back_And_Forth"), None);
    assert_eq!(cmd(-1, "line\nbreak"), None);
    assert_eq!(cmd(-1, ""), None);
}

#[test]
fn command_replies_report_sway_errors() {
    assert_eq!(check_reply(br#"[{"success":true}]"#), Ok(()));
    assert_eq!(check_reply(br#"{"success":true}"#), Ok(()));
    assert_eq!(
        check_reply(br#"[{"success":true},{"success":false,"parse_error":true,"error":"Unknown/invalid command 'x'"}]"#),
        Err("Unknown/invalid command 'x'".into())
    );
    assert!(check_reply(b"nonsense").is_err());
}
