//! The audio module against a real sound server: PipeWire with WirePlumber and
//! pipewire-pulse, run as the test user on a session bus, with a null sink. Volume and
//! mute are changed with `wpctl` and `pactl` and read back from the bar, by its test hook
//! and by OCR from a sway screenshot; the wheel and a click on the module change what
//! `wpctl` reports; PipeWire killed and started again, five times, brings the module back.

mod common;

use std::time::Duration;

use common::bus::{bus_address, start_session_bus};
use common::session::{Compositor, RunningBar, Session};
use common::sound::Sound;
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);

fn start_bar(session: &Session, format: &str) -> RunningBar {
    start_bar_with(session, format, "")
}

/// The bar with the module's `format` and more of its table.
fn start_bar_with(session: &Session, format: &str, more: &str) -> RunningBar {
    session.write_config_file(
        "config.toml",
        &format!(
            "interval_ms = 500\nmodules_left = []\nmodules_center = []\n\
             modules_right = [\"pulseaudio\"]\n[pulseaudio]\nformat = {format:?}\n{more}"
        ),
    );
    let address = bus_address(session);
    session.start_bar(&[("DBUS_SESSION_BUS_ADDRESS", address.as_str())])
}

/// The module's bounds in the bar: (x, y, width, height).
fn bounds(bar: &RunningBar) -> (u32, u32, u32, u32) {
    let field = bar.laid_out_field("pulseaudio.bounds");
    let numbers: Vec<u32> = field.split(',').filter_map(|n| n.parse().ok()).collect();
    assert_eq!(numbers.len(), 4, "bounds {field:?}");
    (numbers[0], numbers[1], numbers[2], numbers[3])
}

fn on_screen(session: &Session, bar: &RunningBar) -> String {
    let (x, _, width, _) = bounds(bar);
    common::ocr::read_text(&session.screenshot(x.saturating_sub(4), 0, width + 8, 26))
}

#[test]
fn volume_and_mute_follow_the_server_and_the_wheel() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut sound = Sound::start(&session);
    let mut bar = start_bar(&session, "VOL {volume}% {desc}");
    let label = || bar.field("pulseaudio");
    let classes = || bar.field("pulseaudio.classes");

    sound.run("wpctl", &["set-volume", "@DEFAULT_AUDIO_SINK@", "0.45"]);
    wait_for("45 % on the label", WAIT, || {
        label() == "VOL 45% RingbarNull"
    });
    wait_for("45 % on screen", WAIT, || {
        on_screen(&session, &bar).contains("45%")
    });
    sound.run("pactl", &["set-sink-mute", "rbnull", "1"]);
    wait_for("muted", WAIT, || {
        label() == "VOL muted" && classes().split(',').any(|c| c == "muted")
    });
    wait_for("muted on screen", WAIT, || {
        on_screen(&session, &bar).contains("muted")
    });
    sound.run("pactl", &["set-sink-mute", "rbnull", "0"]);
    wait_for("unmuted", WAIT, || {
        !classes().split(',').any(|c| c == "muted")
    });

    // The wheel on the module: one step of 5 % up, two down, as wpctl reports them.
    // The label narrows when muted ("VOL muted"), towards the bar's right end: the
    // pointer aims near its right end, as laid out, which the narrow one covers too.
    let mut pointer = session.pointer();
    let aim = |pointer: &mut std::cell::RefMut<'_, common::screen::Pointer>| {
        let (x, y, width, height) = bounds(&bar);
        pointer.move_to(x + width.saturating_sub(12), y + height / 2);
        // Let the compositor send the pointer's enter or motion first.
        std::thread::sleep(Duration::from_millis(300));
    };
    aim(&mut pointer);
    pointer.scroll("up");
    wait_for("50 % by the wheel", WAIT, || {
        sound.wpctl_volume() == "Volume: 0.50"
    });
    pointer.scroll("down");
    pointer.scroll("down");
    wait_for("40 % by the wheel", WAIT, || {
        sound.wpctl_volume() == "Volume: 0.40"
    });
    wait_for("40 % on the label", WAIT, || {
        label() == "VOL 40% RingbarNull"
    });
    aim(&mut pointer);
    pointer.click("left");
    wait_for("muted by a click", WAIT, || {
        sound.wpctl_volume() == "Volume: 0.40 [MUTED]"
    });
    // The click's state on the label at once, though the server's read of it finds it
    // unchanged.
    wait_for("the bar shows it muted", WAIT, || label() == "VOL muted");
    aim(&mut pointer);
    pointer.click("left");
    wait_for("unmuted by a click", WAIT, || {
        sound.wpctl_volume() == "Volume: 0.40"
    });
    wait_for("the bar shows it unmuted", WAIT, || {
        label() == "VOL 40% RingbarNull"
    });
    aim(&mut pointer);

    // A server that stops answering (SIGSTOP) never holds the bar up: the wheel and a
    // click on the module while it is stopped, and the main loop stays on time.
    let server = sound.pulse_server_pid().to_string();
    let window = common::stalls::Window::open(&session.hook_dir());
    sound.run_as_root("kill", &["-STOP", &server]);
    pointer.scroll("up");
    pointer.click("left");
    pointer.scroll("up");
    std::thread::sleep(Duration::from_secs(3));
    window.assert_on_time("the stopped server");
    sound.run_as_root("kill", &["-CONT", &server]);
    // Answered once it runs again: the click muted, the wheel stepped 40 → 50.
    wait_for("the commands carried out", WAIT, || {
        sound.wpctl_volume() == "Volume: 0.50 [MUTED]"
    });
    // A click toggles what the bar shows: the server's reads of its state after the
    // queued commands come in one by one, the last of them muted.
    wait_for("the bar shows it muted again", WAIT, || {
        label() == "VOL muted"
    });
    aim(&mut pointer);
    pointer.click("left");
    wait_for("unmuted again", WAIT, || {
        sound.wpctl_volume() == "Volume: 0.50"
    });

    // The server dies: the module hides (and says so once); it comes back with it. Five
    // times: the sinks and the default come back in a different order each time.
    for round in 1..=5 {
        sound.stop_daemons();
        wait_for("hidden without a server", WAIT, || {
            bar.field("pulseaudio.visible") == "false"
        });
        bar.wait_for_log("audio: no sound server");
        sound.start_daemons();
        // WirePlumber may restore the sink's last volume: any volume will do.
        let back = || {
            let label = label();
            bar.field("pulseaudio.visible") == "true"
                && label.starts_with("VOL ")
                && label.ends_with("% RingbarNull")
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while !back() {
            assert!(
                std::time::Instant::now() < deadline,
                "not back with the server (round {round}): label {:?}, visible {:?}; pactl: {}; the bar's log:\n{}",
                label(),
                bar.field("pulseaudio.visible"),
                sound.output("pactl", &["info"]),
                bar.log_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        assert_eq!(
            bar.log_text()
                .matches("audio: connected to the sound server")
                .count(),
            round,
            "connected once a round: {}",
            bar.log_text()
        );
        assert_eq!(
            bar.log_text().matches("audio: no sound server").count(),
            round,
            "gone once a round: {}",
            bar.log_text()
        );
    }

    // A description with markup is text, on the label and in the tooltip.
    sound.null_sink("rbodd", "'<b>odd</b>&amp;'");
    sound.run("pactl", &["set-default-sink", "rbodd"]);
    wait_for("the odd sink's name as text", WAIT, || {
        label().ends_with("% <b>odd</b>&amp;")
    });
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    bar.stop();

    // `--once --json` asks the server once.
    let ringbar = session.installed_bar();
    let ringbar = ringbar.to_str().expect("path");
    let json = sound.output(ringbar, &["--once", "--json", "--interval-ms", "100"]);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let module = &doc["modules"][0];
    assert_eq!(module["name"], "pulseaudio", "{module}");
    let text = module["text"].as_str().expect("shown");
    assert!(text.ends_with("% <b>odd</b>&amp;"), "{text}");
}

/// Waybar's `ignored-sinks`: an effects sink the user made the default is never shown;
/// the module shows and steers the other sink, and follows the default when it moves to
/// a sink not ignored.
#[test]
fn an_ignored_default_sink_gives_way_to_the_other() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let sound = Sound::start(&session);
    sound.null_sink("rbfx", "EffectsSink");
    sound.run("pactl", &["set-sink-volume", "rbnull", "30%"]);
    sound.run("pactl", &["set-sink-volume", "rbfx", "80%"]);
    sound.run("pactl", &["set-default-sink", "rbfx"]);
    let bar = start_bar_with(
        &session,
        "VOL {volume}% {desc}",
        "ignored-sinks = [\"EffectsSink\"]\n",
    );
    let label = || bar.field("pulseaudio");
    wait_for("the other sink shown", WAIT, || {
        label() == "VOL 30% RingbarNull"
    });
    let volume_of = |sink: &str| sound.output("pactl", &["get-sink-volume", sink]);
    let (x, y, width, height) = bounds(&bar);
    let mut pointer = session.pointer();
    pointer.move_to(x + width / 2, y + height / 2);
    std::thread::sleep(Duration::from_millis(300));
    pointer.scroll("up");
    wait_for("the wheel steps the sink shown", WAIT, || {
        volume_of("rbnull").contains("35%")
    });
    assert!(volume_of("rbfx").contains("80%"), "{}", volume_of("rbfx"));
    wait_for("35 % on the label", WAIT, || {
        label() == "VOL 35% RingbarNull"
    });
    // A third sink made the default, not ignored: shown.
    sound.null_sink("rbthird", "Third");
    sound.run("pactl", &["set-sink-volume", "rbthird", "60%"]);
    sound.run("pactl", &["set-default-sink", "rbthird"]);
    wait_for("the new default shown", WAIT, || label() == "VOL 60% Third");
    let log = bar.log_text();
    assert!(!log.contains("ERROR"), "{log}");
}

/// The server's last event and its end reach the bar together: the event's read of the
/// state comes on a later turn of the main loop than the event, and by then the connection
/// is gone (libpulse, which the bar once used, refused a request on a closed connection,
/// and its Rust binding panicked). The bar is stopped while the server changes a volume
/// and dies, so that both wait for it; three times: it runs on, hides, and comes back.
#[test]
fn a_server_that_dies_after_an_event_leaves_the_bar_running() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let mut sound = Sound::start(&session);
    let mut bar = start_bar(&session, "VOL {volume}%");
    let pid = bar.pid().to_string();
    for round in 1..=3 {
        wait_for("shown with the server", WAIT, || {
            bar.field("pulseaudio.visible") == "true"
        });
        sound.run_as_root("kill", &["-STOP", &pid]);
        sound.run("pactl", &["set-sink-volume", "rbnull", "+1%"]);
        sound.stop_daemons();
        sound.run_as_root("kill", &["-CONT", &pid]);
        wait_for("hidden without a server", WAIT, || {
            bar.try_wait().is_some() || bar.field("pulseaudio.visible") == "false"
        });
        assert!(
            bar.try_wait().is_none(),
            "the bar ended (round {round}): {}",
            bar.log_text()
        );
        sound.start_daemons();
    }
}

/// The names of the sound libraries a process has mapped.
fn sound_libraries(pid: u32) -> Vec<String> {
    let sound = [
        "libpulse",
        "libpipewire",
        "libsndfile",
        "libringbar_sound",
        "libringbar_video",
    ];
    (common::mapped_objects(pid).into_iter())
        .filter(|name| sound.iter().any(|lib| name.starts_with(lib)))
        .collect()
}

/// A bar without `audio` or `privacy` maps no sound library (no plugin is opened); a
/// reload that lists `audio` opens the sound plugin, and the module shows the server,
/// speaking its protocol itself: neither libpulse (nor the codec libraries it links) nor
/// PipeWire's library (the video plugin's, for `privacy` only) is mapped.
#[test]
fn the_sound_libraries_are_mapped_only_once_a_module_needs_them() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let _sound = Sound::start(&session);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\nmodules_right = []\n",
    );
    let address = bus_address(&session);
    let bar = session.start_bar(&[("DBUS_SESSION_BUS_ADDRESS", address.as_str())]);
    wait_for("the clock", WAIT, || !bar.field("clock").is_empty());
    assert_eq!(sound_libraries(bar.pid()), Vec::<String>::new());

    session.write_config_file(
        "config.toml",
        "modules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\n\
         modules_right = [\"pulseaudio\"]\n[pulseaudio]\nformat = \"VOL {volume}%\"\n",
    );
    bar.send_reload();
    wait_for("the volume after the reload", WAIT, || {
        bar.field("pulseaudio").starts_with("VOL ")
    });
    let mapped = sound_libraries(bar.pid());
    assert!(
        mapped
            .iter()
            .any(|name| name.starts_with("libringbar_sound.so")),
        "the sound plugin is not mapped: {mapped:?}"
    );
    for lib in [
        "libpulse",
        "libsndfile",
        "libpipewire",
        "libringbar_video.so",
    ] {
        assert!(
            !mapped.iter().any(|name| name.starts_with(lib)),
            "{lib} is mapped for audio alone: {mapped:?}"
        );
    }
}

/// A bar whose sound plugin is missing says where it looked, and runs on: `--once`
/// answers, the module hidden.
#[test]
fn a_missing_sound_plugin_is_said_and_the_bar_runs_on() {
    let folder = tempfile::tempdir().expect("a folder");
    let bar = folder.path().join("ringbar");
    std::fs::copy(env!("CARGO_BIN_EXE_ringbar"), &bar).expect("copy ringbar alone");
    let config = folder.path().join("config");
    std::fs::create_dir_all(config.join("ringbar")).expect("config folder");
    std::fs::write(
        config.join("ringbar/config.toml"),
        "modules_left = []\nmodules_center = []\nmodules_right = [\"pulseaudio\"]\n",
    )
    .expect("config");
    let out = std::process::Command::new(&bar)
        .args(["--once", "--json", "--interval-ms", "100"])
        .env("XDG_CONFIG_HOME", &config)
        .env("RINGBAR_PROBE_SOCKET", "/nonexistent")
        .output()
        .expect("run the copy");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "--once failed: {log}");
    let expected = format!(
        "no libringbar_sound.so (looked for {}",
        folder.path().display()
    );
    assert!(log.contains(&expected), "no word of the plugin: {log}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let modules = json["modules"].as_array().expect("modules");
    let audio = (modules.iter())
        .find(|m| m["name"] == "pulseaudio" || m["name"] == "audio")
        .expect("the module");
    assert_eq!(audio["visible"], false, "{audio}");
}
