//! The desktop as labwc and multi-output compositors announce it.

use super::*;

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

/// One group on two outputs with workspaces 1, 2 and "mail" (announced out of order,
/// placed by their coordinates), the second active; one window activated.
fn labwc_like() -> Desktop {
    let mut desktop = Desktop::default();
    desktop.output_named(3, "HEADLESS-1");
    desktop.output_named(4, "HEADLESS-2");
    desktop.group_added(10);
    desktop.group_output(10, 3, true);
    desktop.group_output(10, 4, true);
    for (workspace, name, x) in [(21, "mail", 2), (20, "", 0), (22, "2", 1)] {
        desktop.workspace_added(workspace);
        desktop.workspace_named(workspace, name);
        desktop.workspace_coordinates(workspace, &words(&[x]));
        desktop.group_workspace(10, workspace, true);
    }
    desktop.workspace_state(22, ACTIVE);
    desktop.windows.added(30);
    desktop.windows.title(30, "foot <b>");
    desktop.windows.app_id(30, "foot");
    desktop.windows.state(30, &words(&[0, TOPLEVEL_ACTIVATED]));
    desktop.windows.done(30);
    desktop.windows.added(31);
    desktop.windows.title(31, "other");
    desktop
}

#[test]
fn a_group_on_two_outputs_shows_its_workspaces_on_each_in_place_order() {
    let desktop = labwc_like();
    let state = desktop.state();
    let shown: Vec<(&str, i64, &str, bool)> = state
        .workspaces
        .iter()
        .map(|w| {
            (
                w.output.as_str(),
                w.id,
                w.name.as_str(),
                w.focused && w.visible,
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("HEADLESS-1", 1, "1", false),
            ("HEADLESS-1", 2, "2", true),
            ("HEADLESS-1", 3, "mail", false),
            ("HEADLESS-2", 1, "1", false),
            ("HEADLESS-2", 2, "2", true),
            ("HEADLESS-2", 3, "mail", false),
        ]
    );
    assert!(state
        .workspaces
        .iter()
        .all(|w| w.windows == crate::events::compositor::WINDOWS_UNKNOWN));
    assert_eq!(state.window_title.as_deref(), Some("foot <b>"));
    assert_eq!(state.window_app_id.as_deref(), Some("foot"));
    // A click on "mail" on either output is the workspace object 21.
    assert_eq!(desktop.workspace_object(&state.workspaces[2]), Some(21));
    assert_eq!(desktop.workspace_object(&state.workspaces[5]), Some(21));
}

#[test]
fn states_removals_and_hidden_workspaces_follow() {
    let mut desktop = labwc_like();
    desktop.workspace_state(22, 0);
    desktop.workspace_state(21, ACTIVE | URGENT);
    desktop.workspace_state(20, HIDDEN);
    desktop.output_gone(4);
    desktop.windows.state(30, &words(&[]));
    desktop.windows.done(30);
    let state = desktop.state();
    let shown: Vec<(&str, bool, bool)> = state
        .workspaces
        .iter()
        .map(|w| (w.name.as_str(), w.visible, w.urgent))
        .collect();
    assert_eq!(shown, [("2", false, false), ("mail", true, true)]);
    assert_eq!(state.window_title, None, "no window is activated");
    desktop.workspace_removed(22);
    desktop.windows.closed(30);
    let state = desktop.state();
    assert_eq!(state.workspaces.len(), 1);
    assert_eq!(state.workspaces[0].id, 1, "places close up");
    // A workspace moved to another group leaves the first.
    desktop.group_added(11);
    desktop.group_workspace(11, 21, true);
    assert!(desktop
        .state()
        .workspaces
        .iter()
        .all(|w| w.output.is_empty()));
    desktop.group_removed(10);
    desktop.group_removed(11);
    assert!(desktop.state().workspaces.is_empty());
}

#[test]
fn hostile_names_and_floods_stay_bounded() {
    let mut desktop = Desktop::default();
    desktop.group_added(1);
    for id in 0..(MAX_OBJECTS as u32 + 50) {
        desktop.workspace_added(100 + id);
    }
    desktop.workspace_named(100, &"x".repeat(100_000));
    desktop.workspace_coordinates(100, &[1, 2, 3]);
    desktop.group_workspace(1, 100, true);
    desktop.windows.added(5);
    desktop.windows.title(5, &"\u{7}<i>".repeat(10_000));
    desktop.windows.state(5, &words(&[TOPLEVEL_ACTIVATED]));
    desktop.windows.done(5);
    let state = desktop.state();
    assert_eq!(state.workspaces.len(), 1);
    assert_eq!(
        state.workspaces[0].name.chars().count(),
        crate::events::compositor::MAX_TEXT
    );
    let title = state.window_title.expect("a title");
    assert_eq!(title.chars().count(), crate::events::compositor::MAX_TEXT);
    // Events for objects never announced are ignored.
    desktop.workspace_state(9, ACTIVE);
    desktop.group_output(9, 1, true);
    desktop.windows.title(9, "ghost");
    assert_eq!(desktop.state().workspaces.len(), 1);
}

#[test]
fn the_socket_is_found_as_wayland_clients_find_it() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    };
    let named = env(&[
        ("WAYLAND_DISPLAY", "wayland-1"),
        ("XDG_RUNTIME_DIR", "/run/user/7"),
    ]);
    assert_eq!(locate(&named), Some(Ok("/run/user/7/wayland-1".into())));
    let path = env(&[("WAYLAND_DISPLAY", "/tmp/w.sock")]);
    assert_eq!(locate(&path), Some(Ok("/tmp/w.sock".into())));
    let unset = env(&[("XDG_RUNTIME_DIR", "/run/user/7")]);
    assert_eq!(locate(&unset), Some(Ok("/run/user/7/wayland-0".into())));
    assert_eq!(locate(&env(&[("WAYLAND_DISPLAY", "wayland-1")])), None);
}
