//! Debian's gamemoded on the test user's session bus, and games registered with it over
//! its D-Bus API, as `gamemoderun` registers one.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use super::bus::{bus_address, Helper};
use super::session::Session;

pub fn start_daemon(session: &Session) -> Helper {
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
pub fn register_game(session: &Session, pid: u32) {
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

/// `count` games registered by one process as fast as gamemoded answers (each a
/// `PropertiesChanged` of its own); they end when the returned helper's stdin closes.
pub fn register_games(session: &Session, count: usize) -> Helper {
    let bus = bus_address(session);
    let mut child = session
        .as_user_with("/usr/bin/python3", &[("DBUS_SESSION_BUS_ADDRESS", &bus)])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/gamemode/games.py"
        ))
        .arg(count.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python3 (python3-gi)");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("read");
    assert_eq!(line.trim(), "registered", "{count} games registered");
    Helper(child)
}
