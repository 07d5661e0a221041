//! Settings read from Waybar configs in JSON and TOML, bad ones refused, intervals clamped.

use std::collections::BTreeMap;
use std::time::Duration;

use super::*;
use crate::text::icons::{FormatIcons, Icons};

fn config_json(json: &str) -> Result<ScriptConfig, serde_json::Error> {
    let config: ScriptConfig = serde_json::from_str(json)?;
    config.checked().map_err(serde::de::Error::custom)
}

#[test]
fn a_waybar_config_reads_as_json_and_toml() {
    let config = config_json(
        r#"{"exec": "~/bin/mpd.sh", "interval": 5, "return-type": "json", "format": "♪ {}",
            "format-icons": {"playing": ["a", "b"], "default": "x"}, "exec-if": "pgrep mpd",
            "signal": 8, "max-length": 40, "tooltip": false, "escape": true, "exec-on-event": false}"#,
    )
    .expect("config");
    assert_eq!(config.interval, Some(IntervalSetting::Seconds(5.0)));
    assert!(config.is_json() && config.escapes());
    assert_eq!(config.signal, Some(8));
    assert_eq!(config.max_length, Some(40));
    let by_alt = BTreeMap::from([
        (
            "playing".to_owned(),
            Icons::Ladder(vec!["a".into(), "b".into()]),
        ),
        ("default".to_owned(), Icons::One("x".into())),
    ]);
    assert_eq!(config.format_icons, Some(FormatIcons::ByAlt(by_alt)));

    let toml: ScriptConfig = toml::from_str(
        "exec = \"date\"\ninterval = \"once\"\nformat-icons = [\"a\", \"b\"]\nrestart-interval = 2.5\n",
    )
    .expect("toml");
    assert_eq!(toml.interval, Some(IntervalSetting::Once));
    assert_eq!(toml.restart_interval, Some(IntervalSetting::Seconds(2.5)));
    assert_eq!(
        toml.format_icons,
        Some(FormatIcons::Icons(Icons::Ladder(vec![
            "a".into(),
            "b".into()
        ])))
    );
    assert_eq!(
        ScriptConfig::new("date"),
        toml::from_str("exec = 'date'").expect("toml")
    );
}

#[test]
fn bad_configs_are_refused() {
    for bad in [
        r#"{"exec": "x", "interval": 0}"#,
        r#"{"exec": "x", "interval": -1}"#,
        r#"{"exec": "x", "interval": 0.01}"#,
        r#"{"exec": "x", "interval": "twice"}"#,
        r#"{"exec": "x", "intervall": 5}"#,
        r#"{"exec": "x", "signal": 300}"#,
        r#"{"interval": 5}"#,
    ] {
        assert!(config_json(bad).is_err(), "{bad}");
    }
    let long = IntervalSetting::Seconds(1e300).duration();
    assert_eq!(long, Some(MAX_INTERVAL));
    assert_eq!(
        IntervalSetting::Seconds(f64::NAN).duration(),
        Some(MIN_INTERVAL)
    );
    assert_eq!(
        IntervalSetting::Seconds(0.5).duration(),
        Some(Duration::from_millis(500))
    );
}

/// A `signal` the system has no realtime signal for is a config error, not a warning at
/// run time.
#[test]
fn a_signal_out_of_range_is_refused_when_read() {
    let max = libc::SIGRTMAX() - libc::SIGRTMIN();
    for bad in [0, max + 1, 255, -3] {
        let err = config_json(&format!(r#"{{"exec": "true", "signal": {bad}}}"#))
            .expect_err("out of range");
        assert!(
            err.to_string()
                .contains(&format!("signal {bad} is not between 1 and {max}")),
            "{err}"
        );
    }
    let top = config_json(&format!(r#"{{"exec": "true", "signal": {max}}}"#)).expect("in range");
    assert_eq!(top.signal.map(i32::from), Some(max));
    assert_eq!(
        config_json(r#"{"exec": "true"}"#).expect("none").signal,
        None
    );
}
