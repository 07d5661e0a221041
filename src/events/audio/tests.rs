use super::*;

fn sink(name: &str, port: Option<&str>) -> Sink {
    Sink {
        name: name.to_owned(),
        description: format!("{name} description"),
        volume: 40.0,
        port: port.map(str::to_owned),
        ..Sink::default()
    }
}

#[test]
fn the_default_sink_and_its_port_kind() {
    let mut state = AudioState {
        sinks: vec![
            sink("a", Some("analog-output-headphones")),
            sink("b", Some("[Out] HDMI1")),
            sink("c", None),
        ],
        default_sink: Some("b".to_owned()),
        source: None,
        recordings: Vec::new(),
        playbacks: Vec::new(),
    };
    assert_eq!(state.default_sink().map(|s| s.port_kind()), Some("hdmi"));
    assert_eq!(state.sinks[0].port_kind(), "headphone");
    assert_eq!(state.sinks[2].port_kind(), "default");
    state.default_sink = Some("gone".to_owned());
    assert_eq!(state.default_sink(), None, "a default the list lacks");
    state.default_sink = None;
    assert_eq!(state.default_sink(), None);
}

#[test]
fn steps_stay_within_zero_and_the_cap() {
    assert_eq!(stepped(40.0, 5.0, 100.0), 45.0);
    assert_eq!(stepped(97.0, 5.0, 100.0), 100.0);
    assert_eq!(
        stepped(120.0, 5.0, 100.0),
        120.0,
        "set higher elsewhere: kept"
    );
    assert_eq!(stepped(120.0, -5.0, 100.0), 115.0);
    assert_eq!(stepped(3.0, -5.0, 100.0), 0.0);
    assert_eq!(stepped(100.0, 5.0, 150.0), 105.0);
}

#[test]
fn an_ignored_default_sink_gives_way_to_one_that_runs() {
    let running = |name: &str| Sink {
        running: true,
        ..sink(name, None)
    };
    // An effects sink the user set as the default, hardware behind it.
    let sinks = [running("effects"), sink("hdmi", None), running("speakers")];
    let names = |default: Option<&str>, ignored: &[&str]| {
        let ignored: Vec<String> = ignored.iter().map(|d| format!("{d} description")).collect();
        shown_sink(&sinks, default, &ignored).map(|s| s.name.clone())
    };
    assert_eq!(names(Some("effects"), &[]), Some("effects".to_owned()));
    assert_eq!(
        names(Some("effects"), &["effects"]),
        Some("speakers".to_owned()),
        "the first other sink that runs"
    );
    assert_eq!(names(Some("hdmi"), &["effects"]), Some("hdmi".to_owned()));
    assert_eq!(
        names(Some("effects"), &["effects", "speakers"]),
        Some("hdmi".to_owned()),
        "else the first other one"
    );
    assert_eq!(
        names(Some("effects"), &["effects", "speakers", "hdmi"]),
        None
    );
    assert_eq!(names(Some("gone"), &[]), None, "a default the list lacks");
}
