//! The audio module's texts, classes, formats, tooltip and clicks, over states as the
//! sound server gives them.

use std::path::Path;

use super::*;
use crate::events::audio::Source;
use crate::modules::tests::input;
use crate::modules::Events;
use crate::sample::Sample;
use crate::text::{Markup, Plain};

fn module(name: &str, toml: &str) -> Rc<dyn Module> {
    let text = format!("modules_right = [\"{name}\"]\n[{name}]\n{toml}");
    let config = crate::config::parse(&text, Path::new("c.toml")).expect("valid");
    config.modules.right[0].clone()
}

/// Speakers at 45 % (the default) and a muted Bluetooth headset; a microphone.
fn state() -> AudioState {
    let speakers = Sink {
        name: "alsa_output.analog".to_owned(),
        description: "Built-in Audio".to_owned(),
        volume: 45.0,
        muted: false,
        port: Some("analog-output-speaker".to_owned()),
        port_description: Some("Speakers".to_owned()),
        bluetooth: false,
        running: true,
    };
    let headset = Sink {
        name: "bluez_output.00_11".to_owned(),
        description: "<Headset> & co".to_owned(),
        volume: 70.0,
        muted: true,
        port: Some("headset-output".to_owned()),
        port_description: None,
        bluetooth: true,
        running: false,
    };
    AudioState {
        sinks: vec![speakers, headset],
        default_sink: Some("alsa_output.analog".to_owned()),
        source: Some(Source {
            name: "alsa_input.analog".to_owned(),
            description: "Microphone".to_owned(),
            volume: 80.0,
            muted: false,
        }),
        recordings: Vec::new(),
        playbacks: Vec::new(),
    }
}

fn text(module: &dyn Module, state: &AudioState) -> (String, Option<Status>) {
    let sample = Sample::default();
    let events = Events::default().with(Some(state.clone()));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut out = String::new();
    let status = module.text(&input, &mut out);
    (out, status)
}

#[test]
fn volume_mute_and_the_source() {
    let audio = module("audio", "");
    let mut state = state();
    let (out, status) = text(audio.as_ref(), &state);
    assert_eq!(out, "VOL 45%");
    let status = status.expect("shown");
    assert_eq!(status.percentage, Some(45.0));
    assert!(status.classes.is_empty());
    state.source.as_mut().expect("a source").muted = true;
    let (out, status) = text(audio.as_ref(), &state);
    assert_eq!(out, "VOL 45% MIC muted");
    assert_eq!(status.expect("shown").classes, ["source-muted"]);

    // The headset as the default: muted, Bluetooth.
    state.default_sink = Some("bluez_output.00_11".to_owned());
    let (out, status) = text(audio.as_ref(), &state);
    assert_eq!(out, "VOL muted MIC muted");
    assert_eq!(
        status.expect("shown").classes,
        ["muted", "bluetooth", "source-muted"]
    );
    // No server, or no default sink: hidden.
    state.default_sink = None;
    assert_eq!(text(audio.as_ref(), &state), (String::new(), None));
    let sample = Sample::default();
    let mut out = String::new();
    assert!(audio.text(&input(&sample), &mut out).is_none());
}

#[test]
fn waybar_formats_and_icons_by_port_and_volume() {
    let pulseaudio = module(
        "pulseaudio",
        "format = \"{volume}% {icon} {desc}{format_source}\"\n\
         format-bluetooth-muted = \"BT off {icon}\"\n\
         format-source = \" mic {volume}%\"\n\
         format-icons = { speaker = \"S\", headset = \"H\", default = [\"lo\", \"hi\"] }\n",
    );
    assert_eq!(pulseaudio.name(), "pulseaudio", "listed as Waybar's name");
    let mut state = state();
    assert_eq!(
        text(pulseaudio.as_ref(), &state).0,
        "45% S Built-in Audio mic 80%"
    );
    state.sinks[0].port = None;
    assert_eq!(
        text(pulseaudio.as_ref(), &state).0,
        "45% lo Built-in Audio mic 80%"
    );
    state.sinks[0].volume = 60.0;
    assert_eq!(
        text(pulseaudio.as_ref(), &state).0,
        "60% hi Built-in Audio mic 80%"
    );
    state.default_sink = Some("bluez_output.00_11".to_owned());
    assert_eq!(text(pulseaudio.as_ref(), &state).0, "BT off H");
    assert_eq!(module("wireplumber", "").name(), "wireplumber");
    // fmt's number specs on the volume, as Waybar's configs write them.
    let padded = module(
        "pulseaudio",
        "format = \"{volume:3}%{format_source}\"\nformat-source = \"|{volume:02}\"\n",
    );
    assert_eq!(text(padded.as_ref(), &self::state()).0, " 45%|80");
}

#[test]
fn the_tooltip_lists_the_port_the_other_sinks_and_the_input_as_text() {
    let audio = module("audio", "");
    let sample = Sample::default();
    let events = Events::default().with(Some(state()));
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    let mut out = String::new();
    audio.tooltip(&mut Plain(&mut out), &input);
    assert_eq!(
        out,
        "Audio  Built-in Audio · 45%\n  port Speakers\n  also <Headset> & co · muted · bluetooth\n  input Microphone · 80%\n"
    );
    let mut markup = String::new();
    audio.tooltip(&mut Markup(&mut markup), &input);
    assert!(markup.contains("also &lt;Headset&gt; &amp; co"), "{markup}");
    let quiet = module("audio", "tooltip = false");
    let mut out = String::new();
    quiet.tooltip(&mut Plain(&mut out), &input);
    assert_eq!(out, "");
    // Waybar's tooltip-format: markup with the label's fields, the values escaped.
    let own = module(
        "pulseaudio",
        "tooltip-format = \"<b>{volume:3}%</b> {desc}{format_source}\"\nformat-source = \" & {volume}\"\n",
    );
    let mut markup = String::new();
    let mut events_state = state();
    events_state.sinks[0].description = "A <b> card".to_owned();
    let events = Events::default().with(Some(events_state));
    let with_card = Input {
        events: &events,
        ..crate::modules::tests::input(&sample)
    };
    own.tooltip(&mut Markup(&mut markup), &with_card);
    assert_eq!(markup, "<b> 45%</b> A &lt;b&gt; card &amp; 80");
}

#[test]
fn the_wheel_steps_a_click_mutes_and_commands_win() {
    let audio = module("audio", "step = 2.5\nmax_volume = 120");
    let change = |percent| {
        Some(Action::Command(SourceCommand::to::<AudioState>(
            AudioCommand::ChangeVolume {
                percent,
                max_percent: 120.0,
            },
        )))
    };
    assert_eq!(audio.action(Button::ScrollUp), change(2.5));
    assert_eq!(audio.action(Button::ScrollDown), change(-2.5));
    assert_eq!(
        audio.action(Button::Left),
        Some(Action::Command(SourceCommand::to::<AudioState>(
            AudioCommand::ToggleMute
        )))
    );
    assert_eq!(audio.action(Button::Right), None);
    let waybar = module(
        "pulseaudio",
        "scroll-step = 1\nmax-volume = 150\non-click = \"pavucontrol\"\non-click-right = \"x\"",
    );
    assert_eq!(waybar.action(Button::Left), Some(Action::Run(Button::Left)));
    assert_eq!(waybar.command(Button::Left), Some("pavucontrol"));
    assert_eq!(
        waybar.action(Button::Right),
        Some(Action::Run(Button::Right))
    );
    assert_eq!(
        waybar.action(Button::ScrollUp),
        Some(Action::Command(SourceCommand::to::<AudioState>(
            AudioCommand::ChangeVolume {
                percent: 1.0,
                max_percent: 150.0
            }
        )))
    );
    for bad in [
        "step = 0",
        "max_volume = 400",
        "format = \"{vol}\"",
        "format-source = \"{desc}\"",
    ] {
        let text = format!("modules_right = [\"audio\"]\n[audio]\n{bad}\n");
        let err = crate::config::parse(&text, Path::new("c.toml")).err();
        assert!(err.is_some(), "{bad} is refused");
    }
}

#[test]
fn format_alt_takes_formats_place_on_a_left_click_and_back() {
    let audio = module(
        "pulseaudio",
        "format = \"{volume}%\"\nformat-alt = \"{desc} {volume}%\"\nformat-muted = \"M\"\n",
    );
    let mut state = state();
    assert_eq!(text(audio.as_ref(), &state).0, "45%");
    assert_eq!(audio.action(Button::Left), Some(Action::Redraw), "no mute");
    assert_eq!(text(audio.as_ref(), &state).0, "Built-in Audio 45%");
    state.sinks[0].muted = true;
    assert_eq!(text(audio.as_ref(), &state).0, "M", "muted has its own");
    state.sinks[0].muted = false;
    audio.action(Button::Left);
    assert_eq!(text(audio.as_ref(), &state).0, "45%");
    assert!(crate::config::parse(
        "modules_right = [\"audio\"]\n[audio]\nformat-alt = \"{vol}\"\n",
        Path::new("c.toml")
    )
    .is_err());
}

#[test]
fn ignored_sinks_go_to_the_sound_server_source() {
    let plain = module("pulseaudio", "format = \"{volume}%\"\n");
    assert!(plain.source_settings().is_none(), "nothing to tell it");
    let audio = module("pulseaudio", "ignored-sinks = [\"Easy Effects Sink\"]\n");
    let settings = audio.source_settings().expect("settings for the source");
    assert_eq!(
        settings.get::<AudioState>(),
        Some(&AudioSettings {
            ignored_sinks: vec!["Easy Effects Sink".to_owned()]
        })
    );
    let waybar = serde_json::json!({
        "modules-right": ["pulseaudio"],
        "pulseaudio": {"ignored-sinks": ["Easy Effects Sink"]}
    });
    let import = crate::config::import::convert(&waybar);
    assert!(
        import
            .toml
            .contains("ignored-sinks = [\"Easy Effects Sink\"]"),
        "{}",
        import.toml
    );
    assert!(import.notes.is_empty(), "{:?}", import.notes);
}
