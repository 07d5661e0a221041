//! The gamemode module's text, class, alternative format, tooltip, and Waybar's config.

use std::path::Path;

use super::*;
use crate::modules::tests::{input, text_with as shown};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("gamemode", toml)
}

fn games(games: u32) -> Events {
    Events::default().with(Some(GameMode { games }))
}

#[test]
fn shown_while_games_run_and_hidden_otherwise() {
    let gamemode = module("");
    let (text, status) = shown(gamemode.as_ref(), &games(2));
    assert_eq!(text, "GAME");
    assert_eq!(status.expect("shown").class, Some("running"));
    assert_eq!(shown(gamemode.as_ref(), &games(0)).1, None, "no game");
    assert_eq!(
        shown(gamemode.as_ref(), &Events::default()).1,
        None,
        "no daemon"
    );

    let always = module("hide-not-running = false\nformat = \"{glyph}:{count}\"\nglyph = \"G\"");
    let (text, status) = shown(always.as_ref(), &games(0));
    assert_eq!(text, "G:0");
    assert_eq!(status.expect("shown").class, None);
    assert_eq!(
        shown(always.as_ref(), &Events::default()).1,
        None,
        "no daemon"
    );
}

#[test]
fn a_left_click_switches_to_the_alternative_format_and_back() {
    let gamemode = module("");
    assert_eq!(gamemode.action(Button::Left), Some(Action::Redraw));
    assert_eq!(shown(gamemode.as_ref(), &games(3)).0, "GAME 3");
    assert_eq!(gamemode.action(Button::Left), Some(Action::Redraw));
    assert_eq!(shown(gamemode.as_ref(), &games(3)).0, "GAME");
    assert_eq!(gamemode.action(Button::Right), None);
    assert!(gamemode
        .follows()
        .contains(&Update::Event(EventSource::of::<GameMode>())));
}

#[test]
fn the_tooltip_counts_the_games_and_escapes_the_users_text() {
    let sample = Sample::default();
    let events = games(1);
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut plain = String::new();
    module("").tooltip(&mut Plain(&mut plain), &input);
    assert_eq!(plain, "Games running: 1");
    let mut markup = String::new();
    let own = module("tooltip-format = \"<b>{count}</b> & more\"");
    own.tooltip(&mut Markup(&mut markup), &input);
    assert_eq!(markup, "&lt;b&gt;1&lt;/b&gt; &amp; more");
    let mut none = String::new();
    module("tooltip = false").tooltip(&mut Plain(&mut none), &input);
    assert_eq!(none, "");
}

#[test]
fn bad_settings_are_refused_and_waybars_carry_over() {
    crate::modules::tests::refused(
        "gamemode",
        &["format = \"{games}\"", "glyph = 1", "use-icon = true"],
    );
    let waybar = serde_json::json!({
        "modules-right": ["gamemode"],
        "gamemode": {"format": "{glyph}", "format-alt": "{glyph} {count}", "glyph": "G",
                     "hide-not-running": false, "use-icon": true, "on-click-right": "x"}
    });
    let import = crate::config::import::convert(&waybar);
    for expected in [
        "modules_right = [\"gamemode\"]",
        "glyph = \"G\"",
        "hide-not-running = false",
        "on-click-right = \"x\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    assert!(
        import.notes.iter().any(|n| n.contains("`use-icon`")),
        "{:?}",
        import.notes
    );
    crate::config::parse(&import.toml, Path::new("c.toml")).expect("the import reads");
}
