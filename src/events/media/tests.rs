//! Which player is shown, short names, and cleaning what players send.

use super::*;

fn player(bus_name: &str, playback: Playback, played_at: u64) -> Player {
    Player {
        bus_name: bus_name.to_owned(),
        playback,
        played_at,
        ..Player::default()
    }
}

#[test]
fn the_current_player_is_the_last_to_start_playing() {
    let state = MediaState {
        players: vec![
            player("org.mpris.MediaPlayer2.a", Playback::Playing, 1),
            player("org.mpris.MediaPlayer2.b", Playback::Playing, 4),
            player("org.mpris.MediaPlayer2.c", Playback::Paused, 9),
            player("org.mpris.MediaPlayer2.d", Playback::Stopped, 0),
        ],
    };
    let name = |ignored: &[String]| state.current(ignored).map(|p| p.name().to_owned());
    assert_eq!(name(&[]), Some("b".to_owned()));
    assert_eq!(name(&["b".to_owned()]), Some("a".to_owned()));
    // None playing: the one that played last.
    assert_eq!(
        name(&["a".to_owned(), "b".to_owned()]),
        Some("c".to_owned())
    );
    let idle = MediaState {
        players: vec![player("org.mpris.MediaPlayer2.x", Playback::Stopped, 0)],
    };
    assert_eq!(idle.current(&[]).map(Player::name), Some("x"));
    assert!(MediaState::default().current(&[]).is_none());
}

#[test]
fn short_names_drop_the_prefix_and_the_instance() {
    let p = player(
        "org.mpris.MediaPlayer2.firefox.instance_1_42",
        Playback::Paused,
        0,
    );
    assert_eq!(p.name(), "firefox");
    assert_eq!(
        player("org.mpris.MediaPlayer2.mpv", Playback::Paused, 0).name(),
        "mpv"
    );
}

#[test]
fn metadata_is_cleaned_and_bounded() {
    assert_eq!(clean("a\u{1}b\nc\u{7f}"), "a b c ");
    let long = "ü".repeat(1000);
    let cleaned = clean(&long);
    assert!(cleaned.len() <= 512 && cleaned.chars().all(|c| c == 'ü'));
    assert_eq!(Playback::parse("Playing"), Some(Playback::Playing));
    assert_eq!(Playback::parse("playing"), None);
    assert_eq!(Playback::Paused.as_str(), "paused");
}
