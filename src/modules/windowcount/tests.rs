//! The window count over compositor states with two outputs, and its Waybar keys.

use std::path::Path;

use super::*;
use crate::events::compositor::CompositorState;
use crate::modules::tests::input;
use crate::sample::Sample;

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"windowcount\"]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn desktop() -> CompositorState {
    let workspace =
        |name: &str, output: &str, windows: u32, visible: bool, focused: bool| Workspace {
            id: 1,
            name: name.into(),
            output: output.into(),
            focused,
            visible,
            windows,
            ..Workspace::default()
        };
    CompositorState {
        workspaces: vec![
            workspace("1", "DP-1", 3, true, true),
            workspace("2", "DP-1", 5, false, false),
            workspace("3", "HDMI-A-1", 0, true, false),
        ],
        ..CompositorState::default()
    }
}

fn text(module: &dyn Module, compositor: &CompositorState, output: &str) -> Option<String> {
    let sample = Sample::default();
    let input = Input {
        compositor,
        output,
        ..input(&sample)
    };
    let mut out = String::new();
    module.text(&input, &mut out).map(|_| out)
}

#[test]
fn each_bar_counts_the_workspace_shown_on_its_output() {
    let count = module("");
    let desktop = desktop();
    assert_eq!(count.name(), "windowcount");
    assert_eq!(text(&*count, &desktop, "DP-1").as_deref(), Some("3"));
    assert_eq!(text(&*count, &desktop, "HDMI-A-1").as_deref(), Some("0"));
    // `--once` has no output: the focused workspace.
    assert_eq!(text(&*count, &desktop, "").as_deref(), Some("3"));
    let focused = module("[windowcount]\nseparate-outputs = false\n");
    assert_eq!(text(&*focused, &desktop, "HDMI-A-1").as_deref(), Some("3"));
}

#[test]
fn formats_for_none_and_hidden_when_not_known() {
    let count = module("[windowcount]\nformat = \"win {count}\"\nformat-empty = \"\"\n");
    let mut desktop = desktop();
    assert_eq!(text(&*count, &desktop, "DP-1").as_deref(), Some("win 3"));
    assert_eq!(
        text(&*count, &desktop, "HDMI-A-1"),
        None,
        "an empty format hides"
    );
    desktop.workspaces[0].windows = WINDOWS_UNKNOWN;
    assert_eq!(text(&*count, &desktop, "DP-1"), None);
    assert_eq!(text(&*count, &CompositorState::default(), "DP-1"), None);
    let bad = "modules_right = [\"windowcount\"]\n[windowcount]\nformat = \"{windows}\"\n";
    assert!(crate::config::parse(bad, Path::new("c.toml")).is_err());
}

#[test]
fn waybars_keys_carry_over() {
    let waybar = serde_json::json!({
        "modules-left": ["hyprland/windowcount"],
        "hyprland/windowcount": {"format": "[{}]", "format-empty": "none",
                                 "format-fullscreen": "[{}] F", "separate-outputs": false}
    });
    let import = crate::config::import::convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let count = config.modules.left[0].clone();
    let desktop = desktop();
    assert_eq!(text(&*count, &desktop, "HDMI-A-1").as_deref(), Some("[3]"));
    assert!(
        import.notes.iter().any(|n| n.contains("format-fullscreen")),
        "{:?}",
        import.notes
    );
}
