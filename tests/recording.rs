//! The privacy module against real PipeWire (with WirePlumber and pipewire-pulse, as the
//! test user): a virtual input device, `pw-record` recording from it, and the bar's
//! microphone indicator naming `pw-record` until the recording ends. A recording of the
//! null sink's monitor by `parecord` (what the speakers play, as a screen recorder takes
//! it) is no microphone and is not shown.

mod common;

use std::time::Duration;

use common::bus::{bus_address, start_session_bus, Helper};
use common::session::{Compositor, Session, WIDTH};
use common::sound::Sound;
use common::{ocr, require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn the_microphone_indicator_names_the_recording_app() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let sound = Sound::start(&session);
    // A virtual microphone: a source of its own, not a sink's monitor.
    sound.run(
        "pactl",
        &[
            "load-module",
            "module-null-sink",
            "sink_name=rbmic",
            "media.class=Audio/Source/Virtual",
            "sink_properties=device.description=RingbarMic",
        ],
    );
    wait_for("the virtual microphone", WAIT, || {
        sound
            .output("pactl", &["list", "short", "sources"])
            .lines()
            .any(|l| l.split('\t').nth(1) == Some("rbmic"))
    });
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"privacy\"]\n",
    );
    let address = bus_address(&session);
    let bar = session.start_bar(&[("DBUS_SESSION_BUS_ADDRESS", address.as_str())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the bar drawn", WAIT, || {
        !bar.field("privacy.visible").is_empty()
    });
    assert_eq!(bar.field("privacy.visible"), "false", "nothing records");

    // What the speakers play, recorded (as a screen recorder does): no microphone.
    let file = |name: &str| session.home().join(name).display().to_string();
    let monitor = Helper(
        sound
            .user("parecord")
            .args(["--device", "rbnull.monitor"])
            .arg(file("monitor.wav"))
            .spawn()
            .expect("run parecord (Debian's pulseaudio-utils)"),
    );
    wait_for("the monitor's recording stream", WAIT, || {
        sound
            .output("pactl", &["list", "short", "source-outputs"])
            .lines()
            .count()
            == 1
    });
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        bar.field("privacy.visible"),
        "false",
        "a monitor is no microphone"
    );

    // The microphone recorded: shown, naming pw-record.
    let mut recording = Helper(
        sound
            .user("pw-record")
            .args(["--target", "rbmic"])
            .arg(file("mic.wav"))
            .spawn()
            .expect("run pw-record"),
    );
    wait_for("the indicator", WAIT, || {
        bar.field("privacy") == "MIC pw-record"
    });
    assert_eq!(bar.field("privacy.classes"), "module,privacy,microphone");
    wait_for("`MIC pw-record` on screen", WAIT, || {
        let seen = ocr::read_text(&session.screenshot(WIDTH - 300, 0, 300, 26));
        seen.contains("MIC pw-record")
    });

    // The recording ends: hidden again (the monitor's still runs).
    recording.kill();
    wait_for("hidden after the recording", WAIT, || {
        bar.field("privacy.visible") == "false"
    });
    drop(monitor);
}
