//! The privacy module's text, tooltip and hiding.

use std::path::Path;

use super::*;
use crate::events::audio::{AppStream, AudioState};
use crate::events::capture::{Capture, CaptureKind, CaptureState};
use crate::modules::tests::input;
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"privacy\"]\n[privacy]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

fn recording(app: &str, pid: Option<u32>) -> AppStream {
    AppStream {
        app: app.to_owned(),
        pid,
        device: "Null Input".to_owned(),
    }
}

fn events(recordings: Vec<AppStream>) -> Events {
    Events::default().with(Some(AudioState {
        recordings,
        ..AudioState::default()
    }))
}

fn shown(module: &dyn Module, events: &Events) -> (String, Option<Status>, String) {
    let sample = Sample::default();
    let input = Input {
        events,
        ..input(&sample)
    };
    let mut out = String::new();
    let status = module.text(&input, &mut out);
    let mut tooltip = String::new();
    if status.is_some() {
        module.tooltip(&mut Plain(&mut tooltip), &input);
    }
    (out, status, tooltip)
}

#[test]
fn shown_only_while_something_records() {
    let privacy = module("");
    let two = events(vec![
        recording("pw-record", Some(42)),
        recording("Firefox", None),
        recording("pw-record", Some(43)),
    ]);
    let (text, status, tooltip) = shown(privacy.as_ref(), &two);
    assert_eq!(text, "MIC pw-record, Firefox");
    assert_eq!(status.expect("shown").class, Some("microphone"));
    assert_eq!(
        tooltip,
        "Microphone  in use\n  pw-record (pid 42) · Null Input\n  Firefox · Null Input\n  \
         pw-record (pid 43) · Null Input\n"
    );
    assert_eq!(shown(privacy.as_ref(), &events(vec![])).1, None);
    assert_eq!(shown(privacy.as_ref(), &Events::default()).1, None);
    let counted = module("format = \"{icon}{count}\"\nformat-icons = \"M\"");
    assert_eq!(shown(counted.as_ref(), &two).0, "M2");
}

#[test]
fn names_are_escaped_and_settings_checked() {
    let privacy = module("on-click = \"pavucontrol\"");
    let hostile = events(vec![recording("<b>rec</b>", None)]);
    let sample = Sample::default();
    let input = Input {
        events: &hostile,
        ..input(&sample)
    };
    let mut markup = String::new();
    privacy.tooltip(&mut Markup(&mut markup), &input);
    assert!(markup.contains("&lt;b&gt;rec&lt;/b&gt;"), "{markup}");
    assert_eq!(
        privacy.action(Button::Left),
        Some(Action::Run(Button::Left))
    );
    assert_eq!(module("").action(Button::Left), None);
    assert!(privacy
        .follows()
        .contains(&Update::Event(EventSource::of::<AudioState>())));
    assert!(privacy
        .follows()
        .contains(&Update::Event(EventSource::of::<CaptureState>())));
    assert!(!privacy.follows().contains(&Update::Sample));
    crate::modules::tests::refused(
        "privacy",
        &[
            "format = \"{camera}\"",
            "on-click-right = [\"x\"]",
            "on-wheel = \"x\"",
        ],
    );
}

fn capture(kind: CaptureKind, app: &str, pid: Option<u32>) -> Capture {
    Capture {
        kind,
        app: app.to_owned(),
        pid,
        source: format!("{app} source"),
    }
}

#[test]
fn cameras_and_screen_shares_have_parts_of_their_own() {
    let privacy = module(
        "format-icons = { camera = \"C\", screen = \"S\" }\n\
         format-camera = \"{icon}{apps}\"\nformat-screen = \"{icon}{count}\"",
    );
    let mut all = events(vec![recording("pw-record", Some(7))]);
    all.set(Some(CaptureState {
        captures: vec![
            capture(CaptureKind::Screen, "obs", Some(9)),
            capture(CaptureKind::Camera, "Firefox", None),
            capture(CaptureKind::Screen, "<i>x</i>", None),
        ],
    }));
    let (text, status, tooltip) = shown(privacy.as_ref(), &all);
    // The microphone, the camera, then the screen, whatever the graph's order.
    assert_eq!(text, "MIC pw-record CFirefox S2");
    let status = status.expect("shown");
    assert_eq!(status.class, Some("microphone"));
    assert_eq!(status.classes, ["camera", "screen"]);
    assert_eq!(
        tooltip,
        "Microphone  in use\n  pw-record (pid 7) · Null Input\n\
         Camera  in use\n  Firefox · Firefox source\n\
         Screen share  in use\n  obs (pid 9) · obs source\n  <i>x</i> · <i>x</i> source\n"
    );
    // Without the microphone, the screen alone; `format` is still the microphone's.
    let old = module("format = \"REC {apps}\"");
    let screen_only = Events::default().with(Some(CaptureState {
        captures: vec![capture(CaptureKind::Screen, "obs", None)],
    }));
    let (text, status, _) = shown(old.as_ref(), &screen_only);
    assert_eq!(text, "SCREEN obs");
    assert_eq!(status.expect("shown").class, Some("screen"));
    assert_eq!(
        shown(old.as_ref(), &all).0,
        "REC pw-record CAM Firefox SCREEN obs, <i>x</i>"
    );
    // Nothing captured, or no PipeWire: hidden.
    let idle = Events::default().with(Some(CaptureState::default()));
    assert_eq!(shown(old.as_ref(), &idle).1, None);
}

#[test]
fn modules_names_the_kinds_shown_as_waybar_does() {
    let mut all = events(vec![recording("pw-record", Some(7))]);
    all.set(Some(CaptureState {
        captures: vec![
            capture(CaptureKind::Screen, "obs", Some(9)),
            capture(CaptureKind::Camera, "Firefox", None),
        ],
    }));
    let microphone = module("modules = [\"audio-in\"]");
    let (text, status, tooltip) = shown(microphone.as_ref(), &all);
    assert_eq!(text, "MIC pw-record");
    assert!(status.expect("shown").classes.is_empty());
    assert!(!tooltip.contains("Camera"), "{tooltip}");
    // Waybar's screenshare is any video capture: cameras and screens.
    let video = module("modules = [\"screenshare\"]");
    assert_eq!(shown(video.as_ref(), &all).0, "CAM Firefox SCREEN obs");
    assert_eq!(
        shown(module("modules = [\"screen\"]").as_ref(), &all).0,
        "SCREEN obs"
    );
    let recording_only = events(vec![recording("pw-record", Some(7))]);
    assert_eq!(
        shown(video.as_ref(), &recording_only).1,
        None,
        "nothing of its kinds"
    );
    let bad = "modules_right = [\"privacy\"]\n[privacy]\nmodules = [\"location\"]\n";
    let err = crate::config::parse(bad, Path::new("c.toml")).expect_err("location");
    assert!(err.to_string().contains("`location`"), "{err}");
}

#[test]
fn waybars_modules_carry_over_where_ringbar_shows_them() {
    let carry = |value: serde_json::Value| super::from_waybar("modules", &value);
    let carried = carry(serde_json::json!([
        {"type": "screenshare", "tooltip": true, "tooltip-icon-size": 24},
        {"type": "audio-in"}
    ]));
    assert_eq!(
        carried,
        Carried::Set(vec![(
            "modules".to_owned(),
            toml::Value::Array(vec!["screenshare".into(), "audio-in".into()])
        )])
    );
    assert!(matches!(
        carry(serde_json::json!([{"type": "audio-out"}])),
        Carried::Set(_)
    ));
    for unshown in [
        serde_json::json!([{"type": "audio-in", "tooltip": false}]),
        serde_json::json!([{"type": "screenshare", "icon-name": "camera"}]),
    ] {
        assert!(matches!(carry(unshown), Carried::Refused(_)));
    }
}

#[test]
fn the_speakers_are_shown_only_when_asked_for() {
    let mut playing = events(vec![recording("pw-record", Some(7))]);
    let mut audio = playing.get::<AudioState>().cloned().expect("audio");
    audio.playbacks = vec![AppStream {
        app: "mpv".to_owned(),
        pid: Some(11),
        device: "Null Output".to_owned(),
    }];
    playing.set(Some(audio));
    assert_eq!(
        shown(module("").as_ref(), &playing).0,
        "MIC pw-record",
        "not by default"
    );
    let asked = module("modules = [\"audio-in\", \"audio-out\"]\nformat-speaker = \"♪ {apps}\"");
    let (text, status, tooltip) = shown(asked.as_ref(), &playing);
    assert_eq!(text, "MIC pw-record ♪ mpv");
    assert_eq!(status.expect("shown").classes, ["speaker"]);
    assert!(
        tooltip.ends_with("Speakers  in use\n  mpv (pid 11) · Null Output\n"),
        "{tooltip}"
    );
    let speaker_only = module("modules = [\"speaker\"]");
    assert_eq!(shown(speaker_only.as_ref(), &playing).0, "OUT mpv");
}
