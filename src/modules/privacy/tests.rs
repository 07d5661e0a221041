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
        serde_json::json!([{"type": "screenshare", "icon-name": 3}]),
        serde_json::json!([{"type": "location"}]),
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

#[test]
fn with_an_icon_size_each_kind_in_use_is_an_icon_with_its_own_tooltip() {
    use crate::modules::{RowButton, Target};
    let icons = module(
        "icon-size = 18\nicon-spacing = 6\nmodules = [\"audio-in\", \"screenshare\"]\n\
         icon-names = { camera = \"camera-video-symbolic\" }",
    );
    let Widget::Buttons(row) = icons.widget() else {
        panic!("a row of icons");
    };
    let style = row.icons();
    assert_eq!(
        (style.size, style.spacing, style.button_name),
        (18, 6, Some("privacy-item"))
    );
    let mut captured = events(vec![recording("pw-record <b>", Some(7))]);
    captured.set(Some(CaptureState {
        captures: vec![capture(CaptureKind::Camera, "cheese", Some(9))],
    }));
    let sample = Sample::default();
    let input = Input {
        events: &captured,
        ..input(&sample)
    };
    let mut buttons: Vec<RowButton> = Vec::new();
    row.buttons(&input, &mut buttons);
    assert_eq!(buttons.len(), 2, "{buttons:?}");
    assert_eq!(buttons[0].classes, ["audio-in", "microphone"]);
    assert_eq!(
        buttons[0].icon.as_deref(),
        Some("audio-input-microphone-symbolic")
    );
    assert_eq!(buttons[0].label, "", "an icon alone");
    assert_eq!(
        buttons[0].tooltip.as_deref(),
        Some("Microphone  in use\n  pw-record <b> (pid 7) · Null Input"),
        "plain text: GTK shows it as it is"
    );
    assert_eq!(buttons[1].classes, ["screenshare", "camera"]);
    assert_eq!(buttons[1].icon.as_deref(), Some("camera-video-symbolic"));
    assert!(buttons[1]
        .tooltip
        .as_deref()
        .unwrap_or("")
        .contains("cheese (pid 9)"));
    assert_eq!(row.press(&Target::Item(None), Button::Left, None), None);
    assert_eq!(
        row.press(&Target::Item(None), Button::Left, Some("pavucontrol")),
        Some(Action::Run(Button::Left))
    );
    // Nothing captured: no icon, and the row hides.
    row.buttons(&input_of(&Events::default(), &sample), &mut buttons);
    assert!(buttons.is_empty());
    // Size 0 is Waybar's automatic size; without icon-size the label stays.
    let auto = module("icon-size = 0");
    let Widget::Buttons(auto_row) = auto.widget() else {
        panic!("icons");
    };
    assert_eq!(auto_row.icons().size, 16);
    assert!(matches!(module("").widget(), Widget::Label));
}

fn input_of<'a>(events: &'a Events, sample: &'a Sample) -> Input<'a> {
    Input {
        events,
        ..input(sample)
    }
}

#[test]
fn waybars_look_carries_over_its_icons_size_and_names() {
    let waybar = serde_json::json!({
        "modules-right": ["privacy"],
        "privacy": {"icon-spacing": 4, "transition-duration": 250, "modules": [
            {"type": "screenshare", "icon-name": "screen-shared-symbolic"},
            {"type": "audio-in", "tooltip-icon-size": 24}
        ]}
    });
    let import = crate::config::import::convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    for expected in [
        "icon-size = 20",
        "icon-spacing = 4",
        "camera = \"screen-shared-symbolic\"",
        "screen = \"screen-shared-symbolic\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    let Widget::Buttons(row) = config.modules.right[0].widget() else {
        panic!("Waybar's icons");
    };
    assert_eq!(row.icons().size, 20, "Waybar's default size");
    let own = serde_json::json!({"modules-right": ["privacy"], "privacy": {"icon-size": 14}});
    let import = crate::config::import::convert(&own);
    assert!(import.toml.contains("icon-size = 14"), "{}", import.toml);
    assert!(!import.toml.contains("icon-size = 20"), "{}", import.toml);
}
