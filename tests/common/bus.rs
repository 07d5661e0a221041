//! A D-Bus session bus for the test user, and the helpers run on it.

use std::process::{Child, Stdio};
use std::time::Duration;

use super::session::Session;
use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);

/// A process run as the test user, killed when dropped.
pub struct Helper(pub Child);

impl Helper {
    /// Kills it the hard way, as a crash would: no goodbye on the bus.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn bus_address(session: &Session) -> String {
    format!("unix:path={}/bus", session.runtime_dir().display())
}

/// `dbus-daemon --session` as the test user, listening at `$XDG_RUNTIME_DIR/bus`.
pub fn start_session_bus(session: &Session) -> Helper {
    let child = session
        .as_user("dbus-daemon")
        .args(["--session", "--nofork", "--nopidfile"])
        .arg(format!("--address={}", bus_address(session)))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start dbus-daemon (package dbus)");
    let socket = session.runtime_dir().join("bus");
    wait_for("the session bus socket", WAIT, || socket.exists());
    Helper(child)
}
