//! The media module's text, classes, length cap, tooltip and clicks.

use std::path::Path;

use super::*;
use crate::events::media::MediaState;
use crate::modules::tests::{input, text_with as text};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"media\"]\n[media]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn player(bus_name: &str, playback: Playback, played_at: u64, artist: &str, title: &str) -> Player {
    Player {
        bus_name: format!("org.mpris.MediaPlayer2.{bus_name}"),
        owner: format!(":1.{played_at}"),
        identity: String::new(),
        playback,
        title: title.to_owned(),
        artist: artist.to_owned(),
        album: String::new(),
        length_us: Some(185_000_000),
        played_at,
    }
}

fn events(players: Vec<Player>) -> Events {
    Events::default().with(Some(MediaState { players }))
}

#[test]
fn the_player_that_played_last_with_its_status() {
    let media = module("");
    let both = events(vec![
        player("mpv", Playback::Paused, 3, "Artist", "Song"),
        player("firefox.instance_1_7", Playback::Playing, 2, "", "Video"),
    ]);
    // A playing player wins over one that played later but is paused.
    let (out, status) = text(media.as_ref(), &both);
    assert_eq!(out, "▶ Video");
    assert_eq!(status.expect("shown").class, Some("playing"));
    // Ignored by its short name: the other one is shown.
    let ignoring = module("ignored-players = [\"firefox\"]");
    let (out, status) = text(ignoring.as_ref(), &both);
    assert_eq!(out, "‖ Artist - Song");
    assert_eq!(status.expect("shown").class, Some("paused"));
    // No player, or no session bus: hidden.
    assert_eq!(text(media.as_ref(), &events(vec![])).1, None);
    assert_eq!(text(media.as_ref(), &Events::default()).1, None);
    // Nothing but the first ignored: hidden.
    let only = module("ignored-players = [\"mpv\", \"firefox\"]");
    assert_eq!(text(only.as_ref(), &both).1, None);
}

#[test]
fn formats_by_status_fields_and_the_length_cap() {
    let media = module(
        "format = \"{player}:{status} {artist}/{title}/{album} {length} {icon}\"\n\
         format-paused = \"P {title}\"\nformat-icons = { playing = \"pl\" }\nmax-length = 200",
    );
    let mut playing = player("mpv", Playback::Playing, 1, "A", "T");
    playing.album = "Al".to_owned();
    assert_eq!(
        text(media.as_ref(), &events(vec![playing.clone()])).0,
        "mpv:playing A/T/Al 3:05 pl"
    );
    playing.playback = Playback::Paused;
    assert_eq!(
        text(media.as_ref(), &events(vec![playing.clone()])).0,
        "P T"
    );
    playing.length_us = Some(3_723_000_000);
    let hours = module("format = \"{length}\"");
    assert_eq!(text(hours.as_ref(), &events(vec![playing])).0, "1:02:03");
    // No title: the player's name.
    let untitled = player("vlc", Playback::Stopped, 0, "", "");
    assert_eq!(
        text(module("").as_ref(), &events(vec![untitled])).0,
        "■ vlc"
    );
    // A long title is cut to max-length characters, the last an ellipsis.
    let long = player("mpv", Playback::Playing, 1, "", &"é".repeat(100));
    let capped = module("max-length = 10");
    let (out, _) = text(capped.as_ref(), &events(vec![long]));
    assert_eq!(out.chars().count(), 10, "{out}");
    assert_eq!(out, format!("▶ {}…", "é".repeat(7)));
}

#[test]
fn waybars_player_and_status_icons_and_dynamic_separator() {
    let media = module(
        "format = \"{player_icon} {status_icon} {dynamic}\"\ndynamic-separator = \" · \"\n\
         player-icons = { default = \"D\", mpv = \"M\" }\n\
         status-icons = { paused = \"P\" }\n",
    );
    let mpv = player("mpv", Playback::Paused, 1, "Artist", "Song");
    assert_eq!(
        text(media.as_ref(), &events(vec![mpv])).0,
        "M P Artist · Song"
    );
    // Another player: the default icon; a status without an icon: none.
    let vlc = player("vlc", Playback::Playing, 1, "", "Clip");
    assert_eq!(text(media.as_ref(), &events(vec![vlc])).0, "D  Clip");
    let bare = module("format = \"{player_icon}{status_icon}{title}\"");
    let vlc = player("vlc", Playback::Playing, 1, "", "Clip");
    assert_eq!(text(bare.as_ref(), &events(vec![vlc])).0, "Clip");
}

#[test]
fn the_tooltip_lists_the_players_escaped() {
    let media = module("ignored-players = [\"chromium\"]");
    let mut first = player("mpv", Playback::Playing, 2, "<b>Art</b>", "Song & co");
    first.identity = "mpv Media Player".to_owned();
    first.album = "Album".to_owned();
    let second = player("chromium", Playback::Paused, 1, "", "Clip");
    let state = events(vec![first, second]);
    let sample = Sample::default();
    let shown = Input {
        events: &state,
        ..input(&sample)
    };
    let mut tooltip = String::new();
    media.tooltip(&mut Plain(&mut tooltip), &shown);
    assert_eq!(
        tooltip,
        "Media  2 players\n▸ mpv Media Player · playing · <b>Art</b> - Song & co · Album · 3:05\n  \
         (ignored) chromium · paused · Clip · 3:05\n"
    );
    let mut markup = String::new();
    media.tooltip(&mut Markup(&mut markup), &shown);
    assert!(
        markup.contains("&lt;b&gt;Art&lt;/b&gt; - Song &amp; co"),
        "{markup}"
    );
}

#[test]
fn clicks_ask_the_player_shown_and_commands_replace_them() {
    let media = module("ignored-players = [\"firefox\"]");
    let ask = |action| {
        Some(Action::Command(SourceCommand::to::<MediaState>(
            MediaCommand {
                action,
                ignored: vec!["firefox".to_owned()].into(),
            },
        )))
    };
    assert_eq!(media.action(Button::Left), ask(PlayerAction::PlayPause));
    assert_eq!(media.action(Button::ScrollUp), ask(PlayerAction::Next));
    assert_eq!(
        media.action(Button::ScrollDown),
        ask(PlayerAction::Previous)
    );
    assert_eq!(media.action(Button::Right), ask(PlayerAction::Raise));
    assert_eq!(media.action(Button::Middle), None);
    let commanded = module("on-click = \"playerctl play-pause\"");
    assert_eq!(
        commanded.action(Button::Left),
        Some(Action::Run(Button::Left))
    );
    assert_eq!(
        commanded.command(Button::Left),
        Some("playerctl play-pause")
    );
    assert!(media
        .follows()
        .contains(&Update::Event(EventSource::of::<MediaState>())));
    assert!(crate::modules::is_module("mpris"));
    crate::modules::tests::refused(
        "media",
        &[
            "format = \"{song}\"",
            "ignored-players = \"mpv\"",
            "colour = 1",
        ],
    );
}
