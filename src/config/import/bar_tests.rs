//! The bar's own keys and an array of bars, converted.

use std::path::Path;

use serde_json::json;

use super::convert;

#[test]
fn an_array_of_bars_becomes_one_bar_table_each_with_its_outputs_and_lists() {
    let waybar = json!([
        {"output": "DP-1", "position": "top", "height": 30,
         "modules-left": ["clock", "cpu"], "clock": {"format": "{:%H:%M}"},
         "cpu": {"interval": 5}},
        {"output": ["HDMI-A-1", "!DP-1"], "position": "left", "width": 40,
         "modules-right": ["clock", "memory"], "clock": {"format": "{:%H}"},
         "memory": {"interval": 2}}
    ]);
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect("valid");
    assert_eq!(config.bars.len(), 2, "{}", import.toml);
    let [first, second] = &config.bars[..] else {
        unreachable!()
    };
    assert!(first.output.matches("DP-1") && !first.output.matches("HDMI-A-1"));
    assert!(second.output.matches("HDMI-A-1") && !second.output.matches("DP-1"));
    assert_eq!((first.height, second.width), (30, 40));
    assert!(second.vertical());
    let names = |list: &[std::rc::Rc<dyn crate::modules::Module>]| {
        list.iter().map(|m| m.name().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(names(&first.modules.left), ["clock", "cpu"]);
    assert!(first.modules.right.is_empty() && first.modules.center.is_empty());
    assert_eq!(names(&second.modules.right), ["clock", "memory"]);
    assert!(second.modules.left.is_empty());
    // The shortest interval of the sampled modules of either bar.
    assert_eq!(config.interval_ms, 2000);
    // Module settings serve both bars: the first bar's clock format, and a note.
    assert!(
        import.toml.contains("format = \"%H:%M\""),
        "{}",
        import.toml
    );
    assert!(
        import
            .notes
            .iter()
            .any(|n| n.starts_with("`clock` of bar 2: its settings differ")),
        "{:?}",
        import.notes
    );
    assert!(!import.notes.iter().any(|n| n.contains("[[bar]]")));
}

#[test]
fn bars_configured_alike_convert_without_repeating_a_note() {
    let bar = json!({"modules-left": ["clock"], "clock": {"smooth-scrolling-threshold": 1}});
    let import = convert(&json!([bar, bar]));
    let about_clock = import
        .notes
        .iter()
        .filter(|n| n.contains("smooth-scrolling-threshold"))
        .count();
    assert_eq!(about_clock, 1, "{:?}", import.notes);
    assert!(!import.notes.iter().any(|n| n.contains("differ")));
}

#[test]
fn sizes_and_margins_are_read_as_waybar_reads_them() {
    // A number margin is every side's; height 0 is "as the content needs".
    let import = convert(&json!({"margin": 5, "height": 0, "width": 1920}));
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect("valid");
    let bar = &config.bars[0];
    let margins = [
        bar.margin_top,
        bar.margin_right,
        bar.margin_bottom,
        bar.margin_left,
    ];
    assert_eq!(margins, [5; 4]);
    assert_eq!(bar.height, crate::config::Config::default().bars[0].height);
    assert!(!import.notes.iter().any(|n| n.contains("height")));
    // A top bar's width is its length: ringbar's spans the output, and the note says so.
    assert!(
        import
            .notes
            .iter()
            .any(|n| n == "`width` 1920: a ringbar bar spans its output's width; not carried over"),
        "{:?}",
        import.notes
    );
    // A left bar's width is its thickness; its height is its length.
    let import = convert(&json!({"position": "left", "width": 44, "height": 900}));
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect("valid");
    assert_eq!(config.bars[0].width, 44);
    assert!(import
        .notes
        .iter()
        .any(|n| n.starts_with("`height` 900: a ringbar bar")));
    let import = convert(&json!({"margin": -3, "height": 9000}));
    assert!(import
        .notes
        .iter()
        .any(|n| n.starts_with("`margin` -3: not")));
    assert!(import
        .notes
        .iter()
        .any(|n| n.starts_with("`height` 9000: not 1 to 500")));
}

#[test]
fn a_positional_field_and_a_text_tooltip_are_read_as_waybar_reads_them() {
    let waybar = json!({
        "modules-left": ["disk", "custom/launcher"],
        "disk": {"path": "/", "format": "{}% free", "tooltip-format": "{used} of {total} ({})"},
        "custom/launcher": {"format": "\u{f135}", "tooltip": "Apps", "on-click": "fuzzel"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert_eq!(config.modules.left.len(), 2, "{}", import.toml);
    // Waybar's disk fills {} with the share free.
    assert!(
        import.toml.contains("format = \"{percentage_free}% free\""),
        "{}",
        import.toml
    );
    assert!(
        import
            .toml
            .contains("tooltip-format = \"{used} of {total} ({percentage_free})\""),
        "{}",
        import.toml
    );
    // A string tooltip is ignored by Waybar: that key only, and the note says why.
    assert!(
        import.toml.contains("on-click = \"fuzzel\""),
        "{}",
        import.toml
    );
    assert!(
        import.notes.iter().any(|n| n
            == "`custom/launcher` `tooltip`: Waybar reads only true or false here and ignores \
                anything else; not carried over"),
        "{:?}",
        import.notes
    );
}

#[test]
fn a_niri_bar_keeps_its_workspaces_window_and_layout() {
    let waybar = json!({
        "modules-left": ["niri/workspaces", "niri/window"],
        "modules-right": ["niri/language", "clock"],
        "niri/workspaces": {"format": "{value}", "all-outputs": false},
        "niri/window": {"format": "{title}", "max-length": 40},
        "niri/language": {"format": "{short}"}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let names = |list: &[std::rc::Rc<dyn crate::modules::Module>]| {
        list.iter().map(|m| m.name().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(names(&config.modules.left), ["workspaces", "window"]);
    assert_eq!(names(&config.modules.right), ["language", "clock"]);
    assert!(
        !import.notes.iter().any(|n| n.contains("niri")),
        "{:?}",
        import.notes
    );
    let river = convert(&json!({"modules-left": ["river/tags", "dwl/tags", "river/window"]}));
    assert_eq!(
        river.notes,
        [
            "`river/tags`: ringbar does not speak River's protocols yet; left out",
            "`dwl/tags`: ringbar does not speak dwl's protocol yet; left out",
            "`river/window`: ringbar does not speak River's protocols yet; left out",
        ]
    );
    assert!(
        import.toml.contains("format = \"{value}\""),
        "{}",
        import.toml
    );
}

#[test]
fn a_wayfire_bar_keeps_its_workspaces_and_window() {
    let waybar = json!({
        "modules-left": ["wayfire/workspaces", "wayfire/window"],
        "wayfire/workspaces": {"format": "{value}"},
        "wayfire/window": {"max-length": 40}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let names: Vec<&str> = config.modules.left.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["workspaces", "window"]);
    assert!(
        !import.notes.iter().any(|n| n.contains("wayfire")),
        "{:?}",
        import.notes
    );
}
