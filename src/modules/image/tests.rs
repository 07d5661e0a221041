//! The image module's settings, its text (the file's path) and when it looks again; with
//! `multiple`, its row of pictures from `entries` or a script's JSON.

use std::path::Path;

use super::*;
use crate::modules::tests::text_with as shown;
use crate::modules::{Action, Button, Events, RowButton, Target};

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

/// The buttons `module` draws with `scripts`.
fn buttons(module: &dyn Module, scripts: &crate::modules::Scripts) -> Vec<RowButton> {
    let sample = crate::sample::Sample::default();
    let input = Input {
        scripts,
        ..crate::modules::tests::input(&sample)
    };
    let Widget::Buttons(row) = module.widget() else {
        panic!("a row of pictures");
    };
    let mut out = vec![RowButton {
        label: "left over".to_owned(),
        classes: Vec::new(),
        class: None,
        icon: None,
        icon_last: false,
        tooltip: None,
        target: Target::Task(1),
    }];
    row.buttons(&input, &mut out);
    out
}

#[test]
fn multiple_entries_are_a_row_of_their_files_with_markers_tooltips_and_clicks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (one, two) = (dir.path().join("1.png"), dir.path().join("2.png"));
    std::fs::write(&one, b"x").expect("write");
    std::fs::write(&two, b"x").expect("write");
    let image = module(&format!(
        "multiple = true\nsize = 32\ninterval = 1\nentries = [\n\
         {{ path = \"{}\", marker = \"dimmed\", tooltip = \"dimmed <b>image</b>\", \
         on-click = \"notify-send hi\" }},\n\
         {{ path = \"{}\", marker = \"not a class\" }},\n\
         {{ path = \"{}/gone.png\", marker = \"gone\" }},\n\
         {{ path = \"relative.png\" }} ]",
        one.display(),
        two.display(),
        dir.path().display()
    ));
    let row = buttons(image.as_ref(), &crate::modules::Scripts::new());
    assert_eq!(
        row.len(),
        2,
        "the missing and the relative file left out: {row:?}"
    );
    assert_eq!(row[0].icon.as_deref(), Some(one.to_str().expect("utf-8")));
    assert_eq!(row[0].class.as_deref(), Some("dimmed"));
    assert_eq!(row[0].tooltip.as_deref(), Some("dimmed <b>image</b>"));
    assert_eq!(row[0].label, "", "a picture alone");
    assert_eq!(row[1].class, None, "a marker that is no CSS name");
    assert_eq!(row[1].tooltip, None);
    assert_eq!(image.follows(), [Update::Timer]);
    assert_eq!(image.next_update_ms(10_250), Some(750));
    let Widget::Buttons(pictures) = image.widget() else {
        unreachable!()
    };
    assert_eq!(pictures.icons().size, 32);
    assert_eq!(pictures.script(), None);

    // Its own on-click for a left click; the module's for the rest, and where it has none.
    assert_eq!(
        pictures.press(&row[0].target, Button::Left, Some("module's")),
        Some(Action::Spawn("notify-send hi".to_owned()))
    );
    assert_eq!(
        pictures.press(&row[0].target, Button::Right, Some("module's")),
        Some(Action::Run(Button::Right))
    );
    assert_eq!(
        pictures.press(&row[1].target, Button::Left, Some("module's")),
        Some(Action::Run(Button::Left))
    );
    assert_eq!(pictures.press(&row[1].target, Button::Left, None), None);

    let (text, status) = shown(image.as_ref(), &Events::default());
    assert_eq!(text, format!("{} {}", one.display(), two.display()));
    assert!(status.is_some());
    let none = module("multiple = true\nentries = []");
    assert!(buttons(none.as_ref(), &crate::modules::Scripts::new()).is_empty());
    assert_eq!(shown(none.as_ref(), &Events::default()).1, None, "hidden");
}

#[test]
fn a_script_prints_the_pictures_as_a_json_array() {
    use crate::events::script::{ScriptOutput, ScriptState};
    let dir = tempfile::tempdir().expect("tempdir");
    let one = dir.path().join("1.png");
    std::fs::write(&one, b"x").expect("write");
    let image = module("multiple = true\nexec = \"provider.py\"\nsignal = 7\ntooltip = false");
    let Widget::Buttons(pictures) = image.widget() else {
        panic!("a row");
    };
    let script = pictures.script().expect("its script");
    assert!(
        script.whole_output,
        "a document over several lines is read whole"
    );
    assert_eq!(script.interval, Some(IntervalSetting::Once));
    assert_eq!(script.signal, Some(7));
    assert_eq!(image.follows(), [Update::Script]);

    let printed = |text: String| {
        let mut scripts = crate::modules::Scripts::new();
        let output = ScriptOutput {
            text,
            ..ScriptOutput::default()
        };
        scripts.insert("image".to_owned(), ScriptState::Output(output));
        buttons(image.as_ref(), &scripts)
    };
    // Its lines joined by spaces, as the runner hands a whole output over.
    let row = printed(format!(
        "[ {{\"path\": \"{}\", \"marker\": \"clickable\", \"on-click\": \"echo hi\", \
         \"tooltip\": \"sample\"}},   {{\"path\": \"{}\", \"marker\": \"important\"}} ]",
        one.display(),
        one.display()
    ));
    assert_eq!(row.len(), 2, "{row:?}");
    assert_eq!(row[1].class.as_deref(), Some("important"));
    assert_eq!(row[0].tooltip, None, "tooltip = false");
    assert_eq!(row[0].target, Target::Item(Some("echo hi".to_owned())));
    // Not an array of pictures: none shown, and the bar goes on.
    for bad in [
        "{\"path\": \"/x\"}",
        "[{\"path\": 3}]",
        "[{\"path\": \"/x\", \"size\": 2}]",
        "not json",
    ] {
        assert!(printed(bad.to_owned()).is_empty(), "{bad}");
    }
    assert!(printed(String::new()).is_empty());
    // A script that prints thousands: the first ones drawn.
    let many: Vec<String> = (0..5000)
        .map(|_| format!("{{\"path\": \"{}\"}}", one.display()))
        .collect();
    assert_eq!(
        printed(format!("[{}]", many.join(","))).len(),
        row::MAX_ENTRIES
    );
}

#[test]
fn multiple_keys_that_do_not_go_together_are_refused() {
    crate::modules::tests::refused(
        "image",
        &[
            "multiple = true\npath = \"/a.png\"",
            "entries = [{ path = \"/a.png\" }]",
            "multiple = true\nentries = [{ path = \"/a.png\", size = 3 }]",
            "multiple = true\nentries = [{ marker = \"m\" }]",
            "multiple = \"yes\"",
        ],
    );
    let waybar = serde_json::json!({
        "modules-left": ["image#wentr"],
        "image#wentr": {"multiple": true, "size": 32, "interval": 1, "entries": [
            {"path": "/home/user/Pictures/idk1.png", "marker": "dimmed",
             "tooltip": "dimmed image", "on-click": "notify-send \"hello world\""},
            {"path": "/home/user/Pictures/idk2.png", "marker": "normal"}
        ]}
    });
    let import = crate::config::import::convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    assert!(import.toml.contains("multiple = true"), "{}", import.toml);
    assert!(
        import.toml.contains("marker = \"dimmed\""),
        "{}",
        import.toml
    );
    assert!(matches!(
        config.modules.left[0].widget(),
        Widget::Buttons(_)
    ));
}
