//! The media module against a real player: mpv with Debian's mpv-mpris plays a tone made
//! by sox (its title and artist in the file's tags) on a private session bus. The bar
//! shows the title, by its hook and by OCR; a click pauses mpv (mpv's own `pause`
//! property says so); a second mpv that starts playing takes the label and gives it
//! back when it quits. Then players that misbehave (`tests/media/player.py`): one that
//! owns its name and never answers, and one that sends bursts of `PropertiesChanged`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, Stdio};
use std::time::{Duration, Instant};

use common::bus::{bus_address, start_session_bus, Helper};
use common::mpv::{mpv, mpv_property, tone};
use common::session::{Compositor, RunningBar, Session};
use common::{ocr, require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);
const WIDTH: u32 = 1280;

/// `tests/media/player.py ARGS` as the test user, killed when dropped (a failed check
/// included); returns once it owns its name.
fn stand_in(session: &Session, args: &[&str]) -> (Helper, ChildStdin) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/media/player.py");
    let bus = bus_address(session);
    let mut child = session
        .as_user_with(
            "/usr/bin/python3",
            &[("DBUS_SESSION_BUS_ADDRESS", bus.as_str())],
        )
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the stand-in player (python3-gi)");
    let stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("the stand-in starts");
    assert_eq!(line.trim(), "owned");
    // Its later lines are not read; the pipe holds them.
    std::mem::forget(out);
    (Helper(child), stdin)
}

/// A bar with the media module alone on the right, `media_table` its settings, once it
/// is on the session bus.
fn start_media_bar(session: &Session, media_table: &str) -> RunningBar {
    session.write_config_file(
        "config.toml",
        &format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"media\"]\n{media_table}"
        ),
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("media: on the session bus");
    bar
}

fn click_module(session: &Session, bar: &RunningBar, button: &str) {
    bar.point_at(session, "media").click(button);
}

#[test]
fn the_media_module_follows_mpv_and_controls_it() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut bar = start_media_bar(&session, "[media]\nmax-length = 60\n");
    wait_for("the bar drawn", WAIT, || {
        !bar.field("media.visible").is_empty()
    });
    assert_eq!(
        bar.field("media.visible"),
        "false",
        "hidden without a player"
    );

    let first = tone(&session, "first", "Ring <b>Tone</b>", "Sine\u{1}Wave", 60);
    let first_socket = session.runtime_dir().join("mpv-first");
    let _mpv = mpv(&session, &[&first], &first_socket);
    let label = || bar.field("media");
    wait_for("mpv's title", WAIT, || {
        label() == "▶ Sine Wave - Ring <b>Tone</b>"
    });
    assert_eq!(bar.field("media.classes"), "module,media,playing");
    let seen = ocr::read_text(&session.screenshot(WIDTH - 400, 0, 400, 26));
    assert!(seen.contains("Sine Wave"), "OCR read {seen:?}");

    // A click pauses mpv: its own property says so, and the label follows.
    click_module(&session, &bar, "left");
    wait_for("mpv paused", WAIT, || {
        mpv_property(&first_socket, "pause") == "true"
    });
    wait_for("the paused label", WAIT, || {
        label().starts_with("‖ Sine Wave")
    });
    assert_eq!(bar.field("media.classes"), "module,media,paused");

    // A second player that starts playing takes the label; it quits, the first is back.
    let second = tone(&session, "second", "Second Song", "Other", 60);
    let second_socket = session.runtime_dir().join("mpv-second");
    let mut second_mpv = mpv(&session, &[&second], &second_socket);
    wait_for("the second player", WAIT, || {
        label() == "▶ Other - Second Song"
    });
    second_mpv.kill();
    wait_for("the first player again", WAIT, || {
        label() == "‖ Sine Wave - Ring <b>Tone</b>"
    });

    // A player that never answers: the bar goes on, and a click still reaches mpv.
    let (mut hung, _hung_stdin) = stand_in(&session, &["hang", "hung"]);
    std::thread::sleep(Duration::from_millis(1500));
    click_module(&session, &bar, "left");
    wait_for("mpv playing again", WAIT, || {
        mpv_property(&first_socket, "pause") == "false"
    });
    wait_for("the playing label", WAIT, || {
        label() == "▶ Sine Wave - Ring <b>Tone</b>"
    });
    bar.wait_for_log("media: the player at");

    // A burst of 3000 signals: the last one is what shows, cleaned.
    let (mut flood, mut flood_stdin) = stand_in(&session, &["flood", "flood", "3000"]);
    let renders_before = bar.renders("Event(Media)");
    let burst_start = Instant::now();
    writeln!(flood_stdin).expect("start the burst");
    wait_for("the burst's last title", WAIT, || {
        label() == "▶ <i>flood</i>  last"
    });
    // Paced: at most one drawing per frame (16 ms), not one per signal. The bound follows
    // the time the burst took here, however slow the machine; 3 for the log's lag.
    let burst = burst_start.elapsed();
    let redraws = bar.renders("Event(Media)") - renders_before;
    let most = burst.as_millis() as u64 / ringbar::app::pacing::GAP.as_millis() as u64 + 3;
    eprintln!("3000 PropertiesChanged signals in {burst:?}, {redraws} redraws (at most {most})");
    assert!(
        redraws > 0,
        "the burst was drawn (Event(Media) in the hook's renders)"
    );
    assert!(
        redraws <= most,
        "{redraws} redraws for 3000 signals in {burst:?}"
    );
    flood.kill();
    hung.kill();
    wait_for("mpv again after the stand-ins left", WAIT, || {
        label() == "▶ Sine Wave - Ring <b>Tone</b>"
    });
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks the players once.
    let bus = bus_address(&session);
    let doc = session.once_json(&[("DBUS_SESSION_BUS_ADDRESS", bus.as_str())]);
    let media = &doc["modules"][0];
    assert_eq!(media["name"], "media", "{}", doc["modules"]);
    assert_eq!(media["text"], "▶ Sine Wave - Ring <b>Tone</b>", "{media}");
    assert_eq!(media["class"], "playing", "{media}");
}

/// 40 names that never answer came first: a real player that starts after them shows
/// (they give up their places once they do not answer), and stays when they go. Its
/// title's direction override is not obeyed: `EVIL` is not shown as `LIVE`.
#[test]
fn silent_names_cannot_hide_a_real_player() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut bar = start_media_bar(&session, "");
    let (mut silent, _silent_stdin) = stand_in(&session, &["hang", "silent", "40"]);
    std::thread::sleep(Duration::from_millis(500));

    let file = tone(
        &session,
        "real",
        "\u{202E}EVIL\u{202C} \u{2066}Tune",
        "Real\u{200B}Artist",
        60,
    );
    let socket = session.runtime_dir().join("mpv-real");
    let _mpv = mpv(&session, &[&file], &socket);
    let label = || bar.field("media");
    let shown = (0..200).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        label() == "▶ RealArtist - EVIL Tune"
    });
    assert!(shown, "label {:?}; log: {}", label(), bar.log_text());
    silent.kill();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(label(), "▶ RealArtist - EVIL Tune");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
}
