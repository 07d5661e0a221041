//! Groups in the module lists: their members made and arranged, and what is wrong with
//! them named.

use std::path::Path;

use crate::config::{parse_all, Config};
use crate::modules::group::{Node, Orientation};

fn parse(text: &str) -> Result<Config, String> {
    parse_all(text, Path::new("c.toml")).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// A part's entries in a short form: `cpu`, `[name: members]`.
fn shape(nodes: &[Node], modules: &[std::rc::Rc<dyn crate::modules::Module>]) -> String {
    nodes
        .iter()
        .map(|node| match node {
            Node::Module(index) => modules[*index].name().to_owned(),
            Node::Group(group, members) => {
                format!("[{}: {}]", group.name, shape(members, modules))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_group_stands_for_its_members_nested_groups_too() {
    let config = parse(
        "modules_right = [\"clock\", \"group/hardware\", \"memory\"]\n\
         [group.hardware]\nmodules = [\"cpu\", \"group/inner\"]\norientation = \"inherit\"\n\
         [group.hardware.drawer]\ntransition-duration = 300\nclick-to-reveal = true\n\
         children-class = \"tucked\"\n\
         [group.inner]\nmodules = [\"disk\", \"memory\"]\n",
    )
    .expect("valid");
    let layout = &config.bars[0].modules;
    let names: Vec<&str> = layout.right.iter().map(|m| m.name()).collect();
    // The members in their place, each module made once.
    assert_eq!(names, ["clock", "cpu", "disk", "memory", "memory"]);
    assert!(std::rc::Rc::ptr_eq(&layout.right[3], &layout.right[4]));
    assert_eq!(
        shape(&layout.arranged[2], &layout.right),
        "clock [hardware: cpu [inner: disk memory]] memory"
    );
    let Node::Group(hardware, _) = &layout.arranged[2][1] else {
        panic!("not a group")
    };
    assert_eq!(hardware.orientation, Orientation::Inherit);
    let drawer = hardware.drawer.as_ref().expect("drawer");
    assert_eq!(drawer.transition_duration, 300);
    assert_eq!(drawer.children_class, "tucked");
    assert!(drawer.click_to_reveal && drawer.transition_left_to_right);
    // The config's modules, for the event sources and --once: the members too.
    assert_eq!(
        config
            .modules
            .right
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>(),
        ["clock", "cpu", "disk", "memory", "memory"]
    );
}

#[test]
fn waybars_default_orientation_is_across_the_box_the_group_is_in() {
    assert!(Orientation::Orthogonal.vertical(false));
    assert!(!Orientation::Orthogonal.vertical(true));
    assert!(Orientation::Inherit.vertical(true));
    assert!(!Orientation::Horizontal.vertical(true));
    assert!(Orientation::Vertical.vertical(false));
}

#[test]
fn a_group_without_a_table_listing_itself_or_with_unknown_keys_is_named() {
    let missing = parse("modules_left = [\"group/gone\"]\n").expect_err("no table");
    assert!(
        missing.contains("group/gone has no table: add [group.gone] with its `modules`"),
        "{missing}"
    );
    let looped = parse(
        "modules_left = [\"group/a\"]\n[group.a]\nmodules = [\"cpu\", \"group/b\"]\n\
         [group.b]\nmodules = [\"group/a\"]\n",
    )
    .expect_err("loop");
    assert!(
        looped.contains("group/a lists itself, through group/a → group/b"),
        "{looped}"
    );
    let unknown =
        parse("modules_left = [\"group/a\"]\n[group.a]\nmodules = [\"cpu\"]\nspin = true\n")
            .expect_err("unknown key");
    assert!(unknown.contains("unknown field `spin`"), "{unknown}");
    let drawer = parse(
        "modules_left = [\"group/a\"]\n[group.a]\nmodules = [\"cpu\"]\n\
         [group.a.drawer]\ntransition-duration = -5\n",
    )
    .expect_err("negative duration");
    assert!(drawer.contains("transition-duration"), "{drawer}");
    let member = parse("modules_left = [\"group/a\"]\n[group.a]\nmodules = [\"cpux\"]\n")
        .expect_err("unknown member");
    assert!(member.contains("no module is called \"cpux\""), "{member}");
}

#[test]
fn groups_that_multiply_stop_at_the_part_limit() {
    // Eight groups, each listing the next sixty times: 60^8 modules unless bounded.
    let mut text = String::from("modules_left = [\"group/g0\"]\n");
    for level in 0..8 {
        let next = match level {
            7 => "\"cpu\"".to_owned(),
            _ => format!("\"group/g{}\"", level + 1),
        };
        let list = vec![next; 60].join(", ");
        text.push_str(&format!("[group.g{level}]\nmodules = [{list}]\n"));
    }
    let err = parse(&text).expect_err("too many");
    assert!(err.contains("more than 256 modules in one part"), "{err}");
}
