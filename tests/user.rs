//! The user module against the system's own truth, as the test user: the login name
//! `id -un` gives, the uptime /proc/uptime gives and the boot date `uptime -s` gives, in
//! `--once --json` and on a running bar; and the avatar drawn before the name, read back
//! from the screen.

mod common;

use std::time::Duration;

use common::screen::write_png;
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

/// With `icon`, the avatar before the label: the test user's `~/.face` by default, a file
/// `avatar` names, none (and no complaint) where the file is missing.
#[test]
fn the_avatar_is_drawn_before_the_name() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let red = [230, 20, 20];
    let blue = [20, 20, 230];
    let face = session.home().join(".face");
    write_png(&face, 64, red);
    let config = |extra: &str| {
        format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"user\", \"clock\"]\n\
             [user]\nformat = \"{{user}}\"\nicon = true\n{extra}"
        )
    };
    session.write_config_file("config.toml", &config(""));
    let mut bar = session.start_bar(&[]);
    let wait = Duration::from_secs(20);
    // Scaled to fit 20×20: about 400 pixels of it.
    wait_for("~/.face on the bar", wait, || {
        session.pixels_near(&bar, "user", red) > 300
    });
    assert!(session.pixels_near(&bar, "user", red) <= 440);
    let name = bar.field("user");
    assert!(!name.is_empty() && name == name.to_uppercase(), "{name:?}");
    bar.stop();

    let other = session.home().join("avatar.png");
    write_png(&other, 64, blue);
    session.write_config_file(
        "config.toml",
        &config(&format!(
            "avatar = {:?}\nwidth = 40\nheight = 10\n",
            other.display().to_string()
        )),
    );
    let mut bar = session.start_bar(&[]);
    // Scaled to fit 40×10, its aspect kept: 10×10.
    wait_for("the avatar file on the bar", wait, || {
        session.pixels_near(&bar, "user", blue) > 70
    });
    assert!(session.pixels_near(&bar, "user", blue) <= 120);
    assert_eq!(session.pixels_near(&bar, "user", red), 0);
    bar.stop();

    std::fs::remove_file(&face).expect("remove ~/.face");
    session.write_config_file("config.toml", &config(""));
    let mut bar = session.start_bar(&[]);
    wait_for("the name", wait, || bar.field("user.visible") == "true");
    wait_for("laid out", wait, || {
        !bar.laid_out_field("user.bounds").is_empty()
    });
    assert_eq!(session.pixels_near(&bar, "user", red), 0);
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
    assert!(bar.try_wait().is_none(), "the bar runs: {log}");
    bar.stop();
}
