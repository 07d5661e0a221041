//! The gamemode module against the real gamemoded (Debian's `gamemode`), on the test
//! user's own session bus: hidden while gamemoded is not there, shown once it is, its
//! count following the games gamemoded registers (a real process registered over its
//! D-Bus API, and reaped by gamemoded when it ends), forty registered at once (drawn at
//! most once a frame), a click switching to the format
//! with the count, gamemoded killed and started again, and gamemoded stopped (SIGSTOP)
//! while a bar starts (the main loop never waits). Waybar's icon before the
//! label by default, read back from the screen; the glyph instead with `use-icon = false`.

mod common;

use std::time::{Duration, Instant};

use common::bus::{bus_address, start_session_bus, Helper};
use common::gamemode::{register_game, register_games, start_daemon};
use common::session::{Compositor, RunningBar, Session};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

fn start_bar(session: &Session) -> RunningBar {
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"gamemode\"]\n\
         [gamemode]\nhide-not-running = false\nformat = \"G{glyph}{count}\"\n",
    );
    session.start_bar(&[])
}

/// The module's pixels on screen unlike its top left one (the bar's background).
fn drawn_pixels(session: &Session, bar: &RunningBar) -> usize {
    let field = bar.laid_out_field("gamemode.bounds");
    let b: Vec<u32> = field.split(',').filter_map(|n| n.parse().ok()).collect();
    if b.len() != 4 || b[2] == 0 || b[3] == 0 {
        return 0;
    }
    let shot = session.screenshot(b[0], b[1], b[2], b[3]);
    let background = shot.pixel(0, 0);
    shot.count(0, shot.height, |p| {
        (0..3).any(|i| p[i].abs_diff(background[i]) > 60)
    })
}

#[test]
fn the_module_follows_gamemoded_and_its_games() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut bar = start_bar(&session);
    bar.wait_for_log(
        "gamemode: gamemoded (com.feralinteractive.GameMode) is not on the session bus",
    );
    assert_ne!(bar.field("gamemode.visible"), "true", "hidden without it");

    let mut daemon = start_daemon(&session);
    let label = || bar.field("gamemode");
    let running = || {
        bar.field("gamemode.classes")
            .split(',')
            .any(|c| c == "running")
    };
    // The glyph is left out under the icon, and the count at 0, as Waybar fills them.
    wait_for("gamemoded's count", WAIT, || label() == "G");
    assert!(!running(), "no game yet");
    // The theme's input-gaming-symbolic (Adwaita's), 20 px, before the `G`.
    wait_for("the icon on screen", WAIT, || {
        let bounds = bar.laid_out_field("gamemode.bounds");
        let width: u32 = bounds
            .split(',')
            .nth(2)
            .and_then(|w| w.parse().ok())
            .unwrap_or(0);
        width >= 24 && drawn_pixels(&session, &bar) > 150
    });

    // A game: a real process, registered as gamemoderun registers one.
    let mut game = Helper(
        session
            .as_user("sleep")
            .arg("120")
            .spawn()
            .expect("start a game"),
    );
    register_game(&session, game.0.id());
    wait_for("the running class", WAIT, running);
    bar.point_at(&session, "gamemode").click("left");
    wait_for("the count after a click", WAIT, || label() == " 1");

    // Forty more at once: a `PropertiesChanged` each, drawn at most once a frame.
    let renders_before = bar.renders("Event(GameMode)");
    let started = Instant::now();
    let mut flood = register_games(&session, 40);
    wait_for("41 games", WAIT, || label() == " 41");
    let (gap, took) = (ringbar::app::pacing::GAP, started.elapsed());
    let redraws = bar.renders("Event(GameMode)") - renders_before;
    let most = took.as_millis() as u64 / gap.as_millis() as u64 + 3;
    eprintln!("40 games registered in {took:?}: {redraws} redraws (at most {most})");
    assert!(
        redraws <= most,
        "{redraws} redraws for 40 games in {took:?}"
    );
    // Its stdin closed, the helper ends its games.
    drop(flood.0.stdin.take());
    let _ = flood.0.wait();

    // The game ends: gamemoded reaps it (every 5 s by default), and the count follows.
    game.kill();
    wait_for("no game", Duration::from_secs(30), || label() == " ");
    assert!(!running());

    // gamemoded goes: hidden; it comes back: shown again.
    daemon.kill();
    wait_for("hidden without gamemoded", WAIT, || {
        bar.field("gamemode.visible") == "false"
    });
    let daemon = start_daemon(&session);
    bar.wait_for_log("gamemode: gamemoded is back");
    wait_for("back", WAIT, || label() == " ");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // gamemoded stopped (SIGSTOP) while a bar starts: its first read waits on it, the
    // main loop does not; the count comes once gamemoded runs again.
    let signal = |name: &str| {
        let _ = std::process::Command::new("kill")
            .args([name, &daemon.0.id().to_string()])
            .status();
    };
    signal("-STOP");
    let _ = std::fs::remove_file(session.hook_dir().join("stalls"));
    let mut bar = start_bar(&session);
    let window = common::stalls::Window::open(&session.hook_dir());
    // Three samples at the default 2 s.
    std::thread::sleep(Duration::from_secs(7));
    window.assert_on_time("the stopped gamemoded");
    assert_ne!(bar.field("gamemode.visible"), "true", "nothing known yet");
    signal("-CONT");
    wait_for("read once it runs", WAIT, || bar.field("gamemode") == "G");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks gamemoded once; the glyph without the icon.
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"gamemode\"]\n\
         [gamemode]\nhide-not-running = false\nuse-icon = false\n",
    );
    let bus = bus_address(&session);
    let doc = session.once_json(&[("DBUS_SESSION_BUS_ADDRESS", bus.as_str())]);
    assert_eq!(doc["modules"][0]["name"], "gamemode", "{}", doc["modules"]);
    assert_eq!(doc["modules"][0]["text"], "GAME", "{}", doc["modules"]);
}
