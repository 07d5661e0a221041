//! Wayfire's framing, and its replies and events as Wayfire 0.10 sends them (recorded
//! from a real one), into the state the modules read.

use serde_json::{json, Value};

use super::*;
use crate::events::compositor::Workspace;

fn output(workspace_x: i64) -> Value {
    json!({"id": 1, "name": "HEADLESS-1",
           "geometry": {"x": 0, "y": 0, "width": 1280, "height": 720},
           "workarea": {"x": 0, "y": 0, "width": 1280, "height": 720}, "wset-index": 1,
           "workspace": {"x": workspace_x, "y": 0, "grid_width": 3, "grid_height": 1}})
}

fn view(id: u64, title: &str, x: i64, mapped: bool) -> Value {
    json!({"id": id, "pid": if mapped { 3466 } else { -1 }, "title": title, "app-id": "foot",
           "geometry": {"x": x, "y": 100, "width": 696, "height": 494}, "parent": -1,
           "output-id": 1, "output-name": "HEADLESS-1", "role": "toplevel",
           "mapped": mapped, "layer": "workspace", "minimized": false, "activated": true,
           "sticky": false, "wset-index": 1, "type": "toplevel"})
}

/// `name:flags` per workspace, flags from focused, visible and windows.
fn shown(wayfire: &Wayfire) -> String {
    let state = wayfire.state();
    let one = |w: &Workspace| {
        let mut flags = String::new();
        if w.focused {
            flags.push('F');
        }
        if w.visible {
            flags.push('V');
        }
        format!("{}:{flags}{}", w.name, w.windows)
    };
    state
        .workspaces
        .iter()
        .map(one)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn frames_are_cut_whole_and_oversized_ones_refused() {
    let framed = message("window-rules/list-views", json!({}));
    let length = u32::from_le_bytes(framed[..4].try_into().expect("four bytes")) as usize;
    assert_eq!(length, framed.len() - 4);
    let body: Value = serde_json::from_slice(&framed[4..]).expect("JSON");
    assert_eq!(body["method"], "window-rules/list-views");
    // Two messages, delivered a byte at a time.
    let mut frames = Frames::default();
    let mut got = Vec::new();
    let both = [framed.clone(), message("list-methods", json!({}))].concat();
    for byte in &both {
        frames
            .push(std::slice::from_ref(byte), |m| got.push(m.to_vec()))
            .expect("fits");
    }
    assert_eq!(got.len(), 2);
    assert_eq!(got[0], framed[4..]);
    let huge = (MAX_MESSAGE as u32 + 1).to_le_bytes();
    let err = Frames::default()
        .push(&huge, |_| panic!("no message"))
        .expect_err("too long");
    assert!(err.contains("at most"), "{err}");
}

#[test]
fn the_grid_the_focus_and_the_windows_follow_wayfires_events() {
    let mut wayfire = Wayfire::default();
    wayfire.set_outputs(&json!([output(0)]));
    wayfire.set_views(&json!([]));
    wayfire.set_focused_view(&json!({"result": "ok", "info": null}));
    wayfire.set_focused_output(&json!({"result": "ok", "info": output(0)}));
    assert_eq!(shown(&wayfire), "1:FV0 2:0 3:0");
    assert_eq!(wayfire.state().window_title, None);

    // A window being made says nothing until it maps; then it has the focus.
    assert!(
        !wayfire.apply(&json!({"event": "view-title-changed", "view": view(3, "nil", 100, false)}))
    );
    wayfire.apply(&json!({"event": "view-mapped", "view": view(3, "ONE", 100, true)}));
    wayfire.apply(&json!({"event": "view-focused", "view": view(3, "ONE", 100, true)}));
    assert_eq!(shown(&wayfire), "1:FV1 2:0 3:0");
    let state = wayfire.state();
    assert_eq!(state.window_title.as_deref(), Some("ONE"));
    assert_eq!(state.window_app_id.as_deref(), Some("foot"));

    // vswitch to the third: the window moves two widths left, the focus goes.
    wayfire.apply(&json!({"event": "view-geometry-changed", "view": view(3, "ONE", -2460, true)}));
    wayfire.apply(&json!({"event": "view-focused", "view": null}));
    wayfire.apply(&json!({"event": "wset-workspace-changed",
        "previous-workspace": {"x": 0, "y": 0}, "new-workspace": {"x": 2, "y": 0},
        "output": 1, "wset": 2, "output-data": output(2)}));
    assert_eq!(shown(&wayfire), "1:1 2:0 3:FV0");
    assert_eq!(wayfire.state().window_title, None);
    let third = wayfire.state().workspaces[2].clone();
    assert_eq!(wayfire.place_of(&third), Some((1, 2, 0)));

    // Its title changes, then it closes.
    wayfire
        .apply(&json!({"event": "view-title-changed", "view": view(3, "<b>two</b>", -2460, true)}));
    let listed = &wayfire.state().workspaces[0].window_names;
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].title.as_str(), listed[0].app_id.as_deref()),
        ("<b>two</b>", Some("foot")),
        "the first workspace lists it, for window-rewrite"
    );
    wayfire.apply(&json!({"event": "view-unmapped", "view": view(3, "<b>two</b>", -2460, false)}));
    assert_eq!(shown(&wayfire), "1:0 2:0 3:FV0");
    assert!(wayfire.apply(&json!({"event": "output-gain-focus", "output": output(2)})));
}

#[test]
fn hostile_replies_are_bounded_and_bad_places_refused() {
    let mut wayfire = Wayfire::default();
    let mut huge = output(0);
    huge["workspace"] = json!({"x": 5000, "y": -3, "grid_width": 100000, "grid_height": 100000});
    wayfire.set_outputs(&json!([huge, "not an output", {"id": "x"}]));
    let state = wayfire.state();
    assert_eq!(state.workspaces.len(), (MAX_GRID * MAX_GRID) as usize);
    assert!(
        state.workspaces.iter().all(|w| !w.visible),
        "the shown one is off the grid"
    );
    let views: Vec<Value> = (0..MAX_VIEWS as u64 + 10)
        .map(|id| view(id, "v", 0, true))
        .collect();
    wayfire.set_views(&Value::Array(views));
    let windows: u32 = wayfire.state().workspaces.iter().map(|w| w.windows).sum();
    assert_eq!(windows as usize, MAX_VIEWS);
    let nowhere = Workspace {
        id: 0,
        output: "HEADLESS-1".to_owned(),
        ..Workspace::default()
    };
    assert_eq!(wayfire.place_of(&nowhere), None);
    let elsewhere = Workspace {
        id: 1,
        output: "DP-9".to_owned(),
        ..Workspace::default()
    };
    assert_eq!(wayfire.place_of(&elsewhere), None);
    wayfire.apply(&json!({"event": 7, "view": "no view"}));
}
