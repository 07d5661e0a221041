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
    assert_eq!(
        clean("\u{202E}EVIL\u{FEFF}Z"),
        "EVILZ",
        "no direction override"
    );
    let long = "ü".repeat(1000);
    let cleaned = clean(&long);
    assert!(cleaned.len() <= 512 && cleaned.chars().all(|c| c == 'ü'));
    assert_eq!(Playback::parse("Playing"), Some(Playback::Playing));
    assert_eq!(Playback::parse("playing"), None);
    assert_eq!(Playback::Paused.as_str(), "paused");
}

#[test]
fn silent_names_cannot_keep_a_real_player_out() {
    let mut roster = Roster::default();
    let mut players = Vec::new();
    let name = |i: usize| format!("org.mpris.MediaPlayer2.silent{i}");
    // 40 names that never answer: 32 followed, 8 wait.
    let followed = (0..40)
        .filter(|&i| roster.appeared(&mut players, &name(i), &format!(":1.{i}")))
        .count();
    assert_eq!((followed, players.len()), (MAX_FOLLOWED, MAX_FOLLOWED));
    // The real one comes while they are all there: it waits.
    let real = "org.mpris.MediaPlayer2.mpv";
    assert!(!roster.appeared(&mut players, real, ":1.99"));
    // The followed ones do not answer: each gives its place to the next waiting one.
    let mut promoted = Vec::new();
    for i in 0..32 {
        promoted.extend(roster.went_silent(&mut players, &format!(":1.{i}")));
    }
    assert_eq!(
        promoted.len(),
        9,
        "the other 8 silent names and the real one"
    );
    assert_eq!(promoted.last().map(String::as_str), Some(":1.99"));
    assert!(players.iter().any(|p| p.bus_name == real));
    // All 40 go: the real one stays, alone.
    for i in 0..40 {
        assert_eq!(roster.left(&mut players, &name(i)), None);
    }
    assert_eq!(players.len(), 1);
    assert_eq!(players[0].owner, ":1.99");
}

#[test]
fn a_real_player_that_came_while_all_places_were_taken_is_followed_once_one_frees() {
    let mut roster = Roster::default();
    let mut players = Vec::new();
    for i in 0..MAX_FOLLOWED {
        let name = format!("org.mpris.MediaPlayer2.p{i}");
        assert!(roster.appeared(&mut players, &name, &format!(":1.{i}")));
    }
    assert!(!roster.appeared(&mut players, "org.mpris.MediaPlayer2.real", ":2.1"));
    // It leaves before it got a place: nobody takes a freed place for it.
    assert_eq!(
        roster.left(&mut players, "org.mpris.MediaPlayer2.real"),
        None
    );
    assert!(!roster.appeared(&mut players, "org.mpris.MediaPlayer2.real", ":2.2"));
    assert_eq!(
        roster.left(&mut players, "org.mpris.MediaPlayer2.p3"),
        Some(":2.2".to_owned())
    );
    // A silent player that speaks again is followed again, when there is room.
    assert_eq!(
        roster.went_silent(&mut players, ":1.5"),
        Vec::<String>::new()
    );
    assert!(!roster.spoke(&mut players, ":9.9"), "not a silent one");
    assert!(roster.spoke(&mut players, ":1.5"));
    assert!(players.iter().any(|p| p.owner == ":1.5"));
    // A flood of waiting names keeps the newest.
    for i in 0..1000 {
        let name = format!("org.mpris.MediaPlayer2.flood{i}");
        roster.appeared(&mut players, &name, &format!(":3.{i}"));
    }
    roster.left(&mut players, "org.mpris.MediaPlayer2.p0");
    assert!(
        players.iter().any(|p| p.owner == ":3.744"),
        "the oldest kept of 256"
    );
}
