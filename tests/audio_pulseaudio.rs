//! The audio module against PulseAudio itself (Debian's 16.1, with a null sink), as
//! against PipeWire's pipewire-pulse in `tests/audio.rs`: the bar speaks the protocol on
//! its own, and PulseAudio lets it in by the user's cookie. The volume set with `pactl`
//! is read back; the wheel and a click change what `pactl` reports; the server killed
//! hides the module, and started again brings it back.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::bus::Helper;
use common::session::{Compositor, RunningBar, Session};
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

/// PulseAudio as the test user, with a null sink `rbnull`; returns once it listens.
fn start_pulseaudio(session: &Session) -> Helper {
    let log = std::fs::File::create(session.path().join("pulseaudio.log")).expect("log");
    let child = session
        .as_user("pulseaudio")
        .args([
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--log-target=stderr",
            "-L",
            "module-native-protocol-unix",
            "-L",
            "module-null-sink sink_name=rbnull sink_properties=device.description=RbNull",
        ])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start pulseaudio (Debian's pulseaudio)");
    let daemon = Helper(child);
    wait_for("PulseAudio's sink", WAIT, || {
        pactl(session, &["get-sink-volume", "rbnull"]).contains('%')
    });
    daemon
}

fn pactl(session: &Session, args: &[&str]) -> String {
    let out = session.as_user("pactl").args(args).output().expect("pactl");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The sink's volume as `pactl` prints it for its first channel (`40%`).
fn volume(session: &Session) -> String {
    let out = pactl(session, &["get-sink-volume", "rbnull"]);
    let percent = out.split_whitespace().find(|word| word.ends_with('%'));
    percent.unwrap_or_default().to_owned()
}

fn muted(session: &Session) -> bool {
    pactl(session, &["get-sink-mute", "rbnull"]).contains("yes")
}

fn aim<'s>(
    session: &'s Session,
    bar: &RunningBar,
) -> std::cell::RefMut<'s, common::screen::Pointer> {
    bar.point_at(session, "pulseaudio")
}

#[test]
fn the_module_speaks_to_pulseaudio_itself() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let mut server = start_pulseaudio(&session);
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"pulseaudio\"]\n\
         [pulseaudio]\nformat = \"VOL {volume}% {desc}\"\n",
    );
    let bar = session.start_bar(&[]);
    let label = || bar.field("pulseaudio");
    wait_for("the sink on the label", WAIT, || {
        label() == "VOL 100% RbNull"
    });

    pactl(&session, &["set-sink-volume", "rbnull", "40%"]);
    wait_for("40 % on the label", WAIT, || label() == "VOL 40% RbNull");
    aim(&session, &bar).scroll("up");
    wait_for("45 % by the wheel", WAIT, || volume(&session) == "45%");
    wait_for("45 % on the label", WAIT, || label() == "VOL 45% RbNull");
    aim(&session, &bar).click("left");
    wait_for("muted by a click", WAIT, || muted(&session));
    wait_for("the bar shows it muted", WAIT, || label() == "VOL muted");

    server.kill();
    wait_for("hidden without a server", WAIT, || {
        bar.field("pulseaudio.visible") == "false"
    });
    let _server = start_pulseaudio(&session);
    wait_for("shown with the new server", WAIT, || {
        bar.field("pulseaudio.visible") == "true" && label() == "VOL 100% RbNull"
    });
    let log = bar.log_text();
    assert!(!log.contains("ERROR") && !log.contains("panicked"), "{log}");
}
