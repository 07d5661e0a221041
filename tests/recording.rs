//! The privacy module against real PipeWire (with WirePlumber and pipewire-pulse, as the
//! test user): a virtual input device, `pw-record` recording from it, and the bar's
//! microphone indicator naming `pw-record` until the recording ends. A recording of the
//! null sink's monitor by `parecord` (what the speakers play, as a screen recorder takes
//! it) is no microphone and is not shown. With `icon-size`, the microphone's icon is
//! drawn instead, as Waybar draws it.

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
    assert_eq!(classes_of(&bar), ["microphone", "module", "privacy"]);
    wait_for("`MIC pw-record` on screen", WAIT, || {
        let seen = ocr::read_text(&session.screenshot(WIDTH - 300, 0, 300, 26));
        seen.contains("MIC pw-record")
    });

    // Waybar's look: the microphone's icon, drawn, in a `#privacy-item.audio-in`.
    let reloads = || bar.log_text().matches("reloading the config").count();
    let before = reloads();
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"privacy\"]\n\
         [privacy]\nicon-size = 20\n",
    );
    wait_for("the reload", WAIT, || reloads() > before);
    wait_for("the microphone's icon", WAIT, || {
        bar.field("privacy") == ":audio-in+microphone@audio-input-microphone-symbolic"
    });
    let (x, y) = bar.button_center("privacy", 0);
    let icon = session.screenshot(x - 10, y - 10, 20, 20);
    let background = icon.pixel(0, 0);
    let drawn = icon.count(0, 20, |p| (0..3).any(|i| p[i].abs_diff(background[i]) > 40));
    assert!(drawn > 20, "{drawn} pixels of the symbolic icon");
    // Waybar's selector styles it: the symbolic icon takes the colour.
    session.write_config_file(
        "style.css",
        "#privacy-item.audio-in { color: rgb(240, 20, 20); }\n",
    );
    wait_for("the icon in the user's colour", WAIT, || {
        let icon = session.screenshot(x - 10, y - 10, 20, 20);
        icon.count(0, 20, |p| p[0] > 150 && p[1] < 80 && p[2] < 80) > 20
    });

    // The recording ends: hidden again (the monitor's still runs).
    recording.kill();
    wait_for("hidden after the recording", WAIT, || {
        bar.field("privacy.visible") == "false"
    });
    drop(monitor);
}

/// The privacy label's classes, sorted: GTK keeps them in the order their names were
/// first seen in the process (the default style names some).
fn classes_of(bar: &common::running_bar::RunningBar) -> Vec<String> {
    let mut classes: Vec<String> = bar
        .field("privacy.classes")
        .split(',')
        .map(str::to_owned)
        .collect();
    classes.sort_unstable();
    classes
}

/// A video source served by GStreamer's `pipewiresink` through the real PipeWire: made
/// by a program, it stands for a screen-cast portal's source; with `device.api = v4l2`
/// (what PipeWire's v4l2 monitor gives a webcam's node; this machine has no camera), for
/// a camera. Killed with the test.
fn video_source(sound: &Sound<'_>, name: &str, camera: bool) -> Helper {
    let device = if camera { ",device.api=v4l2" } else { "" };
    let properties = format!(
        "stream-properties=props,media.class=Video/Source,node.name={name},\
         node.description={name}{device}"
    );
    let child = sound
        .user("gst-launch-1.0")
        .args(["-q", "videotestsrc", "is-live=true", "!"])
        .args([
            "video/x-raw,format=RGB,width=64,height=48,framerate=10/1",
            "!",
        ])
        .args(["pipewiresink", "mode=provide", &properties])
        .spawn()
        .expect("run gst-launch-1.0 (Debian's gstreamer1.0-tools, gstreamer1.0-pipewire)");
    Helper(child)
}

/// Waits until PipeWire lists the node `name`: a reader started before its source exists
/// (right after PipeWire restarted, on a loaded machine) has nothing to link to.
fn wait_for_node(sound: &Sound<'_>, name: &str) {
    let needle = format!("node.name = \"{name}\"");
    wait_for(&format!("PipeWire's node {name}"), WAIT, || {
        sound.output("pw-cli", &["ls", "Node"]).contains(&needle)
    });
}

/// A program reading the video source `name`: `gst-launch-1.0` with `pipewiresrc` (a
/// format on both ends: without one the link is never negotiated).
fn video_reader(sound: &Sound<'_>, name: &str) -> Helper {
    let child = sound
        .user("gst-launch-1.0")
        .args(["-q", "pipewiresrc", &format!("target-object={name}"), "!"])
        .args(["video/x-raw,format=RGB", "!", "fakesink"])
        .spawn()
        .expect("run gst-launch-1.0");
    Helper(child)
}

#[test]
fn cameras_and_screen_shares_are_named_until_they_stop() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut sound = Sound::start(&session);
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"privacy\"]\n\
         [privacy]\nformat-screen = \"SHARE {apps}\"\n",
    );
    let address = bus_address(&session);
    let bar = session.start_bar(&[("DBUS_SESSION_BUS_ADDRESS", address.as_str())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let _screen = video_source(&sound, "rbscreen", false);
    let _camera = video_source(&sound, "rbcamera", true);
    wait_for_node(&sound, "rbscreen");
    wait_for_node(&sound, "rbcamera");
    // Sources nobody reads capture nothing.
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(bar.field("privacy.visible"), "false", "{}", bar.log_text());

    let mut share = video_reader(&sound, "rbscreen");
    wait_for("the screen share", WAIT, || {
        bar.field("privacy") == "SHARE gst-launch-1.0"
    });
    assert_eq!(classes_of(&bar), ["module", "privacy", "screen"]);
    let mut watching = video_reader(&sound, "rbcamera");
    wait_for("the camera beside it", WAIT, || {
        bar.field("privacy") == "CAM gst-launch-1.0 SHARE gst-launch-1.0"
    });
    assert_eq!(classes_of(&bar), ["camera", "module", "privacy", "screen"]);
    // Tesseract reads the `l` of `launch` as `L` or `lL` in this font.
    wait_for("both on screen", WAIT, || {
        let seen = ocr::read_text(&session.screenshot(WIDTH - 500, 0, 500, 26));
        seen.starts_with("CAM gst-") && seen.contains(" SHARE gst-")
    });

    // The share ends; then the camera's reader.
    share.kill();
    wait_for("the camera alone", WAIT, || {
        bar.field("privacy") == "CAM gst-launch-1.0"
    });
    watching.kill();
    wait_for("hidden", WAIT, || bar.field("privacy.visible") == "false");

    // PipeWire restarts: the bar finds the new one by itself.
    drop((_screen, _camera));
    sound.stop_daemons();
    bar.wait_for_log("privacy: PipeWire went away");
    sound.start_daemons();
    bar.wait_for_log("privacy: PipeWire is back");
    let _screen = video_source(&sound, "rbscreen", false);
    wait_for_node(&sound, "rbscreen");
    let _share = video_reader(&sound, "rbscreen");
    wait_for("a share on the new PipeWire", WAIT, || {
        bar.field("privacy") == "SHARE gst-launch-1.0"
    });
    // `privacy` opened both plugins: the sound server's and PipeWire's video graph's.
    let mapped = common::mapped_objects(bar.pid());
    for lib in ["libringbar_sound.so", "libringbar_video.so", "libpipewire"] {
        assert!(
            mapped.iter().any(|name| name.starts_with(lib)),
            "{lib} is not mapped: {mapped:?}"
        );
    }
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

/// Waybar's `audio-out`: the applications playing sound, when the config asks for them.
/// `pacat` plays silence into the null sink; once it ends, nothing is shown.
#[test]
fn the_speakers_name_the_playing_app_when_asked() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let sound = Sound::start(&session);
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"privacy\"]\n\
         [privacy]\nmodules = [\"audio-in\", \"audio-out\"]\n",
    );
    let address = bus_address(&session);
    let bar = session.start_bar(&[("DBUS_SESSION_BUS_ADDRESS", address.as_str())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the bar drawn", WAIT, || {
        !bar.field("privacy.visible").is_empty()
    });
    assert_eq!(bar.field("privacy.visible"), "false", "nothing plays");
    let zeros = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let mut playing = Helper(
        sound
            .user("pacat")
            .args([
                "--playback",
                "--device",
                "rbnull",
                "--client-name",
                "rb-player",
            ])
            .stdin(zeros)
            .spawn()
            .expect("run pacat (Debian's pulseaudio-utils)"),
    );
    wait_for("the speakers' indicator", WAIT, || {
        bar.field("privacy") == "OUT rb-player"
    });
    assert_eq!(classes_of(&bar), ["module", "privacy", "speaker"]);
    wait_for("`OUT rb-player` on screen", WAIT, || {
        let seen = ocr::read_text(&session.screenshot(WIDTH - 300, 0, 300, 26));
        seen.contains("OUT rb-player")
    });
    playing.kill();
    wait_for("hidden once it stops", WAIT, || {
        bar.field("privacy.visible") == "false"
    });
}
