use serde_json::json;

use super::*;

pub(super) fn notes_about<'a>(import: &'a Import, what: &str) -> Vec<&'a String> {
    import.notes.iter().filter(|n| n.contains(what)).collect()
}

#[test]
fn a_bar_with_every_kind_of_setting_converts_and_reads_back() {
    let waybar = json!({
        "layer": "top",
        "position": "bottom",
        "height": 30,
        "margin": "4 8",
        "spacing": 4,
        "modules-left": ["sway/workspaces", "sway/mode", "sway/language", "custom/media"],
        "modules-center": ["sway/window"],
        "modules-right": ["cpu", "memory", "temperature", "disk", "battery", "battery#bat2",
                          "clock", "tray", "power-profiles-daemon", "cffi/player", "cava"],
        "sway/workspaces": {"format": "{value}: {icon}", "all-outputs": true,
                            "format-icons": {"1": "web", "default": "•"}, "disable-scroll": true},
        "sway/window": {"format": "{}", "max-length": 50},
        "sway/mode": {"format": "<span style=\"italic\">{}</span> &amp;"},
        "sway/language": {"format": "{short} {variant}", "on-click": "swaymsg input type:keyboard xkb_switch_layout prev"},
        "power-profiles-daemon": {"format": "{icon}", "format-icons": {"performance": "P", "default": "-"}},
        "cpu": {"format": "{usage}% ", "interval": 2, "states": {"warning": 60, "critical": 85}},
        "memory": {"interval": 0.5},
        "disk": {"path": "/home", "format": "{percentage_used}% {path}"},
        "battery": {"states": {"good": 95, "warning": 30, "critical": 15}, "format": "{capacity}%"},
        "battery#bat2": {"bat": "BAT2", "states": {"warning": 25}},
        "clock": {"format": "{:%H:%M} ", "format-alt": "{:%Y-%m-%d}", "tooltip-format": "<tt>{calendar}</tt>"},
        "tray": {"icon-size": 21, "spacing": 10},
        "custom/media": {"exec": "echo hi", "return-type": "json", "max-length": 40,
                         "escape": true, "on-click": "playerctl play-pause", "smooth-scrolling-threshold": 1},
        "pulseaudio": {"format": "{volume}%"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let bar = &config.bars[0];
    assert_eq!(bar.position, crate::config::Position::Bottom);
    assert_eq!((bar.height, bar.margin_top, bar.margin_left), (30, 4, 8));
    assert_eq!(config.interval_ms, 500, "the shortest monitor interval");
    let names = |list: &[std::rc::Rc<dyn crate::modules::Module>]| -> Vec<String> {
        list.iter().map(|m| m.name().to_owned()).collect()
    };
    assert_eq!(
        names(&config.modules.left),
        ["workspaces", "mode", "language", "custom/media"]
    );
    assert_eq!(names(&config.modules.center), ["window"]);
    assert_eq!(
        names(&config.modules.right),
        [
            "cpu",
            "memory",
            "temperature",
            "disk",
            "battery",
            "battery#bat2",
            "clock",
            "tray",
            "power_profile"
        ]
    );
    let toml = &import.toml;
    for expected in [
        "format = \"{value}: {icon}\"",
        "all_outputs = true",
        "format = \"{title}\"",
        "max_length = 50",
        "[mode]\nformat = \"{mode} &\"",
        "[language]\nformat = \"{short} {variant}\"",
        "[power_profile]\nformat = \"{icon}\"",
        "on-click = \"swaymsg input type:keyboard xkb_switch_layout prev\"",
        "warning = 60.0",
        "[cpu]\ncritical = 85.0\nformat = \"{usage}% \"",
        "critical = 85.0",
        "mounts = [\"/home\"]",
        "format = \"%H:%M \"",
        "format_alt = \"%Y-%m-%d\"",
        "icon_size = 21",
        "[\"battery#bat2\"]\nbat = \"BAT2\"\n\n[\"battery#bat2\".states]\nwarning = 25",
        "[custom.media]",
        "on-click = \"playerctl play-pause\"",
        "tooltip-format = \"<tt>{calendar}</tt>\"",
        "disable-scroll = true",
        "spacing = 4",
    ] {
        assert!(toml.contains(expected), "{expected} in:\n{toml}");
    }
    for (what, why) in [
        ("`cffi/player`", "no ringbar module yet"),
        ("`cava`", "no library in Debian gives one"),
        ("`custom/media` `smooth-scrolling-threshold`", "not needed"),
        ("`pulseaudio`", "on no module list"),
    ] {
        let found = notes_about(&import, what);
        assert!(
            found.iter().any(|n| n.contains(why)),
            "{what}: {why} in {:?}",
            import.notes
        );
    }
    // Every note is also a comment at the top of the output.
    for note in &import.notes {
        assert!(toml.contains(&format!("#   {note}")), "{note}");
    }
}

#[test]
fn spacing_is_waybars_or_its_default_of_none() {
    let without = convert(&json!({"modules-left": ["clock"]}));
    let config = crate::config::parse(&without.toml, Path::new("c.toml")).expect("valid");
    assert_eq!(config.bars[0].spacing, 0, "{}", without.toml);
    let bad = convert(&json!({"modules-left": ["clock"], "spacing": "wide"}));
    assert!(notes_about(&bad, "`spacing`")[0].contains("not a number of pixels"));
}

#[test]
fn rotate_carries_over_by_quarters() {
    let waybar = json!({
        "position": "left",
        "modules-left": ["clock", "cpu", "custom/up"],
        "clock": {"rotate": 90},
        "cpu": {"rotate": 45},
        "custom/up": {"exec": "echo up", "rotate": 270}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let bar = &config.bars[0];
    assert_eq!(bar.rotate_of("clock"), crate::config::Rotate::Quarter);
    assert_eq!(
        bar.rotate_of("custom/up"),
        crate::config::Rotate::ThreeQuarters
    );
    assert_eq!(bar.rotate_of("cpu"), crate::config::Rotate::None);
    assert!(notes_about(&import, "`cpu` `rotate`")
        .iter()
        .any(|n| n.contains("90, 180 or 270")));
}

#[test]
fn settings_ringbar_refuses_fall_back_to_defaults_with_a_note() {
    let waybar = json!({
        "modules-right": ["disk", "custom/broken", "position-odd"],
        "disk": {"format": "{free} of {total} ({specific_free})"},
        "custom/broken": {"exec": 5, "interval": "twice"},
        "position": "middle"
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let names: Vec<&str> = config.modules.right.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        ["disk"],
        "a script module ringbar refuses is left out"
    );
    assert!(notes_about(&import, "`disk`")
        .iter()
        .any(|n| n.contains("{specific_free}") && n.contains("defaults")));
    assert!(notes_about(&import, "`custom/broken`")
        .iter()
        .any(|n| n.contains("left out")));
    assert!(notes_about(&import, "`position`")
        .iter()
        .any(|n| n.contains("top, bottom, left or right")));
}

#[test]
fn network_settings_carry_over_where_ringbar_fills_their_fields() {
    let waybar = json!({
        "modules-right": ["network"],
        "network": {"interface": "wlan0", "format-ethernet": "{ifname} {ipaddr}/{cidr}",
                    "format-wifi": "{essid} ({signalStrength}%)", "format-disconnected": "off",
                    "format-linked": "{ifname} {rssi}",
                    "format-icons": ["a", "b"], "on-click-right": "nm-connection-editor",
                    "tooltip-format": "{ifname}"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let right: Vec<&str> = config.modules.right.iter().map(|m| m.name()).collect();
    assert_eq!(right, ["network"]);
    for expected in [
        "interface = \"wlan0\"",
        "format-ethernet = \"{ifname} {ipaddr}/{cidr}\"",
        "format-disconnected = \"off\"",
        "format-wifi = \"{essid} ({signalStrength}%)\"",
        "format-icons = [\"a\", \"b\"]",
        "on-click-right = \"nm-connection-editor\"",
        "tooltip-format = \"{ifname}\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in:\n{}",
            import.toml
        );
    }
    let linked = notes_about(&import, "`network` `format-linked`");
    assert!(
        linked
            .iter()
            .any(|n| n.contains("`{rssi}`, a field ringbar's network module does not fill")),
        "{:?}",
        import.notes
    );
}

#[test]
fn audio_and_bluetooth_settings_carry_over_under_waybar_names() {
    let waybar = json!({
        "modules-right": ["pulseaudio", "bluetooth"],
        "pulseaudio": {"format": "{volume}% {icon} {format_source}", "format-source": "{volume}% mic",
                       "format-bluetooth": "{volume}% {icon}", "scroll-step": 1,
                       "format-icons": {"headphone": "H", "default": ["a", "b"]},
                       "on-click": "pavucontrol", "ignored-sinks": ["x"]},
        "bluetooth": {"format-connected": "{device_alias}", "format-disabled": "",
                      "format-connected-battery": "{device_alias} {device_battery_percentage}%",
                      "tooltip-format": "{controller_alias}"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let right: Vec<&str> = config.modules.right.iter().map(|m| m.name()).collect();
    assert_eq!(right, ["pulseaudio", "bluetooth"]);
    for expected in [
        "[pulseaudio]",
        "scroll-step = 1",
        "format-source = \"{volume}% mic\"",
        "on-click = \"pavucontrol\"",
        "format-connected = \"{device_alias}\"",
        "tooltip-format = \"{controller_alias}\"",
        "ignored-sinks = [\"x\"]",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in:\n{}",
            import.toml
        );
    }
    assert!(
        import.toml.contains("format-disabled = \"\""),
        "{}",
        import.toml
    );
}

#[test]
fn mpris_and_idle_inhibitor_settings_carry_over() {
    let waybar = json!({
        "modules-center": ["mpris", "idle_inhibitor"],
        "idle_inhibitor": {"format": "{icon}", "format-icons": {"activated": "A", "deactivated": "D"},
                           "start-activated": true},
        "mpris": {"format": "{player_icon} {dynamic}", "format-paused": "{status} {title}",
                  "status-icons": {"paused": "P"}, "ignored-players": ["firefox"],
                  "max-length": 30, "player": "mpv", "dynamic-len": 20}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let center: Vec<&str> = config.modules.center.iter().map(|m| m.name()).collect();
    assert_eq!(center, ["mpris", "idle_inhibitor"]);
    for expected in [
        "[mpris]",
        "format-paused = \"{status} {title}\"",
        "ignored-players = [\"firefox\"]",
        "max-length = 30",
        "format = \"{player_icon} {dynamic}\"",
        "[mpris.status-icons]",
        "paused = \"P\"",
        "[idle_inhibitor.format-icons]",
        "activated = \"A\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in:\n{}",
            import.toml
        );
    }
    for (what, why) in [
        ("`mpris` `player`", "no ringbar counterpart"),
        ("`mpris` `dynamic-len`", "no ringbar counterpart"),
        (
            "`idle_inhibitor` `start-activated`",
            "no ringbar counterpart",
        ),
    ] {
        let found = notes_about(&import, what);
        assert!(
            found.iter().any(|n| n.contains(why)),
            "{what}: {:?}",
            import.notes
        );
    }
}

#[test]
fn custom_modules_without_exec_come_over() {
    let waybar = json!({
        "modules-left": ["custom/launcher", "custom/separator"],
        "custom/launcher": {"format": "\u{f135}", "on-click": "wofi --show drun", "tooltip": false},
        "custom/separator": {"format": "|", "interval": "once"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let names: Vec<&str> = config.modules.left.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        ["custom/launcher", "custom/separator"],
        "{}",
        import.toml
    );
    assert!(import.toml.contains("on-click = \"wofi --show drun\""));
    assert!(
        notes_about(&import, "`custom/separator` `interval`")
            .iter()
            .any(|n| n.contains("not needed")),
        "{:?}",
        import.notes
    );
}

#[test]
fn custom_modules_that_waybar_shows_nothing_for_are_left_out_and_the_rest_reads_back() {
    // Listed but never configured, an empty table, clicks with no text: Waybar hides
    // each (its text is empty). Inside a group too.
    let waybar = json!({
        "modules-left": ["custom/undefined", "custom/empty", "group/links", "clock"],
        "custom/empty": {},
        "custom/clicks-only": {"on-click": "firefox"},
        "custom/link": {"format": "L", "on-click": "firefox"},
        "group/links": {"modules": ["custom/link", "custom/clicks-only"]}
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    for line in [
        "modules_left = [\"group/links\", \"clock\"]",
        "modules = [\"custom/link\"]",
    ] {
        assert!(import.toml.contains(line), "{}", import.toml);
    }
    for name in ["custom/undefined", "custom/empty", "custom/clicks-only"] {
        let about = notes_about(&import, &format!("`{name}`:"));
        assert!(
            about
                .iter()
                .any(|n| n.contains("Waybar shows nothing for it")),
            "{name}: {:?}",
            import.notes
        );
    }
}

#[test]
fn a_bad_value_loses_that_key_only() {
    let waybar = json!({
        "modules-left": ["sway/workspaces"],
        "modules-right": ["disk"],
        "sway/workspaces": {"all-outputs": true, "format-icons": {"1": "web", "urgent": true}},
        "disk": {"path": "/home", "format": "{size} used"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert_eq!(config.modules.left.len() + config.modules.right.len(), 2);
    assert!(
        import.toml.contains("mounts = [\"/home\"]"),
        "{}",
        import.toml
    );
    assert!(
        import.toml.contains("all_outputs = true"),
        "{}",
        import.toml
    );
    for (what, why) in [
        ("`disk` `format`", "not carried over"),
        ("`workspaces` `icons`", "not carried over"),
    ] {
        assert!(
            notes_about(&import, what).iter().any(|n| n.contains(why)),
            "{what}: {why} in {:?}",
            import.notes
        );
    }
}
