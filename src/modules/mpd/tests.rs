//! The mpd module: MPD's replies read, the server found as libmpdclient finds it, the
//! format fields and time specs, the states and classes, the clicks and the tooltip.

use std::path::{Path, PathBuf};

use super::protocol::{self, Line};
use super::server::{self, Address};
use super::*;
use crate::modules::tests::{input, text_with as shown};
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("mpd", toml)
}

fn config_error(toml: &str) -> String {
    let text = format!("modules_right = [\"mpd\"]\n[mpd]\n{toml}");
    crate::config::parse(&text, Path::new("c.toml"))
        .expect_err("refused")
        .to_string()
}

/// What MPD 0.23 answers to `status` and `currentsong` while it plays.
const PLAYING: &str = "volume: 80\nrepeat: 1\nrandom: 0\nsingle: 0\nconsume: 1\n\
    partition: default\nplaylist: 2\nplaylistlength: 3\nstate: play\nsong: 1\nsongid: 2\n\
    time: 65:3725\nelapsed: 65.431\nbitrate: 415\nduration: 3725.000\naudio: 44100:24:2\n\
    file: tones/b.flac\nArtist: Beta\nArtist: Gamma\nTitle: Two\nAlbum: Tones\nTime: 3725\n\
    duration: 3725.000\nPos: 1\nId: 2\nOK\n";

fn read(reply: &str) -> MpdState {
    let pairs = reply.lines().filter_map(|line| match protocol::line(line) {
        Line::Pair(key, value) => Some((key, value)),
        _ => None,
    });
    protocol::state_of(pairs).0
}

fn events(state: MpdState) -> Events {
    Events::default().with(Some(state))
}

#[test]
fn replies_are_read_line_by_line() {
    assert_eq!(protocol::line("OK\n"), Line::Ok);
    assert_eq!(protocol::line("state: play"), Line::Pair("state", "play"));
    assert_eq!(protocol::line("Title: a: b"), Line::Pair("Title", "a: b"));
    assert_eq!(
        protocol::line("ACK [50@0] {play} song doesn't exist: \"9\""),
        Line::Ack("song doesn't exist: \"9\"")
    );
    assert_eq!(protocol::line("list_OK"), Line::Other);
    assert_eq!(protocol::greeting("OK MPD 0.23.5\n"), Some("0.23.5"));
    assert_eq!(protocol::greeting("SSH-2.0-OpenSSH_9.2"), None);
    assert_eq!(protocol::quoted(r#"pa ss"w\rd"#), r#""pa ss\"w\\rd""#);
}

#[test]
fn status_and_currentsong_make_the_state() {
    let state = read(PLAYING);
    assert_eq!(state.playback, Playback::Playing);
    assert_eq!((state.elapsed_s, state.total_s), (65, 3725));
    assert_eq!(state.volume, Some(80));
    assert!(state.repeat && state.consume && !state.random && !state.single);
    assert_eq!((state.position, state.queue_length), (2, 3));
    let song = state.song.expect("a song");
    assert_eq!(song.artist.as_deref(), Some("Beta"), "the first of two");
    assert_eq!(song.title.as_deref(), Some("Two"));
    assert_eq!(song.album_artist, None);
    assert_eq!(song.uri, "tones/b.flac");

    let stopped = read(
        "volume: -1\nrepeat: 0\nrandom: 1\nsingle: oneshot\nstate: stop\nplaylistlength: 0\nOK\n",
    );
    assert_eq!(stopped.playback, Playback::Stopped);
    assert_eq!(stopped.volume, None, "no mixer");
    assert!(stopped.random && stopped.single);
    assert_eq!(stopped.song, None);

    let hostile = read("state: pause\nfile: x\nTitle: a\u{7}b\u{202e}c\u{1b}[2J\nOK\n");
    let title = hostile.song.and_then(|s| s.title).expect("a title");
    assert_eq!(
        title, "a bc [2J",
        "control characters out, the override gone"
    );
    let long = read(&format!("file: x\nTitle: {}\nOK\n", "é".repeat(5000)));
    let title = long.song.and_then(|s| s.title).expect("a title");
    assert_eq!(title.chars().count(), 512);
}

#[test]
fn the_server_is_found_as_libmpdclient_finds_it() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            let found = pairs.iter().find(|(k, _)| *k == name);
            found.map(|(_, v)| (*v).to_owned())
        }
    };
    let none = |_: &PathBuf| false;
    let tcp = |host: &str, port| Address::Tcp {
        host: host.to_owned(),
        port,
    };
    let found = server::find(None, None, None, env(&[]), none);
    assert_eq!(
        (found.address, found.password),
        (tcp("localhost", 6600), None)
    );
    let found = server::find(
        Some("music.lan"),
        Some(6601),
        None,
        env(&[("MPD_HOST", "x")]),
        none,
    );
    assert_eq!(found.address, tcp("music.lan", 6601), "the config first");
    let found = server::find(
        None,
        None,
        None,
        env(&[("MPD_HOST", "pw@box"), ("MPD_PORT", "7000")]),
        none,
    );
    assert_eq!(found.address, tcp("box", 7000));
    assert_eq!(found.password.as_deref(), Some("pw"));
    let found = server::find(
        None,
        None,
        Some("mine"),
        env(&[("MPD_HOST", "pw@box")]),
        none,
    );
    assert_eq!(
        found.password.as_deref(),
        Some("mine"),
        "the config's password first"
    );
    let found = server::find(Some("@mpd"), None, None, env(&[]), none);
    assert_eq!(found.address, Address::Abstract("mpd".to_owned()));
    let found = server::find(Some("/run/user/1000/mpd.sock"), None, None, env(&[]), none);
    assert_eq!(
        found.address,
        Address::Unix("/run/user/1000/mpd.sock".into())
    );
    let found = server::find(
        Some("~/.mpd/socket"),
        None,
        None,
        env(&[("HOME", "/home/u")]),
        none,
    );
    assert_eq!(found.address, Address::Unix("/home/u/.mpd/socket".into()));
    let runtime = env(&[("XDG_RUNTIME_DIR", "/run/user/1000")]);
    let found = server::find(None, None, None, runtime, |p: &PathBuf| {
        p.starts_with("/run/")
    });
    assert_eq!(
        found.address,
        Address::Unix("/run/user/1000/mpd/socket".into())
    );
    assert_eq!(found.address.to_string(), "/run/user/1000/mpd/socket");
}

#[test]
fn the_fields_and_the_time_specs_are_waybars() {
    let mpd = module(
        "format = \"{stateIcon}{artist} - {title} ({album}, {albumArtist}) {elapsedTime:%M:%S}/{totalTime:%H:%M:%S} {elapsedTime}/{totalTime} #{songPosition}/{queueLength} {volume}% {filename} {consumeIcon}{randomIcon}{repeatIcon}{singleIcon}\"\n\
         state-icons = { playing = \"▶ \", paused = \"⏸ \" }\n\
         consume-icons = { on = \"C\" }\nrandom-icons = { off = \"r\" }\nrepeat-icons = { on = \"R\" }\n\
         unknown-tag = \"?\"",
    );
    let (text, status) = shown(mpd.as_ref(), &events(read(PLAYING)));
    assert_eq!(
        text,
        "▶ Beta - Two (Tones, ?) 01:05/01:02:05 1:05/1:02:05 #2/3 80% b.flac CrR"
    );
    let status = status.expect("shown");
    assert_eq!(status.class, Some("playing"));
    assert_eq!(status.percentage, Some(80.0));

    let capped =
        module("format = \"{title}|{artist}\"\ntitle-len = 3\nartist-len = 9\nellipsis = \"~\"");
    let mut state = read(PLAYING);
    state.song.as_mut().expect("a song").title = Some("Twelve".to_owned());
    assert_eq!(shown(capped.as_ref(), &events(state)).0, "Twe~|Beta");
    let amp = module("format = \"{title}\"\ntitle-len = 2\nellipsis = \"&\"");
    let mut state = read(PLAYING);
    state.song.as_mut().expect("a song").title = Some("<<<".to_owned());
    assert_eq!(
        shown(amp.as_ref(), &events(state)).0,
        "&lt;&lt;&amp;",
        "cut, then escaped"
    );
}

#[test]
fn paused_stopped_and_disconnected_take_their_formats_and_classes() {
    let mpd = module("format-paused = \"paused {title}\"\nformat-stopped = \"{randomIcon}stop\"\nrandom-icons = { on = \"Z \" }");
    let mut paused = read(PLAYING);
    paused.playback = Playback::Paused;
    let (text, status) = shown(mpd.as_ref(), &events(paused));
    assert_eq!(
        (text.as_str(), status.expect("shown").class),
        ("paused Two", Some("paused"))
    );
    let stopped = read("random: 1\nstate: stop\nOK\n");
    let (text, status) = shown(mpd.as_ref(), &events(stopped));
    assert_eq!(
        (text.as_str(), status.expect("shown").class),
        ("Z stop", Some("stopped"))
    );
    assert_eq!(
        shown(mpd.as_ref(), &Events::default()).1,
        None,
        "hidden without MPD"
    );

    let said = module("format-disconnected = \"no music\"");
    let (text, status) = shown(said.as_ref(), &Events::default());
    assert_eq!(
        (text.as_str(), status.expect("shown").class),
        ("no music", Some("disconnected"))
    );
    let default = module("");
    assert_eq!(
        shown(default.as_ref(), &events(read(PLAYING))).0,
        "Beta - Two"
    );
}

#[test]
fn clicks_play_pause_stop_and_skip() {
    let mpd = module("");
    let command = |button| match mpd.action(button) {
        Some(Action::Command(command)) => command.get::<MpdState>().copied(),
        _ => None,
    };
    assert_eq!(command(Button::Left), Some(MpdCommand::PlayPause));
    assert_eq!(command(Button::Right), Some(MpdCommand::Stop));
    assert_eq!(command(Button::Middle), Some(MpdCommand::Next));
    assert_eq!(command(Button::ScrollDown), Some(MpdCommand::Next));
    assert_eq!(command(Button::ScrollUp), Some(MpdCommand::Previous));
}

#[test]
fn the_module_gives_its_server_to_the_source_and_the_first_one_counts() {
    let first =
        module("server = \"/run/mpd.sock\"\ninterval = 2\ntimeout = 4\nplaying-interval = 250");
    let settings = first.source_settings().expect("settings");
    let server = settings.get::<MpdState>().expect("for MPD");
    assert_eq!(server.server.as_deref(), Some("/run/mpd.sock"));
    assert_eq!(
        (
            server.reconnect_s,
            server.timeout_s,
            server.playing_interval_ms
        ),
        (2, 4, 250)
    );
    let second = module("server = \"other\"");
    let both = [first.clone(), second];
    let sources = crate::modules::event_sources(both.iter());
    assert_eq!(sources.len(), 1);
    assert_eq!(sources[0].1.as_ref(), Some(&settings), "the first listed");
}

#[test]
fn bad_settings_are_refused_with_what_is_wrong() {
    assert!(config_error("format = \"{titel}\"").contains("no {titel} in an mpd format"));
    assert!(config_error("format = \"{title:%M}\"").contains("no {title:%M}"));
    assert!(config_error("interval = 0").contains("not between 1 and 3600"));
    assert!(config_error("playing-interval = 5").contains("not between 100 and 60000"));
    assert!(config_error("port = 70000").contains("port"));
    // Formats and icons are markup, as in Waybar.
    assert!(config_error("format = \"{title} & more\"").contains("is not Pango markup"));
    assert!(config_error("state-icons = { playing = \"<blink>\" }").contains("is not Pango markup"));
    assert!(config_error("format-disconnected = \"<b>off\"").contains("is not Pango markup"));
}

#[test]
fn the_tooltip_shows_the_song_as_text() {
    let sample = Sample::default();
    let mut state = read(PLAYING);
    state.song.as_mut().expect("a song").title = Some("<b>x</b> & y".to_owned());
    let events = events(state);
    let playing = Input {
        events: &events,
        ..input(&sample)
    };
    let tooltip = |mpd: &Rc<dyn Module>, input: &Input<'_>| {
        let mut text = String::new();
        mpd.tooltip(&mut Plain(&mut text), input);
        text
    };
    assert_eq!(
        tooltip(&module(""), &playing),
        "MPD  <b>x</b> & y\nBeta · Tones\n1:05 / 1:02:05 · 2 of 3\n"
    );
    let mut markup = String::new();
    module("").tooltip(&mut Markup(&mut markup), &playing);
    assert!(markup.contains("&lt;b&gt;x&lt;/b&gt; &amp; y"), "{markup}");

    let own = module("tooltip-format = \"{title}\\n{elapsedTime:%M:%S}\"");
    assert_eq!(tooltip(&own, &playing), "<b>x</b> & y\n01:05\n");
    assert_eq!(tooltip(&own, &input(&sample)), "MPD (disconnected)");
    assert_eq!(tooltip(&module("tooltip = false"), &playing), "");
}

#[test]
fn a_waybar_mpd_config_carries_over() {
    let waybar = serde_json::json!({
        "modules-right": ["mpd"],
        "mpd": {
            "format": "{stateIcon} {consumeIcon}{randomIcon}{repeatIcon}{singleIcon}{artist} - {album} - {title} ({elapsedTime:%M:%S}/{totalTime:%M:%S}) ",
            "format-disconnected": "Disconnected ",
            "format-stopped": "{consumeIcon}{randomIcon}{repeatIcon}{singleIcon}Stopped ",
            "interval": 2,
            "consume-icons": {"on": " "},
            "random-icons": {"off": "<span color=\"#f53c3c\">r</span> ", "on": "R "},
            "repeat-icons": {"on": " "},
            "single-icons": {"on": "<b>1 "},
            "state-icons": {"paused": "||", "playing": ">"},
            "tooltip-format": "MPD (connected)",
            "tooltip-format-disconnected": "MPD (disconnected)",
            "on-click-middle": "mpc next",
            "smooth-scrolling-threshold": 1
        }
    });
    let import = crate::config::import::convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let mpd = config.modules.right[0].clone();
    assert_eq!(mpd.name(), "mpd");
    assert_eq!(
        mpd.command(Button::Middle),
        Some("mpc next"),
        "{}",
        import.toml
    );
    let settings = mpd.source_settings().expect("settings");
    assert_eq!(settings.get::<MpdState>().expect("MPD's").reconnect_s, 2);
    let (text, _) = shown(mpd.as_ref(), &events(read(PLAYING)));
    assert_eq!(
        text,
        ">  <span color=\"#f53c3c\">r</span>  Beta - Tones - Two (01:05/02:05) "
    );
    let (text, status) = shown(mpd.as_ref(), &Events::default());
    assert_eq!(
        (text.as_str(), status.expect("shown").class),
        ("Disconnected ", Some("disconnected"))
    );
    let left: Vec<_> = import.notes.iter().filter(|n| n.contains("mpd")).collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(
        left[0].contains("`single-icons`: \"<b>1 \" is not Pango markup"),
        "{left:?}"
    );
    assert!(left[0].ends_with("not carried over"), "{left:?}");
    assert!(left[1].contains("`smooth-scrolling-threshold`"), "{left:?}");
}
