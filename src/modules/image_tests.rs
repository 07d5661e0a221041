//! The image module's settings, its text (the file's path) and when it looks again.

use std::path::Path;

use super::*;
use crate::modules::tests::text_with as shown;
use crate::modules::Events;

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("image", toml)
}

#[test]
fn a_path_is_the_text_while_it_names_a_regular_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("art.png");
    std::fs::write(&file, b"x").expect("write");
    let image = module(&format!(
        "path = \"{}\"\nsize = 24\ninterval = 2",
        file.display()
    ));
    let (text, status) = shown(image.as_ref(), &Events::default());
    assert_eq!(text, file.display().to_string());
    assert!(status.is_some());
    assert!(matches!(
        image.widget(),
        Widget::Image {
            size: 24,
            script: None
        }
    ));
    assert_eq!(image.follows(), [Update::Timer]);
    assert_eq!(image.next_update_ms(10_500), Some(1_500));

    std::fs::remove_file(&file).expect("rm");
    assert_eq!(shown(image.as_ref(), &Events::default()).1, None, "missing");
    let folder = module(&format!("path = \"{}\"", dir.path().display()));
    assert_eq!(
        shown(folder.as_ref(), &Events::default()).1,
        None,
        "a folder"
    );
    assert_eq!(
        folder.next_update_ms(10_500),
        None,
        "no interval: looked at once"
    );
}

#[test]
fn a_script_runs_once_unless_an_interval_is_set_and_its_lines_are_text() {
    let image = module("exec = \"echo /tmp/a.png\"\nsignal = 3");
    let Widget::Image {
        size,
        script: Some(script),
    } = image.widget()
    else {
        panic!("a script's image");
    };
    assert_eq!(size, 16);
    assert_eq!(script.interval, Some(IntervalSetting::Once));
    assert_eq!(script.signal, Some(3));
    assert!(script.escapes(), "a path and a tooltip, never markup");
    assert_eq!(image.follows(), [Update::Script]);
    assert_eq!(image.next_update_ms(0), None);
}

#[test]
fn bad_settings_are_refused_and_waybars_carry_over() {
    crate::modules::tests::refused(
        "image",
        &[
            "size = 0",
            "size = 5000",
            "signal = 0",
            "path = 1",
            "width = 3",
        ],
    );
    let waybar = serde_json::json!({
        "modules-right": ["image#album-art"],
        "image#album-art": {"path": "/tmp/mpd_art", "size": 32, "interval": 5,
                            "on-click": "mpc toggle"}
    });
    let import = crate::config::import::convert(&waybar);
    for expected in [
        "path = \"/tmp/mpd_art\"",
        "size = 32",
        "interval = 5",
        "on-click = \"mpc toggle\"",
    ] {
        assert!(
            import.toml.contains(expected),
            "{expected} in {}",
            import.toml
        );
    }
    crate::config::parse(&import.toml, Path::new("c.toml")).expect("the import reads");
    let nothing = module("size = 30");
    assert_eq!(
        shown(nothing.as_ref(), &Events::default()).1,
        None,
        "no file"
    );
}
