use super::*;
use crate::config;
use crate::events::compositor::CompositorState;
use crate::modules::tests::CLOCK;
use crate::sample::Sample;

fn workspace(id: i64, name: &str, output: &str) -> Workspace {
    Workspace {
        id,
        name: name.to_owned(),
        output: output.to_owned(),
        ..Workspace::default()
    }
}

fn state() -> CompositorState {
    let mut one = workspace(1, "1", "DP-1");
    one.focused = true;
    one.visible = true;
    one.windows = 2;
    let mut mail = workspace(-1, "mail", "DP-1");
    mail.urgent = true;
    mail.windows = 1;
    let mut two = workspace(2, "2", "HDMI-A-1");
    two.visible = true;
    let mut scratch = workspace(-98, "special:scratch", "DP-1");
    scratch.special = true;
    CompositorState {
        workspaces: vec![one, mail, two, scratch],
        ..CompositorState::default()
    }
}

/// The buttons on `output` with the `[workspaces]` table `toml`, for [`state`].
fn buttons(toml: &str, output: &str) -> Vec<(String, Vec<&'static str>)> {
    buttons_of(toml, &state(), output)
}

#[test]
fn the_bars_own_output_with_classes() {
    let plain = "";
    assert_eq!(
        buttons(plain, "DP-1"),
        [
            ("1".to_owned(), vec!["focused", "visible", "occupied"]),
            ("mail".to_owned(), vec!["urgent", "occupied"]),
        ]
    );
    assert_eq!(
        buttons(plain, "HDMI-A-1"),
        [("2".to_owned(), vec!["visible", "empty"])]
    );
    let all = "all_outputs = true\nshow_special = true\n";
    let labels: Vec<String> = buttons(all, "DP-1").into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels, ["1", "mail", "2", "scratch"]);
}

#[test]
fn formats_and_icons() {
    let icons = "format = \"{id}:{icon}\"\n\
                 icons = { \"1\" = \"web\", urgent = \"!\", default = \"·\" }\n";
    let labels: Vec<String> = buttons(icons, "DP-1").into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels, ["1:web", "-1:!"]);
    let config =
        config::parse("modules_left = [\"workspaces\"]\n", "c.toml".as_ref()).expect("valid");
    let state = state();
    let sample = Sample::default();
    let input = Input {
        sample: &sample,
        clock: &CLOCK,
        compositor: &state,
        output: "",
        scripts: &crate::modules::NO_SCRIPTS,
        events: &crate::modules::NO_EVENTS,
    };
    let mut out = String::new();
    config.modules.left[0].text(&input, &mut out);
    assert_eq!(out, "[1] mail 2", "every output's in a text output");
    let typo = config::parse("[workspaces]\nshow_specail = true\n", "c.toml".as_ref());
    assert!(typo.is_err());
}

#[test]
fn waybars_fields_icons_and_filters() {
    let labels =
        |toml: &str| -> Vec<String> { buttons(toml, "DP-1").into_iter().map(|(l, _)| l).collect() };
    assert_eq!(
        labels("format = \"{value}/{index}@{output} of {total}\"\nall-outputs = true\n"),
        ["1/1@DP-1 of 3", "mail/-1@DP-1 of 3", "2/2@HDMI-A-1 of 3"]
    );
    assert_eq!(
        labels(
            "format = \"{icon}\"\nall-outputs = true\n\
             format-icons = { active = \"A\", empty = \"E\", default = \"D\" }\n"
        ),
        ["A", "D", "A"]
    );
    assert_eq!(
        labels("all-outputs = true\nhide-empty = true\n"),
        ["1", "mail"]
    );
    assert_eq!(
        labels("all-outputs = true\ncurrent-only = true\n"),
        ["1", "2"]
    );
    let config = config::parse(
        "modules_left = [\"workspaces\"]\n[workspaces]\ndisable-click = true\n",
        "c.toml".as_ref(),
    )
    .expect("valid");
    let Widget::Buttons(row) = config.modules.left[0].widget() else {
        panic!("a row of workspace buttons");
    };
    let target = Target::Workspace(workspace(1, "1", "DP-1"));
    assert_eq!(row.press(&target, Button::Left, None), None);
    let scrolls = |toml: &str| {
        let text = format!("modules_left = [\"workspaces\"]\n[workspaces]\n{toml}");
        let config = config::parse(&text, "c.toml".as_ref()).expect("valid");
        config.modules.left[0].action(Button::ScrollDown)
    };
    assert_eq!(
        scrolls(""),
        Some(Action::StepWorkspace {
            forward: true,
            warp: true
        })
    );
    assert_eq!(
        scrolls("warp-on-scroll = false"),
        Some(Action::StepWorkspace {
            forward: true,
            warp: false
        })
    );
    assert_eq!(scrolls("disable-scroll = true"), None);
}

/// The buttons of `toml`'s workspaces on `output` for `state`: label and classes.
fn buttons_of(
    toml: &str,
    state: &CompositorState,
    output: &str,
) -> Vec<(String, Vec<&'static str>)> {
    let text = format!("modules_left = [\"workspaces\"]\n[workspaces]\n{toml}");
    let config = config::parse(&text, "c.toml".as_ref()).expect(toml);
    let sample = Sample::default();
    let input = Input {
        sample: &sample,
        clock: &CLOCK,
        compositor: state,
        output,
        scripts: &crate::modules::NO_SCRIPTS,
        events: &crate::modules::NO_EVENTS,
    };
    let Widget::Buttons(row) = config.modules.left[0].widget() else {
        panic!("a row of workspace buttons");
    };
    let mut out = Vec::new();
    row.buttons(&input, &mut out);
    out.into_iter().map(|b| (b.label, b.classes)).collect()
}

fn labels_of(toml: &str, state: &CompositorState, output: &str) -> Vec<String> {
    let buttons = buttons_of(toml, state, output);
    buttons.into_iter().map(|(label, _)| label).collect()
}

#[test]
fn persistent_workspaces_are_shown_before_the_compositor_makes_them() {
    let state = state();
    // Workspace 1 exists; 3 and "chat" do not. DP-1 shows them in display order.
    let by_name = "persistent-workspaces = { \"3\" = [], \"chat\" = [\"DP-1\"], \"1\" = [] }\n";
    assert_eq!(
        buttons_of(by_name, &state, "DP-1"),
        [
            (
                "1".into(),
                vec!["focused", "visible", "persistent", "occupied"]
            ),
            ("3".into(), vec!["persistent", "empty"]),
            ("chat".into(), vec!["persistent", "empty"]),
            ("mail".into(), vec!["urgent", "occupied"]),
        ]
    );
    assert_eq!(
        labels_of(by_name, &state, "HDMI-A-1"),
        ["2", "3"],
        "chat is DP-1's"
    );
    // A click on one that is not made yet asks for it by its number or name.
    let text = format!("modules_left = [\"workspaces\"]\n[workspaces]\n{by_name}");
    let config = config::parse(&text, "c.toml".as_ref()).expect("valid");
    let Widget::Buttons(row) = config.modules.left[0].widget() else {
        panic!("a row of workspace buttons");
    };
    let made = |id, name: &str| {
        Target::Workspace(Workspace {
            id,
            name: name.into(),
            output: "DP-1".into(),
            ..Workspace::default()
        })
    };
    let mut out = Vec::new();
    let sample = Sample::default();
    let input = Input {
        sample: &sample,
        clock: &CLOCK,
        compositor: &state,
        output: "DP-1",
        scripts: &crate::modules::NO_SCRIPTS,
        events: &crate::modules::NO_EVENTS,
    };
    row.buttons(&input, &mut out);
    let targets: Vec<&Target> = out.iter().map(|b| &b.target).collect();
    assert_eq!(targets[1], &made(3, "3"));
    assert_eq!(targets[2], &made(-1, "chat"), "by its name");
    let Target::Workspace(three) = targets[1].clone() else {
        panic!("a workspace");
    };
    assert_eq!(
        row.press(targets[1], Button::Left, None),
        Some(Action::FocusWorkspace(three))
    );

    // Per output: a count, or a list; `*` for the outputs not named. Workspace 2 is
    // HDMI-A-1's, and stays there.
    let per_output = "persistent-workspaces = { \"*\" = 3, \"HDMI-A-1\" = [7, \"music\"] }\n";
    assert_eq!(labels_of(per_output, &state, "DP-1"), ["1", "3", "mail"]);
    assert_eq!(
        labels_of(per_output, &state, "HDMI-A-1"),
        ["2", "7", "music"]
    );
    // Shown although hide-empty and persistent-only would hide the others.
    let kept = "persistent-workspaces = { \"4\" = [] }\nhide-empty = true\n";
    assert_eq!(labels_of(kept, &state, "HDMI-A-1"), ["4"]);
    let only = "persistent-workspaces = { \"1\" = [] }\npersistent-only = true\n";
    assert_eq!(labels_of(only, &state, "DP-1"), ["1"]);
    let icons = "persistent-workspaces = { \"5\" = [] }\nformat = \"{icon}\"\n\
                 format-icons = { persistent = \"P\", default = \"D\" }\n";
    assert_eq!(labels_of(icons, &state, "HDMI-A-1"), ["D", "P"]);
}

#[test]
fn a_count_is_numbered_from_hyprlands_monitor() {
    let mut state = state();
    for w in &mut state.workspaces {
        w.monitor_id = Some(u32::from(w.output != "DP-1"));
    }
    let count = "persistent-workspaces = { \"*\" = 2 }\n";
    // DP-1 is monitor 0: 1 and 2, but 2 is HDMI-A-1's.
    assert_eq!(labels_of(count, &state, "DP-1"), ["1", "mail"]);
    assert_eq!(labels_of(count, &state, "HDMI-A-1"), ["2", "3", "4"]);
}

#[test]
fn window_rewrite_writes_each_workspaces_windows() {
    use crate::events::compositor::WindowName;
    let mut state = state();
    let named = |app: &str, title: &str| WindowName {
        title: title.into(),
        app_id: Some(app.into()),
    };
    state.workspaces[0].window_names = vec![named("firefox", "Docs"), named("foot", "~")];
    state.workspaces[1].window_names = vec![named("thunderbird", "Inbox")];
    let toml = "format = \"{name}: {windows}\"\n\
                format-window-separator = \"|\"\n\
                window-rewrite-default = \"·\"\n\
                window-rewrite = { \"class<firefox>\" = \"F\", \"class<foot>\" = \"T\" }\n";
    assert_eq!(labels_of(toml, &state, "DP-1"), ["1: F|T", "mail: ·"]);
    // Without windows (or where the compositor does not list them) the field is empty.
    assert_eq!(labels_of(toml, &state, "HDMI-A-1"), ["2: "]);
    let bad = "modules_left = [\"workspaces\"]\n[workspaces]\n\
               window-rewrite = { \"class<(>\" = \"x\" }\n";
    let error = config::parse(bad, "c.toml".as_ref()).expect_err("a bad pattern");
    assert!(
        error.to_string().contains("window-rewrite pattern"),
        "{error}"
    );
}
