//! Event lines of every Hyprland release parsed, and addresses normalised.

use super::*;
use std::collections::BTreeSet;

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
    assert_eq!(title.len(), crate::events::compositor::MAX_TEXT);
}

#[test]
fn actions_update_the_title_of_the_active_window_and_requery_for_shown_ones() {
    let none = BTreeSet::new();
    let shown = BTreeSet::from(["def".to_owned()]);
    let title = parse("windowtitlev2>>abc,new title");
    assert_eq!(
        title.action(Some("abc"), &none),
        Action::Title("new title".into())
    );
    assert_eq!(title.action(Some("def"), &none), Action::Ignore);
    // The last window of a workspace another output shows.
    assert_eq!(
        title.action(Some("xyz"), &BTreeSet::from(["abc".to_owned()])),
        Action::Requery
    );
    assert_eq!(title.action(Some("xyz"), &shown), Action::Ignore);
    assert_eq!(title.action(None, &none), Action::Ignore);
    let v1 = parse("windowtitle>>abc");
    assert_eq!(v1.action(Some("abc"), &none), Action::Requery);
    assert_eq!(v1.action(Some("def"), &none), Action::Ignore);
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
        assert_eq!(
            parse(line).action(Some("abc"), &none),
            Action::Requery,
            "{line}"
        );
    }
}

#[test]
fn addresses_are_normalised() {
    assert_eq!(address("0x55D1C0A3B2E0").as_deref(), Some("55d1c0a3b2e0"));
    assert_eq!(address(" 55d1 ").as_deref(), Some("55d1"));
    assert_eq!(address("0x"), None);
    assert_eq!(address("zz"), None);
}

/// Lines Hyprland 0.57 sent in the VM of tests/hyprland.rs while a special workspace was
/// toggled, a headless output came and went (an empty description) and a window asked
/// for the focus from another workspace.
#[test]
fn events_recorded_from_0_57_parse() {
    let replay = "activespecial>>special:scratch,Virtual-1\n\
                  activespecial>>,Virtual-1\n\
                  monitoraddedv2>>1,TEST1,\n\
                  moveworkspacev2>>2,2,Virtual-1\n\
                  monitorremovedv2>>1,TEST1,\n\
                  urgent>>5591b8424770\n";
    let events: Vec<Event> = replay.lines().map(parse).collect();
    assert_eq!(
        events,
        [
            Event::ActiveSpecial {
                id: None,
                name: "special:scratch".into(),
                monitor: "Virtual-1".into()
            },
            Event::ActiveSpecial {
                id: None,
                name: String::new(),
                monitor: "Virtual-1".into()
            },
            Event::MonitorAdded {
                name: "TEST1".into()
            },
            Event::MoveWorkspace {
                id: Some(2),
                name: "2".into(),
                monitor: "Virtual-1".into()
            },
            Event::MonitorRemoved {
                name: "TEST1".into()
            },
            Event::Urgent {
                address: "5591b8424770".into()
            },
        ]
    );
    // Layer surfaces are no concern of the modules.
    assert_eq!(Event::parse("openlayer>>ringbar"), None);
}

#[test]
fn the_layout_and_the_submap_as_events() {
    // A layout's description may hold commas; a keyboard's name does not.
    assert_eq!(
        parse(
            "activelayout>>at-translated-set-2-keyboard,Arabic (AZERTY, Eastern Arabic numerals)"
        ),
        Event::ActiveLayout {
            layout: "Arabic (AZERTY, Eastern Arabic numerals)".into()
        }
    );
    let layout = parse("activelayout>>kbd,German");
    assert_eq!(
        layout.action(None, &BTreeSet::new()),
        Action::Layout("German".into())
    );
    assert_eq!(
        parse("submap>>resize").action(None, &BTreeSet::new()),
        Action::Mode(Some("resize".into()))
    );
    assert_eq!(
        parse("submap>>").action(None, &BTreeSet::new()),
        Action::Mode(None)
    );
    assert_eq!(Event::parse("activelayout>>nocomma"), None);
}
