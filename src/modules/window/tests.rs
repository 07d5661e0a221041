//! The window module: titles capped and safe, separate outputs, rewrite rules.

use crate::config;
use crate::events::compositor::CompositorState;
use crate::modules::Input;
use crate::sample::Sample;
use crate::text::Markup;

fn text(config_text: &str, title: Option<&str>) -> Option<String> {
    let config = config::parse(config_text, "c.toml".as_ref()).expect("valid");
    text_of(&config.modules.left[0], title)
}

fn text_of(
    module: &std::rc::Rc<dyn crate::modules::Module>,
    title: Option<&str>,
) -> Option<String> {
    let state = CompositorState {
        window_title: title.map(str::to_owned),
        window_app_id: Some("org.gnome.Weather".to_owned()),
        ..CompositorState::default()
    };
    let sample = Sample::default();
    let input = Input {
        compositor: &state,
        ..crate::modules::tests::input(&sample)
    };
    let mut out = String::new();
    module.text(&input, &mut out).map(|_| out)
}

#[test]
fn separate_outputs_show_each_outputs_own_window() {
    use crate::events::compositor::{WindowName, Workspace};
    let last = |title: &str| {
        Some(WindowName {
            title: title.into(),
            app_id: Some(format!("{title}.app")),
        })
    };
    let workspace = |name: &str, output: &str, visible: bool, window: &str| Workspace {
        name: name.into(),
        output: output.into(),
        visible,
        focused: name == "1",
        special: name.starts_with("special"),
        last_window: (!window.is_empty()).then(|| last(window)).flatten(),
        ..Workspace::default()
    };
    let mut state = CompositorState {
        workspaces: vec![
            workspace("1", "DP-1", true, "A"),
            workspace("2", "HDMI-A-1", true, "B"),
            workspace("3", "HDMI-A-1", false, "C"),
        ],
        window_title: Some("A".into()),
        window_app_id: Some("A.app".into()),
        ..CompositorState::default()
    };
    let config = |separate: bool| {
        let text = format!(
            "modules_left = [\"window\"]\n[window]\nformat = \"{{title}} {{app_id}}\"\n\
             separate-outputs = {separate}\n"
        );
        config::parse(&text, "c.toml".as_ref()).expect("valid")
    };
    let (separate, shared) = (config(true), config(false));
    let shown = |config: &config::Config, state: &CompositorState, output: &str| {
        let sample = Sample::default();
        let input = Input {
            compositor: state,
            output,
            ..crate::modules::tests::input(&sample)
        };
        let mut out = String::new();
        config.modules.left[0].text(&input, &mut out).map(|_| out)
    };
    assert_eq!(shown(&separate, &state, "DP-1").as_deref(), Some("A A.app"));
    assert_eq!(
        shown(&separate, &state, "HDMI-A-1").as_deref(),
        Some("B B.app")
    );
    assert_eq!(
        shown(&shared, &state, "HDMI-A-1").as_deref(),
        Some("A A.app")
    );
    assert_eq!(
        shown(&separate, &state, "").as_deref(),
        Some("A A.app"),
        "text outputs"
    );
    // A special workspace open over the output is what it shows.
    state
        .workspaces
        .push(workspace("special:s", "HDMI-A-1", true, "S"));
    assert_eq!(
        shown(&separate, &state, "HDMI-A-1").as_deref(),
        Some("S S.app")
    );
    // An output showing an empty workspace shows no window.
    state.workspaces.truncate(1);
    state.workspaces.push(workspace("4", "HDMI-A-1", true, ""));
    assert_eq!(shown(&separate, &state, "HDMI-A-1"), None);
}

#[test]
fn rewrite_rules_turn_the_whole_label_before_the_cut() {
    let rules = "modules_left = [\"window\"]\n[window]\nmax_length = 8\n\
                 rewrite = { \"(.*) - Mozilla Firefox\" = \"FF $1\", \"x\" = \"y\" }\n";
    let config = config::parse(rules, "c.toml".as_ref()).expect("valid");
    let module = &config.modules.left[0];
    for (title, shown) in [
        ("Docs - Mozilla Firefox", "FF Docs"),
        ("A long page - mozilla firefox", "FF A lo…"),
        ("A long page - mozilla firefox", "FF A lo…"),
        ("X", "y"),
        ("Flower", "Flower"),
    ] {
        assert_eq!(
            text_of(module, Some(title)).as_deref(),
            Some(shown),
            "{title}"
        );
    }
    let bad = config::parse(
        "[window]\nrewrite = { \"(x\" = \"y\" }\n",
        "c.toml".as_ref(),
    );
    let Err(error) = bad else {
        panic!("a bad pattern is an error")
    };
    let error = error.to_string();
    assert!(error.contains("rewrite pattern \"(x\""), "{error}");
}

#[test]
fn titles_are_capped_and_any_bytes_are_safe() {
    let plain = "modules_left = [\"window\"]\n";
    assert_eq!(text(plain, None), None, "hidden without a focused window");
    assert_eq!(text(plain, Some("Flower")), Some("Flower".to_owned()));
    let long = "x".repeat(100);
    assert_eq!(
        text(plain, Some(&long)),
        Some(format!("{}…", "x".repeat(59))),
        "60 characters, the last one …"
    );
    assert_eq!(
        text(plain, Some("tab\there\nnew <b>&")),
        Some("tab here new <b>&".to_owned()),
        "control characters become spaces; markup is escaped where it is shown"
    );
    assert_eq!(
        text(
            plain,
            Some("\u{202E}EVIL\u{202C} pay\u{200B}pal \u{2067}x\u{2069}")
        ),
        Some("EVIL paypal x".to_owned()),
        "a title cannot reorder itself or hide characters"
    );
    let both =
        "modules_left = [\"window\"]\n[window]\nformat = \"{app_id}: {title}\"\nmax_length = 12\n";
    assert_eq!(text(both, Some("Flower")), Some("org.gnome.W…".to_owned()));
    let unknown = "modules_left = [\"window\"]\n[window]\nformat = \"[{nope}] {title}\"\n";
    assert_eq!(text(unknown, Some("a")), Some("[{nope}] a".to_owned()));
    let mut markup = String::new();
    let state = CompositorState {
        window_title: Some("<i>&".to_owned()),
        ..CompositorState::default()
    };
    let sample = Sample::default();
    let input = Input {
        compositor: &state,
        ..crate::modules::tests::input(&sample)
    };
    crate::modules::tests::default_module("window").tooltip(&mut Markup(&mut markup), &input);
    assert_eq!(markup, "&lt;i&gt;&amp;");
}
