//! Waybar's groups, converted with their members.

use std::path::Path;

use serde_json::json;

use super::convert;
use crate::modules::group::Node;

#[test]
fn a_drawer_group_comes_over_with_its_members_and_nested_groups() {
    let waybar = json!({
        "modules-right": ["group/hardware", "clock"],
        "group/hardware": {
            "orientation": "inherit",
            "modules": ["cpu", "memory", "group/power", "cffi/player"],
            "drawer": {"transition-duration": 300, "children-class": "not-first",
                       "transition-left-to-right": false, "always-visible-class": "x"}
        },
        "group/power": {"modules": ["battery", "custom/off"], "orientation": "sideways"},
        "custom/off": {"format": "⏻", "on-click": "systemctl poweroff"},
        "cpu": {"interval": 3}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let layout = &config.bars[0].modules;
    let names: Vec<&str> = layout.right.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["cpu", "memory", "battery", "custom/off", "clock"]);
    let [Node::Group(hardware, members), Node::Module(_)] = &layout.arranged[2][..] else {
        panic!("{:?}", layout.arranged[2]);
    };
    assert_eq!(hardware.name, "hardware");
    let drawer = hardware.drawer.as_ref().expect("drawer");
    assert_eq!(drawer.transition_duration, 300);
    assert_eq!(drawer.children_class, "not-first");
    assert!(!drawer.transition_left_to_right);
    assert!(matches!(&members[2], Node::Group(power, _) if power.name == "power"));
    // Members' settings carry over as anywhere else.
    assert_eq!(config.interval_ms, 3000);
    for note in [
        "`cffi/player`: no ringbar module yet; left out",
        "`group/hardware` drawer `always-visible-class`: no ringbar counterpart; not carried over",
        "`group/power` `orientation` \"sideways\": not inherit, orthogonal, horizontal or \
         vertical; not carried over",
    ] {
        assert!(
            import.notes.iter().any(|n| n == note),
            "{note} in {:?}",
            import.notes
        );
    }
    assert!(!import.notes.iter().any(|n| n.contains("on no module list")));
}

#[test]
fn a_group_listing_itself_is_left_out_and_a_module_listed_twice_stays_twice() {
    let waybar = json!({
        "modules-left": ["group/a", "clock"],
        "modules-right": ["clock"],
        "group/a": {"modules": ["cpu", "group/b"]},
        "group/b": {"modules": ["group/a"]}
    });
    let import = convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let bar = &config.bars[0].modules;
    let names = |part: &[std::rc::Rc<dyn crate::modules::Module>]| {
        part.iter().map(|m| m.name().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(names(&bar.left), ["cpu", "clock"]);
    assert_eq!(names(&bar.right), ["clock"]);
    assert!(
        import
            .notes
            .iter()
            .any(|n| n == "`group/a`: lists itself or nests too deep; left out"),
        "{:?}",
        import.notes
    );
}
