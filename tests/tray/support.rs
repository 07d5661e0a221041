//! Helpers of the tray tests: the session bus, the Python items, reading the tray back.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use std::time::{Duration, Instant};

use crate::common::session::{Pointer, RunningBar, Session};

pub const WAIT: Duration = Duration::from_secs(20);
pub const BAR_HEIGHT: u32 = 26;

pub use crate::common::bus::{bus_address, start_session_bus, Helper};

/// Copies the Python helper `name` from tests/tray into the session (the test user
/// cannot read the checkout).
pub fn helper_script(session: &Session, name: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tray")
        .join(name);
    let to = session.path().join(name);
    fs::copy(&from, &to).expect("copy the helper script");
    fs::set_permissions(&to, fs::Permissions::from_mode(0o755)).expect("chmod");
    to
}

/// Runs a Python helper as the test user on the session bus; its stderr goes to
/// `NAME.log` beside it (libayatana's GTK 3 warnings are noise here).
pub fn python(session: &Session, script: &Path, args: &[&str]) -> Helper {
    let address = bus_address(session);
    let log = session
        .path()
        .join(format!("{}.log", args.first().copied().unwrap_or("python")));
    let log = fs::File::create(log).expect("a log for the helper");
    let child = session
        .as_user_with(
            "/usr/bin/python3",
            &[
                ("DBUS_SESSION_BUS_ADDRESS", &address),
                ("NO_AT_BRIDGE", "1"),
            ],
        )
        .arg(script)
        .args(args)
        .stderr(log)
        .spawn()
        .expect("start python3 (python3-gi)");
    Helper(child)
}

/// A real AppIndicator named `id`; its menu's events go to `events`.
pub fn indicator(session: &Session, id: &str, events: &Path) -> Helper {
    let script = helper_script(session, "indicator.py");
    let icons = session.home().join("icons");
    if !icons.exists() {
        session.write_home_file("icons/.keep", "");
    }
    let icons = icons.display().to_string();
    python(
        session,
        &script,
        &[id, &icons, &events.display().to_string()],
    )
}

/// `gdbus call` on the session bus as the test user; its stdout.
pub fn gdbus_call(session: &Session, args: &[&str]) -> String {
    let address = bus_address(session);
    let out = session
        .as_user("gdbus")
        .args(["call", "--address", &address])
        .args(args)
        .output()
        .expect("run gdbus");
    assert!(
        out.status.success(),
        "gdbus call {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The pid of the process that owns `org.kde.StatusNotifierWatcher`.
pub fn watcher_owner_pid(session: &Session) -> u32 {
    let reply = gdbus_call(
        session,
        &[
            "--dest",
            "org.freedesktop.DBus",
            "--object-path",
            "/org/freedesktop/DBus",
            "--method",
            "org.freedesktop.DBus.GetConnectionUnixProcessID",
            "org.kde.StatusNotifierWatcher",
        ],
    );
    // `(uint32 1234,)`
    reply
        .trim()
        .trim_start_matches("(uint32 ")
        .trim_end_matches(",)")
        .parse()
        .unwrap_or_else(|_| panic!("a pid in {reply}"))
}

pub fn tray_of(bar: &RunningBar) -> String {
    bar.bars()
        .first()
        .and_then(|fields| fields.get("tray").cloned())
        .unwrap_or_default()
}

pub fn wait_for_tray(bar: &RunningBar, what: &str, check: impl Fn(&str) -> bool) {
    let started = std::time::Instant::now();
    while !check(&tray_of(bar)) {
        assert!(
            started.elapsed() < WAIT,
            "timed out waiting for {what}; the tray shows `{}`; the bar's log:\n{}",
            tray_of(bar),
            bar.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn is_red([r, g, b]: [u8; 3]) -> bool {
    r > 200 && g < 60 && b < 60
}

/// The centre of the pixels of an icon's colour in the bar's rows, if there are enough.
pub fn icon_centre(session: &Session, colour: impl Fn([u8; 3]) -> bool) -> Option<(u32, u32)> {
    let shot = session.screenshot(0, 0, 400, BAR_HEIGHT);
    let mut found = Vec::new();
    for y in 0..shot.height {
        for x in 0..shot.width {
            if colour(shot.pixel(x, y)) {
                found.push((x as u32, y as u32));
            }
        }
    }
    if found.len() < 100 {
        return None;
    }
    let n = found.len() as u32;
    let (sx, sy) = found
        .iter()
        .fold((0, 0), |(sx, sy), (x, y)| (sx + x, sy + y));
    Some((sx / n, sy / n))
}

/// Clicks `button` at (x, y) until `done` holds, five times at most: a click that comes
/// while the pointer's entry into the surface is still on its way is lost.
pub fn click_until(
    pointer: &mut Pointer,
    (x, y): (u32, u32),
    button: &str,
    what: &str,
    done: impl Fn() -> bool,
) {
    for _ in 0..5 {
        pointer.move_to(x + 1, y);
        pointer.move_to(x, y);
        std::thread::sleep(Duration::from_millis(200));
        pointer.click(button);
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(3) {
            if done() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("timed out waiting for {what}: five {button} clicks at ({x}, {y}) did nothing");
}

pub fn events(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

pub fn start(session: &Session) -> RunningBar {
    session.write_config_file(
        "config.toml",
        &format!(
            "height = {BAR_HEIGHT}\nmodules_left = [\"tray\"]\nmodules_center = []\n\
             modules_right = []\n[tray]\nicon_size = 20\n"
        ),
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    bar
}
