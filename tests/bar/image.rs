//! The image module in sway: a PNG drawn on the bar (read back from a screenshot), the
//! file changed under the same name and drawn again, the file gone (hidden), a FIFO and
//! a file that is no picture (the main loop never waits; the bar says why), a script that
//! names the file and gives a tooltip with markup, and `--once --json`; with `multiple`, a
//! row of pictures with their markers and clicks, from the config and from a script.

use std::time::Duration;

use crate::common::screen::write_png;
use crate::common::session::{Compositor, RunningBar, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

fn pixels_of(session: &Session, bar: &RunningBar, colour: [u8; 3]) -> usize {
    session.pixels_near(bar, "image", colour)
}

fn config(image: &str) -> String {
    format!(
        "interval_ms = 500\nmodules_left = [\"image\"]\nmodules_center = []\n\
         modules_right = [\"memory\"]\n[image]\n{image}\n"
    )
}

fn reloads(bar: &RunningBar) -> usize {
    bar.log_text().matches("reloading the config").count()
}

#[test]
fn an_image_file_is_drawn_and_followed() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let dir = session.path().join("pictures");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let _ = std::process::Command::new("chmod")
        .arg("755")
        .arg(&dir)
        .status();
    let picture = dir.join("art.png");
    write_png(&picture, 64, [230, 20, 20]);
    session.write_config_file(
        "config.toml",
        &config(&format!(
            "path = \"{}\"\nsize = 20\ninterval = 1",
            picture.display()
        )),
    );
    drop(session.pointer());
    let bar = session.start_bar(&[]);
    wait_for("the red picture", WAIT, || {
        pixels_of(&session, &bar, [230, 20, 20]) > 300
    });

    // Saved again under the same name: drawn again within the interval.
    write_png(&picture, 64, [20, 20, 230]);
    wait_for("the blue picture", WAIT, || {
        pixels_of(&session, &bar, [20, 20, 230]) > 300
    });

    // Gone: hidden. A FIFO (never opened) or a file that is no picture: the bar goes on.
    std::fs::remove_file(&picture).expect("rm");
    wait_for("hidden", WAIT, || bar.field("image.visible") == "false");
    let fifo = dir.join("fifo.png");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo")
        .success());
    let window = crate::common::stalls::Window::open(&session.hook_dir());
    let before = reloads(&bar);
    session.write_config_file(
        "config.toml",
        &config(&format!(
            "path = \"{}\"\nsize = 20\ninterval = 1",
            fifo.display()
        )),
    );
    wait_for("the reload", WAIT, || reloads(&bar) > before);
    std::thread::sleep(Duration::from_secs(2));
    assert_ne!(bar.field("image.visible"), "true", "a FIFO is no picture");
    let text = dir.join("notes.png");
    std::fs::write(&text, "not a picture\n").expect("write");
    let before = reloads(&bar);
    session.write_config_file(
        "config.toml",
        &config(&format!("path = \"{}\"\nsize = 20", text.display())),
    );
    wait_for("the reload", WAIT, || reloads(&bar) > before);
    bar.wait_for_log(&format!("image: cannot show {}", text.display()));
    window.assert_on_time("the FIFO and the file that is no picture");

    // A script names the file, and gives the tooltip.
    write_png(&picture, 64, [20, 200, 20]);
    let before = reloads(&bar);
    session.write_config_file(
        "config.toml",
        &config(&format!(
            "exec = \"printf '%s\\\\n%s\\\\n' {} 'Album <b>art</b> & co'\"\nsize = 20",
            picture.display()
        )),
    );
    wait_for("the reload", WAIT, || reloads(&bar) > before);
    wait_for("the green picture", WAIT, || {
        pixels_of(&session, &bar, [20, 200, 20]) > 300
    });
    bar.point_at(&session, "image");
    wait_for("the script's tooltip", WAIT, || {
        bar.tooltip_markup() == "Album &lt;b&gt;art&lt;/b&gt; &amp; co"
    });
    assert_eq!(bar.field("image"), picture.display().to_string());

    // `--once --json`: the file's path.
    let doc = session.once_json(&[]);
    assert_eq!(doc["modules"][0]["name"], "image", "{}", doc["modules"]);
    assert_eq!(doc["modules"][0]["text"], picture.display().to_string());
}

#[test]
fn multiple_pictures_are_drawn_with_their_markers_and_clicks() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let dir = session.path().join("pictures");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let _ = std::process::Command::new("chmod")
        .arg("777")
        .arg(&dir)
        .status();
    let (red, blue) = (dir.join("red.png"), dir.join("blue.png"));
    write_png(&red, 64, [230, 20, 20]);
    write_png(&blue, 64, [20, 20, 230]);
    let clicked = dir.join("clicked");
    session.write_config_file(
        "config.toml",
        &config(&format!(
            "multiple = true\nsize = 20\ninterval = 1\nentries = [\n\
             {{ path = \"{}\", marker = \"dimmed\", tooltip = \"the red one\", \
             on-click = \"touch {}\" }},\n{{ path = \"{}\", marker = \"normal\" }},\n\
             {{ path = \"{}/missing.png\" }} ]",
            red.display(),
            clicked.display(),
            blue.display(),
            dir.display()
        )),
    );
    drop(session.pointer());
    let bar = session.start_bar(&[]);
    let expected = format!(":dimmed@{}|:normal@{}", red.display(), blue.display());
    wait_for("two pictures with their markers", WAIT, || {
        bar.field("image") == expected
    });
    wait_for("both drawn", WAIT, || {
        pixels_of(&session, &bar, [230, 20, 20]) > 200
            && pixels_of(&session, &bar, [20, 20, 230]) > 200
    });

    // A left click on the first runs its own on-click.
    let (x, y) = bar.button_center("image", 0);
    let mut pointer = session.pointer();
    pointer.move_to(x, y);
    pointer.click("left");
    wait_for("the picture's on-click ran", WAIT, || clicked.exists());
    drop(pointer);

    // Saved again under its name: drawn again at the next interval.
    write_png(&red, 64, [230, 230, 20]);
    wait_for("the yellow picture", WAIT, || {
        pixels_of(&session, &bar, [230, 230, 20]) > 200
    });

    // A script prints them as a JSON array over several lines, as `jq .` does.
    let green = dir.join("green.png");
    write_png(&green, 64, [20, 200, 20]);
    let before = reloads(&bar);
    let script = session.write_home_file(
        "pictures.sh",
        &format!(
            "#!/bin/sh\nprintf '[\\n  {{\\n    \"path\": \"%s\",\\n    \"marker\": \"important\"\\n  }}\\n]\\n' {}\n",
            green.display()
        ),
    );
    let _ = std::process::Command::new("chmod")
        .arg("755")
        .arg(&script)
        .status();
    session.write_config_file(
        "config.toml",
        &config(&format!(
            "multiple = true\nsize = 20\nexec = \"{}\"",
            script.display()
        )),
    );
    wait_for("the reload", WAIT, || reloads(&bar) > before);
    let expected = format!(":important@{}", green.display());
    wait_for("the script's picture", WAIT, || {
        bar.field("image") == expected
    });
    wait_for("the green picture", WAIT, || {
        pixels_of(&session, &bar, [20, 200, 20]) > 200
    });
    let doc = session.once_json(&[]);
    assert_eq!(doc["modules"][0]["text"], green.display().to_string());

    // Output that is no array of pictures: the row hides, with one line saying why.
    let before = reloads(&bar);
    session.write_config_file(
        "config.toml",
        &config("multiple = true\nsize = 20\nexec = \"echo '{not json'\""),
    );
    wait_for("the reload", WAIT, || reloads(&bar) > before);
    bar.wait_for_log("printed no JSON array of pictures");
    wait_for("hidden", WAIT, || bar.field("image.visible") == "false");
}
