//! The gamemode module against the real gamemoded (Debian's `gamemode`), on the test
//! user's own session bus: hidden while gamemoded is not there, shown once it is, its
//! count following the games gamemoded registers (a real process registered over its
//! D-Bus API, and reaped by gamemoded when it ends), a click switching to the format
//! with the count, and gamemoded stopped and started again.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::bus::{bus_address, start_session_bus, Helper};
use common::session::{Compositor, RunningBar, Session};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

fn start_daemon(session: &Session) -> Helper {
    let bus = bus_address(session);
    let child = session
        .as_user_with("/usr/bin/gamemoded", &[("DBUS_SESSION_BUS_ADDRESS", &bus)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gamemoded (Debian's gamemode)");
    Helper(child)
}

/// Registers the process `pid` as a game, as `gamemoderun` does.
fn register_game(session: &Session, pid: u32) {
    let bus = bus_address(session);
    let status = session
        .as_user_with("gdbus", &[("DBUS_SESSION_BUS_ADDRESS", &bus)])
        .args([
            "call",
            "--session",
            "--dest",
            "com.feralinteractive.GameMode",
            "--object-path",
            "/com/feralinteractive/GameMode",
            "--method",
            "com.feralinteractive.GameMode.RegisterGame",
        ])
        .arg(pid.to_string())
        .stdout(Stdio::null())
        .status()
        .expect("run gdbus (libglib2.0-bin)");
    assert!(status.success(), "RegisterGame {pid}");
}

fn start_bar(session: &Session) -> RunningBar {
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"gamemode\"]\n\
         [gamemode]\nhide-not-running = false\n",
    );
    session.start_bar(&[])
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
    wait_for("gamemoded's count", WAIT, || label() == "GAME");
    assert!(!running(), "no game yet");

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
    wait_for("the count after a click", WAIT, || label() == "GAME 1");

    // The game ends: gamemoded reaps it (every 5 s by default), and the count follows.
    game.kill();
    wait_for("no game", Duration::from_secs(30), || label() == "GAME 0");
    assert!(!running());

    // gamemoded goes: hidden; it comes back: shown again.
    daemon.kill();
    wait_for("hidden without gamemoded", WAIT, || {
        bar.field("gamemode.visible") == "false"
    });
    let _daemon = start_daemon(&session);
    bar.wait_for_log("gamemode: gamemoded is back");
    wait_for("back", WAIT, || label() == "GAME 0");
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks gamemoded once.
    let bus = bus_address(&session);
    let doc = session.once_json(&[("DBUS_SESSION_BUS_ADDRESS", bus.as_str())]);
    assert_eq!(doc["modules"][0]["name"], "gamemode", "{}", doc["modules"]);
    assert_eq!(doc["modules"][0]["text"], "GAME", "{}", doc["modules"]);
}
