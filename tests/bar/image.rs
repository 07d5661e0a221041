//! The image module in sway: a PNG drawn on the bar (read back from a screenshot), the
//! file changed under the same name and drawn again, the file gone (hidden), a FIFO and
//! a file that is no picture (the main loop never waits; the bar says why), a script that
//! names the file and gives a tooltip with markup, and `--once --json`.

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
