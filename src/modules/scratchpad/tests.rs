//! The scratchpad's count, icons and tooltip over compositor states.

use std::path::Path;

use super::*;
use crate::events::compositor::{CompositorState, Stashed};
use crate::modules::tests::input;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"sway/scratchpad\"]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn stashed(count: usize) -> CompositorState {
    let windows = (0..count)
        .map(|n| Stashed {
            app: format!("app{n}"),
            title: format!("<i>title {n}</i>"),
        })
        .collect();
    CompositorState {
        scratchpad: Some(windows),
        ..CompositorState::default()
    }
}

fn text(module: &dyn Module, compositor: &CompositorState) -> Option<(String, Status)> {
    let sample = Sample::default();
    let input = Input {
        compositor,
        ..input(&sample)
    };
    let mut out = String::new();
    module.text(&input, &mut out).map(|status| (out, status))
}

#[test]
fn the_count_with_icons_hidden_when_empty_unless_asked() {
    let plain = module("");
    assert_eq!(plain.name(), "scratchpad");
    assert_eq!(
        text(&*plain, &stashed(2)).map(|t| t.0).as_deref(),
        Some("2")
    );
    assert!(text(&*plain, &stashed(0)).is_none());
    // A compositor without a scratchpad: hidden.
    assert!(text(&*plain, &CompositorState::default()).is_none());
    let icons = module(
        "[\"sway/scratchpad\"]\nformat-icons = [\"\", \"one\", \"more\"]\nshow-empty = true\n",
    );
    let (empty, status) = text(&*icons, &stashed(0)).expect("shown when empty");
    assert_eq!(empty, "0");
    assert_eq!(status.class, Some("empty"));
    assert_eq!(
        text(&*icons, &stashed(1)).map(|t| t.0).as_deref(),
        Some("one 1")
    );
    assert_eq!(
        text(&*icons, &stashed(7)).map(|t| t.0).as_deref(),
        Some("more 7")
    );
    let custom = module("[\"sway/scratchpad\"]\nformat = \"[{count}]\"\n");
    assert_eq!(
        text(&*custom, &stashed(3)).map(|t| t.0).as_deref(),
        Some("[3]")
    );
    let wrong = crate::config::parse(
        "modules_right = [\"scratchpad\"]\n[scratchpad]\nformat = \"{app}\"\n",
        Path::new("c.toml"),
    );
    assert!(wrong.is_err(), "{{app}} is the tooltip's field only");
}

#[test]
fn the_tooltip_lists_the_windows_as_text() {
    let sample = Sample::default();
    let state = stashed(2);
    let input = Input {
        compositor: &state,
        ..input(&sample)
    };
    let mut plain = String::new();
    module("").tooltip(&mut Plain(&mut plain), &input);
    assert_eq!(plain, "app0: <i>title 0</i>\napp1: <i>title 1</i>");
    let mut markup = String::new();
    module("").tooltip(&mut Markup(&mut markup), &input);
    assert!(markup.starts_with("app0: &lt;i&gt;title 0"), "{markup}");
    let mut none = String::new();
    module("[\"sway/scratchpad\"]\ntooltip = false\n").tooltip(&mut Plain(&mut none), &input);
    assert!(none.is_empty());

    // A title with an ampersand, a control byte, a line break and a bidirectional
    // override: escaped, and none of them rearranges or breaks the tooltip's lines.
    let hostile = CompositorState {
        scratchpad: Some(vec![Stashed {
            app: "a&b".to_owned(),
            title: "x\u{7}y\nz\u{202e}evil & co".to_owned(),
        }]),
        ..CompositorState::default()
    };
    let hostile_input = Input {
        compositor: &hostile,
        ..crate::modules::tests::input(&sample)
    };
    let mut markup = String::new();
    module("").tooltip(&mut Markup(&mut markup), &hostile_input);
    assert!(
        !markup.chars().any(|c| c.is_control() || c == '\u{202e}'),
        "{markup:?}"
    );
    assert!(markup.starts_with("a&amp;b: x"), "{markup}");
    assert!(markup.ends_with("evil &amp; co"), "{markup}");
}
