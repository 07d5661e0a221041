//! The taskbar over windows on two outputs: which get a button, their text, icon,
//! classes and tooltip, what a press asks, and Waybar's keys.

use std::path::Path;

use super::*;
use crate::events::Events;
use crate::modules::tests::input;
use crate::sample::Sample;

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_left = [\"taskbar\"]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.left[0].clone()
}

fn task(id: u32, app_id: &str, title: &str, output: &str) -> Task {
    Task {
        id,
        title: title.into(),
        app_id: app_id.into(),
        outputs: vec![output.into()],
        ..Task::default()
    }
}

fn windows() -> Events {
    let mut foot = task(1, "foot", "~: htop", "DP-1");
    foot.active = true;
    foot.app_name = Some("Foot".into());
    foot.icon = Some("foot".into());
    let mut mpv = task(2, "mpv", "film.mkv\u{202e}vkm", "DP-1");
    mpv.minimized = true;
    mpv.maximized = true;
    let browser = task(3, "org.mozilla.firefox", "News", "HDMI-A-1");
    let odd = task(4, "/etc/shadow", "odd <b>", "DP-1");
    let tasks = Tasks {
        list: vec![foot, mpv, browser, odd],
    };
    Events::default().with(Some(tasks))
}

fn buttons(module: &dyn Module, events: &Events, output: &str) -> Vec<RowButton> {
    let sample = Sample::default();
    let input = Input {
        events,
        output,
        ..input(&sample)
    };
    let Widget::Buttons(row) = module.widget() else {
        panic!("a row of buttons");
    };
    let mut out = Vec::new();
    row.buttons(&input, &mut out);
    out
}

fn labels(buttons: &[RowButton]) -> Vec<&str> {
    buttons.iter().map(|b| b.label.as_str()).collect()
}

#[test]
fn each_bar_shows_the_windows_on_its_output_with_icons_classes_and_tooltips() {
    let taskbar = module("");
    let events = windows();
    let shown = buttons(&*taskbar, &events, "DP-1");
    assert_eq!(shown.len(), 3);
    // The default format is the icon alone.
    assert_eq!(labels(&shown), ["", "", ""]);
    let icons: Vec<Option<&str>> = shown.iter().map(|b| b.icon.as_deref()).collect();
    // The desktop entry's icon; the app id as an icon name; never a path from an app id.
    assert_eq!(
        icons,
        [Some("foot"), Some("mpv"), Some("application-x-executable")]
    );
    assert_eq!(shown[0].classes, ["active"]);
    assert_eq!(shown[1].classes, ["minimized", "maximized"]);
    // The tooltip is the title, with the direction override dropped.
    assert_eq!(shown[1].tooltip.as_deref(), Some("film.mkvvkm"));
    assert_eq!(shown[2].tooltip.as_deref(), Some("odd <b>"));
    assert_eq!(shown[0].target, Target::Task(1));
    let other = buttons(&*taskbar, &events, "HDMI-A-1");
    assert_eq!(other.len(), 1);
    assert_eq!(other[0].target, Target::Task(3));
    // Every output's windows with `all-outputs`, and on a bar that names no output.
    let all = module("[taskbar]\nall-outputs = true\n");
    assert_eq!(buttons(&*all, &events, "HDMI-A-1").len(), 4);
    assert_eq!(buttons(&*taskbar, &events, "").len(), 4);
    // No source state (no Wayland, no protocol): no buttons.
    assert!(buttons(&*taskbar, &Events::default(), "DP-1").is_empty());
}

#[test]
fn formats_put_the_text_around_the_icon() {
    let events = windows();
    let titled = module("[taskbar]\nformat = \"{icon} {name}: {title:.8}\"\ntooltip-format = \"{app_id} {state} {short_state}\"\n");
    let shown = buttons(&*titled, &events, "DP-1");
    assert_eq!(shown[0].label, "Foot: ~: htop");
    assert_eq!(shown[1].label, "mpv: film.mkv");
    assert!(!shown[0].icon_last);
    assert_eq!(
        shown[1].tooltip.as_deref(),
        Some("mpv minimized maximized mM")
    );
    let last = module("[taskbar]\nformat = \"{title} {icon}\"\ntooltip = false\n");
    let shown = buttons(&*last, &events, "DP-1");
    assert!(shown[0].icon_last);
    assert_eq!(shown[0].label, "~: htop");
    assert_eq!(shown[0].tooltip, None);
    let text_only = module("[taskbar]\nformat = \"{app_id}\"\n");
    let shown = buttons(&*text_only, &events, "DP-1");
    assert_eq!(shown[0].icon, None);
    assert_eq!(labels(&shown), ["foot", "mpv", "/etc/shadow"]);
    // Waybar's `rewrite` rules, on the whole text and the tooltip; a bad one is named.
    let rewritten = module(
        "[taskbar]\nformat = \"{title}\"\ntooltip-format = \"{title}\"\n\
         rewrite = { \"~: (.*)\" = \"term $1\", \"film(.*)\" = \"movie\" }\n",
    );
    let shown = buttons(&*rewritten, &events, "DP-1");
    assert_eq!(labels(&shown), ["term htop", "movie", "odd <b>"]);
    assert_eq!(shown[0].tooltip.as_deref(), Some("term htop"));
    let bad = "modules_left = [\"taskbar\"]\n[taskbar]\nrewrite = { \"(\" = \"x\" }\n";
    let error = crate::config::parse(bad, Path::new("c.toml")).expect_err("a bad pattern");
    assert!(error.to_string().contains("rewrite pattern"), "{error}");
    // A field the taskbar does not fill is a config error.
    let config = crate::config::parse(
        "modules_left = [\"taskbar\"]\n[taskbar]\nformat = \"{class}\"\n",
        Path::new("c.toml"),
    );
    assert!(config.is_err());
}

#[test]
fn ignore_list_order_and_active_only() {
    let events = windows();
    let ids = |toml: &str| -> Vec<Target> {
        buttons(&*module(toml), &events, "DP-1")
            .into_iter()
            .map(|b| b.target)
            .collect()
    };
    assert_eq!(
        ids("[taskbar]\nignore-list = [\"mpv\", \"odd <b>\"]\n"),
        [Target::Task(1)]
    );
    assert_eq!(
        ids("[taskbar]\nsort-by-app-id = true\n"),
        [Target::Task(4), Target::Task(1), Target::Task(2)]
    );
    let mut reordered = windows();
    if let Some(tasks) = reordered.get::<Tasks>().cloned() {
        let mut tasks = tasks;
        tasks.list.rotate_left(1);
        reordered.set(Some(tasks));
    }
    let first: Vec<Target> = buttons(
        &*module("[taskbar]\nactive-first = true\n"),
        &reordered,
        "DP-1",
    )
    .into_iter()
    .map(|b| b.target)
    .collect();
    assert_eq!(first[0], Target::Task(1));
    assert_eq!(ids("[taskbar]\nactive-only = true\n"), [Target::Task(1)]);
}

#[test]
fn presses_activate_close_and_minimize_unless_configured() {
    let press = |toml: &str, which: Button| {
        let taskbar = module(toml);
        let Widget::Buttons(row) = taskbar.widget() else {
            panic!("a row of buttons");
        };
        row.press(&Target::Task(7), which, taskbar.command(which))
    };
    let asks = |action: TaskAction| {
        Some(Action::Command(SourceCommand::to::<Tasks>(TaskCommand {
            task: 7,
            action,
        })))
    };
    assert_eq!(press("", Button::Left), asks(TaskAction::Activate));
    assert_eq!(press("", Button::Middle), asks(TaskAction::Close));
    assert_eq!(press("", Button::Right), asks(TaskAction::Minimize));
    assert_eq!(press("", Button::ScrollUp), None);
    let waybar = "[taskbar]\non-click = \"minimize-raise\"\non-click-middle = \"fullscreen\"\n\
                  on-click-right = \"notify-send hi\"\n";
    assert_eq!(press(waybar, Button::Left), asks(TaskAction::MinimizeRaise));
    assert_eq!(press(waybar, Button::Middle), asks(TaskAction::Fullscreen));
    // Anything else is the user's command, run as the other modules' are.
    assert_eq!(
        press(waybar, Button::Right),
        Some(Action::Run(Button::Right))
    );
    assert_eq!(
        module(waybar).command(Button::Right),
        Some("notify-send hi")
    );
}

#[test]
fn the_mapping_goes_to_the_source_and_icons_take_size_and_themes() {
    let taskbar = module(
        "[taskbar]\napp_ids-mapping = { firefoxdeveloperedition = \"firefox\" }\n\
         icon-size = 24\nicon-theme = \"Papirus\"\n",
    );
    let settings = taskbar.source_settings().expect("settings for the source");
    let mapping = &settings.get::<Tasks>().expect("the tasks source's").app_ids;
    assert_eq!(
        mapping.get("firefoxdeveloperedition").map(String::as_str),
        Some("firefox")
    );
    let Widget::Buttons(row) = taskbar.widget() else {
        panic!("a row of buttons");
    };
    assert_eq!(
        row.icons(),
        IconStyle {
            size: 24,
            themes: vec!["Papirus".into()],
            ..IconStyle::default()
        }
    );
    let listed = module("[taskbar]\nicon-theme = [\"A\", \"B\"]\n");
    let Widget::Buttons(row) = listed.widget() else {
        panic!("a row of buttons");
    };
    assert_eq!(row.icons().themes, ["A", "B"]);
}

#[test]
fn text_outputs_show_the_titles_with_the_active_one_in_brackets() {
    let taskbar = module("");
    let events = windows();
    let sample = Sample::default();
    let on_dp1 = Input {
        events: &events,
        output: "DP-1",
        ..input(&sample)
    };
    let mut out = String::new();
    assert!(taskbar.text(&on_dp1, &mut out).is_some());
    assert_eq!(out, "[~: htop] film.mkvvkm odd <b>");
    let none = Events::default();
    let without = Input {
        events: &none,
        ..input(&sample)
    };
    out.clear();
    assert!(taskbar.text(&without, &mut out).is_none());
}

#[test]
fn waybars_settings_carry_over() {
    let waybar = KIND.waybar.as_ref().expect("Waybar's wlr/taskbar");
    assert!(waybar.names.contains(&"wlr/taskbar"));
    let json = |text: &str| serde_json::Value::String(text.to_owned());
    let set = |key: &str, value: &str| {
        Carried::Set(vec![(
            key.to_owned(),
            toml::Value::String(value.to_owned()),
        )])
    };
    assert_eq!(
        waybar.carry("format", &json("{icon} {title:.15}")),
        set("format", "{icon} {title:.15}")
    );
    assert_eq!(
        waybar.carry("tooltip-format", &json("{name} {state}")),
        set("tooltip-format", "{name} {state}")
    );
    assert_eq!(
        waybar.carry("format", &json("{class}")),
        Carried::UnknownField
    );
    assert_eq!(
        waybar.carry("icon-size", &serde_json::json!(20)),
        Carried::Set(vec![("icon-size".to_owned(), toml::Value::Integer(20))])
    );
    let rules = serde_json::json!({"(.*) - Mozilla Firefox": "web: $1"});
    assert!(matches!(waybar.carry("rewrite", &rules), Carried::Set(_)));
    assert_eq!(waybar.carry("on-update", &json("x")), Carried::No);
}
