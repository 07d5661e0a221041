//! The mpd module against a real MPD (Debian's `mpd`), run as the test user with a music
//! directory of tagged tones made by sox, found at its socket by `MPD_HOST`
//! (`$XDG_RUNTIME_DIR/mpd/socket`) and asked with a password: hidden until MPD is up,
//! then each state MPD reports (stopped, playing with its elapsed time moving on,
//! paused), a title with markup and control bytes shown as text, no request while
//! nothing changes (MPD's `idle`, no polling), clicks and the wheel that play, pause,
//! skip and stop, MPD stopped (SIGSTOP: the main loop never waits) and 500 volume
//! changes at once (one redraw a frame at most), MPD killed and started again, a reload
//! to MPD's TCP port, and
//! `--once --json`. The icons are markup, as in Waybar: the label shows their text.

mod common;

use std::time::Duration;

use common::mpd::{Mpd, PASSWORD};
use common::session::{Compositor, RunningBar, Session};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);
fn write_config(session: &Session, server: &str) {
    session.write_config_file(
        "config.toml",
        &format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"mpd\"]\n[mpd]\n{server}\
             password = {PASSWORD:?}\ninterval = 1\n\
             format = \"{{stateIcon}}{{artist}} - {{title}} {{elapsedTime:%M:%S}}/{{totalTime:%M:%S}}\"\n\
             state-icons = {{ playing = \"<b>P</b> \", paused = \"II \" }}\n"
        ),
    );
}

/// Waits until the label passes `check`; says what it was if it does not.
fn wait_for_label(bar: &RunningBar, what: &str, check: impl Fn(&str) -> bool) {
    let deadline = std::time::Instant::now() + WAIT;
    while !check(&bar.field("mpd")) {
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: the label is {:?}, classes {:?}; the bar's log:\n{}",
            bar.field("mpd"),
            class(bar),
            bar.log_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `mpc status` says each of `needles`; says what it did say if it does not.
fn wait_for_status(bar: &RunningBar, mpd: &Mpd<'_>, what: &str, needles: &[&str]) {
    let deadline = std::time::Instant::now() + WAIT;
    while !needles.iter().all(|n| mpd.mpc(&["status"]).contains(n)) {
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: mpc says {:?}; the bar's log:\n{}",
            mpd.mpc(&["status"]),
            bar.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn class(bar: &RunningBar) -> String {
    bar.field("mpd.classes")
}

#[test]
fn the_module_follows_mpd_and_drives_it() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let mut mpd = Mpd::new(&session);
    write_config(&session, "");
    // MPD_HOST names its socket, as a user's shell does: a system MPD (Debian's package
    // starts one where services may start) is not what the bar should find.
    let socket = session.runtime_dir().join("mpd/socket");
    let mpd_host = socket.to_str().expect("a path");
    let mut bar = session.start_bar(&[("MPD_HOST", mpd_host)]);
    let label = || bar.field("mpd");

    // No MPD yet: hidden, said once; it comes up: shown, stopped.
    bar.wait_for_log("mpd: no MPD at");
    assert_ne!(bar.field("mpd.visible"), "true");
    mpd.start();
    mpd.mpc(&["update", "--wait"]);
    mpd.mpc(&["add", "/"]);
    wait_for("stopped", WAIT, || {
        label() == "stopped" && class(&bar).contains("stopped")
    });
    bar.wait_for_log("mpd: connected to MPD at");

    // Playing: the song, and its elapsed time moving on by the clock.
    mpd.mpc(&["play", "1"]);
    wait_for("playing", WAIT, || {
        label().starts_with("P Alpha - One 00:0") && class(&bar).contains("playing")
    });
    wait_for("two seconds in", WAIT, || {
        label().ends_with("/01:00") && *label() >= *"P Alpha - One 00:02"
    });

    // Paused: its format, and nothing asked of MPD nor drawn while nothing changes.
    mpd.mpc(&["pause"]);
    wait_for("paused", WAIT, || {
        label().starts_with("II Alpha - One") && class(&bar).contains("paused")
    });
    let status_reads = || mpd.log().matches("process command \"status\"").count();
    let (reads, renders) = (status_reads(), bar.renders("Event(Mpd)"));
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(status_reads(), reads, "no polling while paused");
    assert_eq!(
        bar.renders("Event(Mpd)"),
        renders,
        "nothing drawn while paused"
    );

    // The hostile title is text: its markup as written, its control bytes gone. (MPD
    // plays on after `next`.)
    mpd.mpc(&["next"]);
    wait_for_label(&bar, "the second song", |l| {
        l.starts_with("P Beta - <b>Two</b> &")
    });
    let title = label();
    assert!(!title.chars().any(char::is_control), "{title:?}");

    // Clicks and the wheel: left plays and pauses, middle and the wheel down skip, the
    // wheel up goes back, right stops.
    bar.point_at(&session, "mpd").click("left");
    wait_for_status(&bar, &mpd, "paused by a click", &["[paused]", "#2/3"]);
    wait_for_label(&bar, "paused on the bar", |l| l.starts_with("II Beta"));
    bar.point_at(&session, "mpd").click("left");
    wait_for_status(&bar, &mpd, "playing by a click", &["[playing]", "#2/3"]);
    bar.point_at(&session, "mpd").click("middle");
    wait_for_status(&bar, &mpd, "the next song by a click", &["#3/3"]);
    wait_for("its title", WAIT, || label().contains("Gamma - Three"));
    bar.point_at(&session, "mpd").scroll("up");
    wait_for_status(&bar, &mpd, "back by the wheel", &["#2/3"]);
    bar.point_at(&session, "mpd").click("right");
    wait_for("stopped by a click", WAIT, || {
        !mpd.mpc(&["status"]).contains('[')
    });
    wait_for("stopped on the bar", WAIT, || label() == "stopped");

    // MPD stopped (SIGSTOP): a click's command waits on it, the main loop does not; once
    // MPD runs again, the bar is in step with it.
    let window = common::stalls::Window::open(&session.hook_dir());
    mpd.signal("-STOP");
    bar.point_at(&session, "mpd").click("left");
    // Three samples at the default 2 s.
    std::thread::sleep(Duration::from_secs(7));
    window.assert_on_time("a click while MPD is stopped");
    mpd.signal("-CONT");
    wait_for("in step with MPD again", WAIT, || {
        let playing = mpd.mpc(&["status"]).contains("[playing]");
        playing == label().starts_with("P ") && (playing || label() == "stopped")
    });
    mpd.mpc(&["play", "1"]);
    wait_for_label(&bar, "playing", |l| l.starts_with("P Alpha"));

    // 500 volume changes on one connection, as fast as MPD takes them: MPD's idle gathers
    // them, and the bar draws at most once a frame.
    let renders_before = bar.renders("Event(Mpd)");
    let started = std::time::Instant::now();
    let burst = mpd.set_volume_times(500);
    // A second for the bar to catch up; the bound is a drawing a frame over all of it.
    std::thread::sleep(Duration::from_secs(1));
    let redraws = bar.renders("Event(Mpd)") - renders_before;
    let (gap, took) = (ringbar::app::pacing::GAP, started.elapsed());
    let most = took.as_millis() as u64 / gap.as_millis() as u64 + 3;
    eprintln!("500 volume changes in {burst:?}: {redraws} redraws in {took:?} (at most {most})");
    assert!(redraws > 0, "the changes were drawn");
    assert!(redraws <= most, "{redraws} redraws for 500 changes");
    assert!(mpd.mpc(&["volume"]).contains("99%"), "the last volume");

    // MPD killed: hidden, and said once; started again: back.
    mpd.kill();
    wait_for("hidden without MPD", WAIT, || {
        bar.field("mpd.visible") == "false"
    });
    bar.wait_for_log("mpd: no MPD at");
    mpd.start();
    bar.wait_for_log("mpd: connected to MPD at");
    wait_for("back", WAIT, || {
        label() == "stopped" && bar.field("mpd.visible") == "true"
    });
    // (A killed MPD saved no queue.)
    mpd.mpc(&["clear"]);
    mpd.mpc(&["add", "/"]);
    mpd.mpc(&["play", "3"]);
    wait_for_label(&bar, "playing again", |l| l.starts_with("P Gamma - Three"));

    // A reload to MPD's TCP port: the source starts again with the new server.
    let opened = |log: &str| log.matches("opened from 127.0.0.1").count();
    let before = opened(&mpd.log());
    write_config(
        &session,
        &format!("server = \"127.0.0.1\"\nport = {}\n", mpd.port),
    );
    wait_for("a connection over TCP", WAIT, || {
        opened(&mpd.log()) > before
    });
    mpd.mpc(&["pause"]);
    wait_for("paused, told over TCP", WAIT, || {
        label().starts_with("II Gamma - Three")
    });
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    let log = bar.log_text();
    assert_eq!(
        log.matches("mpd: no MPD at").count(),
        2,
        "once an absence: {log}"
    );
    bar.stop();

    // `--once --json` asks MPD once.
    let doc = session.once_json(&[("MPD_HOST", mpd_host)]);
    let module = &doc["modules"][0];
    assert_eq!(module["name"], "mpd", "{module}");
    assert_eq!(module["class"], "paused", "{module}");
    let text = module["text"].as_str().expect("text");
    assert!(text.starts_with("II Gamma - Three 00:"), "{text}");
}
