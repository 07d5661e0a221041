//! The language and mode modules over compositor states as Sway and Hyprland report
//! them, and their clicks.

use std::path::Path;

use super::*;
use crate::events::compositor::CompositorState;
use crate::modules::tests::input;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(name: &str, toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"{name}\"]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn state(active: &str, layouts: &[&str], mode: Option<&str>) -> CompositorState {
    CompositorState {
        keyboard: Some(Keyboard {
            active: active.to_owned(),
            layouts: layouts.iter().map(|l| (*l).to_owned()).collect(),
        }),
        mode: mode.map(str::to_owned),
        ..CompositorState::default()
    }
}

fn text(module: &dyn Module, compositor: &CompositorState) -> Option<String> {
    let sample = Sample::default();
    let input = Input {
        compositor,
        ..input(&sample)
    };
    let mut out = String::new();
    module.text(&input, &mut out).map(|_| out)
}

#[test]
fn the_active_layout_by_its_names() {
    let language = module("language", "");
    let german = state("German", &["English (US)", "German"], None);
    // XKB's registry names "German" `de` where xkb-data is installed (as on CI).
    let short = text(language.as_ref(), &german).expect("shown");
    match crate::events::compositor::keyboard::layout_name("German") {
        Some(names) => assert_eq!(short, names.short),
        None => assert_eq!(short, "german"),
    }
    let long = module("language", "[language]\nformat = \"{long}!\"\n");
    assert_eq!(text(long.as_ref(), &german).as_deref(), Some("German!"));
    // Until the compositor names a layout: hidden.
    assert_eq!(text(language.as_ref(), &CompositorState::default()), None);

    let sample = Sample::default();
    let input = Input {
        compositor: &german,
        ..input(&sample)
    };
    let mut tooltip = String::new();
    language.tooltip(&mut Plain(&mut tooltip), &input);
    assert_eq!(tooltip, "Keyboard  German\n  English (US)\n▸ German\n");
}

#[test]
fn odd_layout_names_are_text() {
    let language = module("language", "[language]\nformat = \"{long}\"\n");
    let odd = state("<b>x\u{7}", &["<b>x\u{7}"], None);
    assert_eq!(text(language.as_ref(), &odd).as_deref(), Some("<b>x?"));
    let sample = Sample::default();
    let input = Input {
        compositor: &odd,
        ..input(&sample)
    };
    let mut tooltip = String::new();
    language.tooltip(&mut Markup(&mut tooltip), &input);
    assert!(tooltip.contains("&lt;b&gt;x?"), "{tooltip}");
}

#[test]
fn a_click_switches_the_layout_or_runs_on_click() {
    let language = module("language", "");
    assert_eq!(language.action(Button::Left), Some(Action::NextLayout));
    assert_eq!(language.action(Button::Right), None);
    assert!(language.follows().contains(&Update::Compositor));
    let own = module("language", "[language]\non-click = \"notify-send hi\"\n");
    assert_eq!(own.action(Button::Left), Some(Action::Run(Button::Left)));
    assert_eq!(own.command(Button::Left), Some("notify-send hi"));
    for bad in ["format = \"{flags}\"", "colour = 1"] {
        let text = format!("modules_right = [\"language\"]\n[language]\n{bad}\n");
        assert!(
            crate::config::parse(&text, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn the_mode_shows_only_outside_the_default() {
    let mode = module("mode", "[mode]\nformat = \"MODE {mode}\"\n");
    assert_eq!(text(mode.as_ref(), &CompositorState::default()), None);
    let resize = state("us", &[], Some("resize"));
    assert_eq!(text(mode.as_ref(), &resize).as_deref(), Some("MODE resize"));
    // Waybar's names for both (Waybar styles them as #mode and #language too).
    for name in ["sway/mode", "hyprland/submap"] {
        let aliased = module(name, "");
        assert_eq!(aliased.name(), "mode");
        assert_eq!(text(aliased.as_ref(), &resize).as_deref(), Some("resize"));
    }
    for name in ["sway/language", "hyprland/language"] {
        assert!(crate::modules::is_module(name), "{name}");
    }
}

#[test]
fn a_layout_by_the_users_own_name_and_its_flag() {
    // XKB's registry (xkb-data, which sway's libxkbcommon brings) names the layouts.
    assert!(
        crate::events::compositor::keyboard::layout_name("English (Dvorak)").is_some(),
        "xkb-data installed"
    );
    let language = module(
        "language",
        "[language]\nformat = \"{} {flag}\"\nformat-en = \"ENG\"\n\
         format-en-dvorak = \"DVK\"\nformat-de = \"<DE>\"\n",
    );
    let shown = |active: &str| text(language.as_ref(), &state(active, &[active], None));
    assert_eq!(shown("English (US)").as_deref(), Some("ENG 🇺🇸"));
    assert_eq!(
        shown("English (Dvorak)").as_deref(),
        Some("DVK 🇺🇸"),
        "the variant's own name first"
    );
    assert_eq!(shown("German").as_deref(), Some("<DE> 🇩🇪"));
    // No name of the user's: `{}` is the short name; a layout XKB does not know has no flag.
    assert_eq!(shown("French").as_deref(), Some("fr 🇫🇷"));
    assert_eq!(shown("Klingon").as_deref(), Some("klingon "));
    for bad in ["format-en = 1", "format- = \"x\"", "formats = \"x\""] {
        let text = format!("modules_right = [\"language\"]\n[language]\n{bad}\n");
        assert!(
            crate::config::parse(&text, Path::new("c.toml")).is_err(),
            "{bad}"
        );
    }
}
