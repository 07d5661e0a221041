//! The user module against the system's own truth, as the test user: the login name
//! `id -un` gives, the uptime /proc/uptime gives and the boot date `uptime -s` gives, in
//! `--once --json` and on a running bar.

mod common;

use std::time::Duration;

use common::session::{Compositor, Session};
use common::{require_root, serial, wait_for};

const FORMAT: &str = "{user}|{work_d}|{work_H}:{work_M}|{up_Y}-{up_m}-{up_d} {up_H}:{up_M}";

/// What the label should say, from /proc/uptime and `uptime -s` read as the test user.
fn expected(session: &Session) -> String {
    let run = |program: &str, args: &[&str]| {
        let out = session.as_user(program).args(args).output().expect(program);
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    // In capitals, as Waybar writes it.
    let name = run("id", &["-un"]).to_ascii_uppercase();
    let uptime = run("cat", &["/proc/uptime"]);
    let seconds: f64 = uptime
        .split_whitespace()
        .next()
        .and_then(|s| s.parse().ok())
        .expect("/proc/uptime");
    let up = seconds as u64;
    // `uptime -s` (procps): the boot as the local YYYY-MM-DD HH:MM:SS.
    let since = run("uptime", &["-s"]);
    format!(
        "{name}|{}|{:02}:{:02}|{}",
        up / 86_400,
        up / 3600 % 24,
        up / 60 % 60,
        &since[..16]
    )
}

/// The label agrees with the truth read just before or just after it (a minute of
/// uptime may turn in between).
fn agrees(session: &Session, label: impl Fn() -> String) -> bool {
    let before = expected(session);
    let shown = label();
    let after = expected(session);
    shown == before || shown == after
}

#[test]
fn the_name_and_uptime_are_the_systems() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        &format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"user\"]\n\
             [user]\nformat = {FORMAT:?}\n"
        ),
    );
    let once = || {
        let doc = session.once_json(&[]);
        let module = &doc["modules"][0];
        assert_eq!(module["name"], "user", "{module}");
        module["text"].as_str().expect("text").to_owned()
    };
    assert!(
        agrees(&session, once),
        "{} against {}",
        once(),
        expected(&session)
    );

    let mut bar = session.start_bar(&[]);
    wait_for("the label", Duration::from_secs(20), || {
        bar.field("user.visible") == "true"
    });
    assert!(
        agrees(&session, || bar.field("user")),
        "{} against {}",
        bar.field("user"),
        expected(&session)
    );
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();
}
