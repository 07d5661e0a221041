//! The settings of single modules: the clock's calendar and zones, the workspaces'
//! persistent ones, the battery's scale, label sizes and intervals.

use std::path::Path;

use serde_json::json;

use super::tests::notes_about;
use super::*;

#[test]
fn a_clock_with_waybars_calendar_actions_and_older_keys_comes_over_whole() {
    let waybar = json!({
        "modules-right": ["clock"],
        "clock": {
            "format": "{:%H:%M} 100%",
            "tooltip-format": "<tt><small>{calendar}</small></tt>",
            "today-format": "<span color='#ff6699'><b>{}</b></span>",
            "calendar": {
                "mode": "year", "mode-mon-col": 3, "weeks-pos": "right", "on-scroll": 1,
                "on-click-right": "mode",
                "format": {"months": "<span color='#ffead3'><b>{}</b></span>",
                           "weeks": "<span color='#99ffdd'><b>W{}</b></span>"}
            },
            "actions": {"on-scroll-up": "shift_up", "on-scroll-down": "shift_down",
                        "on-click-forward": "tz_up", "on-click-backward": "tz_down"},
            "interval": 60,
            "locale": "xx_NOWHERE.UTF-8"
        }
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    for line in [
        "format = \"%H:%M 100%%\"",
        "tooltip-format = \"<tt><small>{calendar}</small></tt>\"",
        "mode = \"year\"",
        "today = \"<span color='#ff6699'><b>{}</b></span>\"",
        "weeks = \"<span color='#99ffdd'><b>W{}</b></span>\"",
        "on-click-right = \"mode\"",
        "on-scroll-up = \"shift_up\"",
        "on-click-forward = \"tz_up\"",
        "on-click-backward = \"tz_down\"",
    ] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
    let dropped: Vec<&String> = import
        .notes
        .iter()
        .filter(|n| n.contains("not carried"))
        .collect();
    assert_eq!(dropped.len(), 1, "{dropped:?}");
    assert!(dropped[0].contains("`clock` `locale`"), "{dropped:?}");
    assert!(
        dropped[0].contains("not a locale this system has"),
        "{dropped:?}"
    );
}

#[test]
fn a_clocks_locale_comes_over_when_the_system_has_it() {
    let waybar = json!({"modules-right": ["clock"], "clock": {"locale": "C.UTF-8"}});
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(
        import.toml.contains("locale = \"C.UTF-8\""),
        "{}",
        import.toml
    );
}

#[test]
fn a_clocks_time_zones_come_over_when_the_system_knows_them() {
    let waybar = json!({
        "modules-right": ["clock", "clock#far"],
        "clock": {
            "timezones": ["", "America/Chicago", "+09:00"],
            "timezone-tooltip-format": "{:%H:%M %Z}",
            "actions": {"on-scroll-up": "tz_up"}
        },
        "clock#far": {"timezone": "Atlantis/Lost_City", "format": "{:%H}"}
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    for line in [
        "timezones = [\"\", \"America/Chicago\", \"+09:00\"]",
        "timezone-tooltip-format = \"%H:%M %Z\"",
    ] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
    assert!(
        import.notes.iter().any(|n| n.starts_with(
            "`clock#far` `timezone`: `Atlantis/Lost_City` \
                                                   is not a time zone"
        )),
        "{:?}",
        import.notes
    );
}

#[test]
fn persistent_workspaces_come_over_and_the_number_order_is_ringbars_own() {
    let waybar = json!({
        "modules-left": ["hyprland/workspaces"],
        "hyprland/workspaces": {
            "persistent-workspaces": {"*": 5, "HDMI-A-1": [1, "web"], "chat": []},
            "sort-by-number": true
        }
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    for line in ["\"*\" = 5", "HDMI-A-1 = [1, \"web\"]", "chat = []"] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
    assert_eq!(
        import.notes,
        ["`hyprland/workspaces` `sort-by-number`: not needed"]
    );
    let sway = json!({
        "modules-left": ["sway/workspaces"],
        "sway/workspaces": {"persistent_workspaces": {"3": [], "4": ["eDP-1"]}, "sort-by": "name"}
    });
    let import = convert(&sway);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(import.toml.contains("4 = [\"eDP-1\"]"), "{}", import.toml);
    assert!(
        import.toml.contains("sort-by = \"name\""),
        "{}",
        import.toml
    );
    assert!(import.notes.is_empty(), "{:?}", import.notes);
}

#[test]
fn each_workspace_modules_sort_keys_come_over_as_sort_by() {
    for (module, key, value, toml) in [
        (
            "sway/workspaces",
            "alphabetical_sort",
            json!(true),
            Some("sort-by = \"name\""),
        ),
        (
            "niri/workspaces",
            "sort-by-name",
            json!(true),
            Some("sort-by = \"name\""),
        ),
        (
            "niri/workspaces",
            "sort-by-id",
            json!(true),
            Some("sort-by = \"id\""),
        ),
        ("ext/workspaces", "sort-by-id", json!(false), None),
        (
            "hyprland/workspaces",
            "sort-by",
            json!("special-centered"),
            Some("special-centered"),
        ),
        (
            "sway/workspaces",
            "custom-sort",
            json!(["web", "mail"]),
            Some("[\"web\", \"mail\"]"),
        ),
    ] {
        let waybar = json!({ "modules-left": [module], module: { key: value } });
        let import = convert(&waybar);
        crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
        match toml {
            Some(line) => {
                assert!(import.toml.contains(line), "{key}: {}", import.toml);
                assert!(import.notes.is_empty(), "{key}: {:?}", import.notes);
            }
            None => assert_eq!(import.notes, [format!("`{module}` `{key}`: not needed")]),
        }
    }
    // A value Waybar does not know either stays behind, with a note.
    let waybar = json!({
        "modules-left": ["hyprland/workspaces"],
        "hyprland/workspaces": {"sort-by": "size"}
    });
    let import = convert(&waybar);
    assert!(
        import
            .notes
            .iter()
            .any(|n| n.starts_with("`hyprland/workspaces` `sort-by`")),
        "{:?}",
        import.notes
    );
}

#[test]
fn window_rewrite_comes_over_whole() {
    let waybar = json!({
        "modules-left": ["hyprland/workspaces"],
        "hyprland/workspaces": {
            "format": "{name} {windows}",
            "format-window-separator": " | ",
            "window-rewrite-default": "?",
            "window-rewrite": {
                "class<firefox>": "F",
                "title<.* - (.*) - VSCodium>": "codium $1",
                "class<steam>": ""
            },
            "window-rewrite-group-threshold": 2,
            "window-rewrite-group-format": "{icon}x{count}"
        }
    });
    let import = convert(&waybar);
    assert!(import.notes.is_empty(), "{:?}", import.notes);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert_eq!(config.modules.left[0].name(), "workspaces");
    for line in [
        "\"title<.* - (.*) - VSCodium>\" = \"codium $1\"",
        "\"class<steam>\" = \"\"",
        "window-rewrite-group-threshold = 2",
    ] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
}

#[test]
fn a_batterys_full_at_and_design_capacity_come_over() {
    let waybar = json!({
        "modules-right": ["battery"],
        "battery": {
            "full-at": 80, "design-capacity": true, "format": "{capacity}% {icon}",
            "tooltip-format": "{cycles} cycles, health {health}%"
        }
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let tooltip = "tooltip-format = \"{cycles} cycles, health {health}%\"";
    for line in ["full-at = 80", "design-capacity = true", tooltip] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
    assert!(import.notes.is_empty(), "{:?}", import.notes);
}

#[test]
fn label_sizes_come_over_on_every_module() {
    let waybar = json!({
        "modules-right": ["cpu", "backlight", "custom/x"],
        "cpu": {"max-length": 10, "min-length": 5, "align": 0},
        "backlight": {"align": 0.5},
        "custom/x": {"exec": "echo x", "min-length": 3, "align": 1}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(import.notes.is_empty(), "{:?}", import.notes);
    let bar = &config.bars[0];
    assert_eq!(bar.shape_of("cpu").max_chars, Some(10));
    assert_eq!(bar.shape_of("cpu").align, Some(0.0));
    assert_eq!(bar.shape_of("backlight").align, Some(0.5));
    assert_eq!(bar.shape_of("custom/x").min_chars, Some(3));
}

#[test]
fn the_network_interval_is_the_monitors_and_the_backlight_needs_none() {
    let waybar = json!({
        "modules-right": ["network", "backlight"],
        "network": {"interval": 5},
        "backlight": {"interval": 2}
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(
        import.toml.contains("interval_ms = 5000"),
        "{}",
        import.toml
    );
    assert!(
        notes_about(&import, "`backlight` `interval`")
            .iter()
            .any(|n| n.contains("not needed")),
        "{:?}",
        import.notes
    );
}

#[test]
fn a_windows_rewrite_rules_come_over_and_a_rule_ringbar_cannot_read_is_named() {
    let rules = json!({"(.*) — Mozilla Firefox": "🌎 $1", "(.*) - fish": "> [$1]"});
    let waybar =
        json!({"modules-left": ["hyprland/window"], "hyprland/window": {"rewrite": rules}});
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(
        import.toml.contains("\"(.*) - fish\" = \"> [$1]\""),
        "{}",
        import.toml
    );
    assert!(notes_about(&import, "`window` `rewrite`").is_empty());
    assert_eq!(config.modules.left[0].name(), "window");

    let lookahead = json!({"modules-left": ["sway/window"],
                           "sway/window": {"rewrite": {"(?!x).*": "y"}, "max-length": 9}});
    let import = convert(&lookahead);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(import.toml.contains("max_length = 9"), "{}", import.toml);
    let notes = notes_about(&import, "`window` `rewrite`");
    assert!(notes[0].contains("look-around"), "{notes:?}");
}

#[test]
fn a_language_named_by_the_users_own_words_comes_over() {
    let waybar = json!({
        "modules-right": ["hyprland/language"],
        "hyprland/language": {"format": "{} {flag}", "format-en": "en", "format-ru-phonetic": "ру",
                              "format-de": 7}
    });
    let import = convert(&waybar);
    crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    for line in [
        "format = \"{} {flag}\"",
        "format-en = \"en\"",
        "format-ru-phonetic = \"ру\"",
    ] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
    let dropped = notes_about(&import, "format-de");
    assert_eq!(dropped.len(), 1, "{:?}", import.notes);
}

#[test]
fn format_alt_click_comes_over_as_waybar_reads_it() {
    let waybar = json!({
        "modules-right": ["battery", "cpu", "custom/weather"],
        "battery": {"format-alt": "{time}", "format-alt-click": "click-right"},
        "cpu": {"format-alt": "{usage}%", "format-alt-click": 3},
        "custom/weather": {"exec": "weather", "format-alt": "{alt}", "format-alt-click": "click-left"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert_eq!(config.modules.right.len(), 3);
    for line in [
        "format-alt-click = \"click-right\"",
        // Anything Waybar does not name is its left button.
        "format-alt-click = \"click\"",
        "format-alt = \"{alt}\"",
    ] {
        assert!(import.toml.contains(line), "{line} in\n{}", import.toml);
    }
    assert_eq!(
        import.toml.matches("format-alt-click = \"click\"").count(),
        2
    );
}

#[test]
fn a_menu_comes_over_with_its_file_and_actions_or_is_named_with_the_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("power_menu.xml");
    std::fs::write(
        &file,
        "<interface><object class=\"GtkMenu\" id=\"menu\"><child>\
         <object class=\"GtkMenuItem\" id=\"reboot\"><property name=\"label\">Reboot</property>\
         </object></child></object></interface>",
    )
    .expect("write");
    let file = file.display().to_string();
    let waybar = json!({
        "modules-right": ["custom/power", "clock", "battery"],
        "custom/power": {"format": "P", "menu": "on-click", "menu-file": file,
                         "menu-actions": {"reboot": "systemctl reboot"}},
        // Its file is not there: the clock keeps its other keys.
        "clock": {"format": "{:%H}", "menu": "on-click-right", "menu-file": "$HOME/gone.xml"},
        // A variable ringbar does not expand.
        "battery": {"menu": "on-click", "menu-file": "$XDG_CONFIG_HOME/waybar/m.xml"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let power = &config.modules.right[0];
    let Some(crate::modules::Action::Menu(menu)) = power.action(crate::modules::Button::Left)
    else {
        panic!("the power button opens its menu: {}", import.toml);
    };
    assert_eq!(menu.command("reboot"), Some("systemctl reboot"));
    let clock = notes_about(&import, "`clock`")
        .iter()
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        clock.contains("`menu`, `menu-file`: `menu-file`:") && clock.contains("gone.xml"),
        "{clock}"
    );
    assert!(import.toml.contains("format = \"%H\""), "{}", import.toml);
    let battery = notes_about(&import, "`battery` `menu`")
        .iter()
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(battery.contains("no other variable"), "{battery}");
    let battery = &config.modules.right[2];
    assert!(!matches!(
        battery.action(crate::modules::Button::Left),
        Some(crate::modules::Action::Menu(_))
    ));
}
