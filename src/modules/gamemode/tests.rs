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
    let gamemode = module("use-icon = false");
    let (text, status) = shown(gamemode.as_ref(), &games(2));
    assert_eq!(text, "GAME");
    assert_eq!(status.expect("shown").class, Some("running"));
    assert_eq!(shown(gamemode.as_ref(), &games(0)).1, None, "no game");
    assert_eq!(
        shown(gamemode.as_ref(), &Events::default()).1,
        None,
        "no daemon"
    );

    let always = module(
        "hide-not-running = false\nformat = \"{glyph}:{count}\"\nglyph = \"G\"\nuse-icon = false",
    );
    // As Waybar fills it: no count at 0.
    let (text, status) = shown(always.as_ref(), &games(0));
    assert_eq!(text, "G:");
    assert_eq!(status.expect("shown").class, None);
    assert_eq!(
        shown(always.as_ref(), &Events::default()).1,
        None,
        "no daemon"
    );
}

#[test]
fn waybars_icon_by_default_with_the_glyph_left_out() {
    let gamemode = module("format-alt = \"{glyph}|{count}\"");
    let Widget::PictureAndLabel(picture) = gamemode.widget() else {
        panic!("no icon by default");
    };
    assert_eq!(
        picture,
        Picture {
            source: "input-gaming-symbolic",
            width: 20,
            height: 20,
            spacing: 4
        }
    );
    assert_eq!(shown(gamemode.as_ref(), &games(2)).0, "");
    gamemode.action(Button::Left);
    assert_eq!(shown(gamemode.as_ref(), &games(2)).0, "|2");
    let own = module("icon-name = \"applications-games\"\nicon-size = 0\nicon-spacing = 0");
    let Widget::PictureAndLabel(picture) = own.widget() else {
        panic!("no icon");
    };
    assert_eq!(
        (picture.source, picture.width, picture.spacing),
        ("applications-games", 16, 0),
        "size 0 is GTK's own"
    );
    assert!(matches!(module("use-icon = false").widget(), Widget::Label));
}

#[test]
fn a_left_click_switches_to_the_alternative_format_and_back() {
    let gamemode = module("use-icon = false");
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
        &[
            "format = \"{games}\"",
            "glyph = 1",
            "use-icon = 1",
            "icon-size = 2000",
            "icon-spacing = -1",
        ],
    );
    let waybar = serde_json::json!({
        "modules-right": ["gamemode"],
        "gamemode": {"format": "{glyph}", "format-alt": "{glyph} {count}", "glyph": "G",
                     "hide-not-running": false, "use-icon": false, "icon-name": "game",
                     "icon-size": 24, "icon-spacing": 6, "on-click-right": "x"}
    });
    let import = crate::config::import::convert(&waybar);
    for expected in [
        "modules_right = [\"gamemode\"]",
        "glyph = \"G\"",
        "hide-not-running = false",
        "on-click-right = \"x\"",
        "use-icon = false",
        "icon-name = \"game\"",
        "icon-size = 24",
        "icon-spacing = 6",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    assert!(import.notes.is_empty(), "{:?}", import.notes);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect("the import reads");
}
