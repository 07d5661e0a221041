//! The window list as a compositor's foreign-toplevel events build it.

use std::collections::BTreeMap;

use super::*;

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

fn no_app(_: &str) -> (Option<String>, Option<String>) {
    (None, None)
}

/// Two outputs; foot active on the first, mpv minimized and maximized on both.
fn two_windows() -> TaskList {
    let mapping = BTreeMap::from([("mpv-old".to_owned(), "mpv".to_owned())]);
    let mut list = TaskList::new(mapping);
    list.output_named(5, "DP-1");
    list.output_named(6, "HDMI-A-1");
    assert!(list.added(20));
    list.title(20, "~: htop");
    list.app_id(20, "foot");
    list.state(20, &words(&[2]));
    list.output(20, 5, true);
    list.done(20);
    assert!(list.added(21));
    list.title(21, "film");
    list.app_id(21, "mpv-old");
    list.state(21, &words(&[0, 1]));
    list.output(21, 5, true);
    list.output(21, 6, true);
    list.done(21);
    list
}

#[test]
fn windows_are_shown_once_done_with_their_state_outputs_and_app() {
    let mut list = two_windows();
    // Announced, not yet done: not shown.
    assert!(list.added(22));
    list.title(22, "half");
    let app = |app_id: &str| {
        (
            Some(format!("App {app_id}")),
            Some(format!("{app_id}-icon")),
        )
    };
    let tasks = list.tasks(&app);
    assert_eq!(tasks.list.len(), 2);
    let foot = &tasks.list[0];
    assert_eq!((foot.id, foot.title.as_str()), (20, "~: htop"));
    assert_eq!(foot.outputs, ["DP-1"]);
    assert!(foot.active && !foot.minimized && !foot.maximized && !foot.fullscreen);
    assert_eq!(foot.app_name.as_deref(), Some("App foot"));
    assert_eq!(foot.icon.as_deref(), Some("foot-icon"));
    let mpv = &tasks.list[1];
    // `app_ids-mapping` applies before the desktop entry is looked up.
    assert_eq!(mpv.app_id, "mpv");
    assert_eq!(mpv.icon.as_deref(), Some("mpv-icon"));
    assert_eq!(mpv.outputs, ["DP-1", "HDMI-A-1"]);
    assert!(mpv.maximized && mpv.minimized && !mpv.active);
    list.done(22);
    assert_eq!(list.tasks(&no_app).list.len(), 3);
}

#[test]
fn states_outputs_and_closing_change_the_list() {
    let mut list = two_windows();
    // The focus moves; mpv leaves an output; that output goes.
    list.state(20, &words(&[]));
    list.state(21, &words(&[2, 3]));
    list.output(21, 5, false);
    let tasks = list.tasks(&no_app);
    assert!(!tasks.list[0].active);
    assert!(tasks.list[1].active && tasks.list[1].fullscreen && !tasks.list[1].maximized);
    assert_eq!(tasks.list[1].outputs, ["HDMI-A-1"]);
    list.output_gone(6);
    assert!(list.tasks(&no_app).list[1].outputs.is_empty());
    list.closed(20);
    let ids: Vec<u32> = list.tasks(&no_app).list.iter().map(|t| t.id).collect();
    assert_eq!(ids, [21]);
    assert_eq!(list.get(21).map(|t| t.title.as_str()), Some("film"));
    // Events for a window that is gone, or never was, change nothing.
    list.title(20, "ghost");
    list.done(99);
    assert_eq!(list.tasks(&no_app).list.len(), 1);
}

#[test]
fn hostile_compositors_are_bounded() {
    let mut list = TaskList::default();
    // A title of a megabyte is cut; a torn state array is read as far as it goes.
    assert!(list.added(1));
    list.title(1, &"é".repeat(1 << 20));
    list.state(1, &[2, 0, 0, 0, 7]);
    list.done(1);
    let tasks = list.tasks(&no_app);
    assert_eq!(
        tasks.list[0].title.chars().count(),
        crate::events::compositor::MAX_TEXT
    );
    assert!(tasks.list[0].active);
    // More windows than the bar takes: the rest are refused, not kept.
    for id in 2..=(MAX_TASKS as u32 + 10) {
        let added = list.added(id);
        assert_eq!(added, (id as usize) <= MAX_TASKS, "window {id}");
    }
    assert_eq!(list.tasks(&no_app).list.len(), 1);
}

#[test]
fn waybar_action_names() {
    assert_eq!(
        TaskAction::named("minimize-raise"),
        Some(TaskAction::MinimizeRaise)
    );
    assert_eq!(TaskAction::named("close"), Some(TaskAction::Close));
    assert_eq!(TaskAction::named("rm -rf"), None);
}
