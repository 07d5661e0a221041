//! A Waybar user's look, brought over by `ringbar import-waybar -o DIR/`: Debian's own
//! Waybar config and style.css, converted, load in the bar without a single CSS error
//! and draw the bar in Waybar's colours.

use std::process::Command;

use crate::common::session::{Compositor, Session, WIDTH};
use crate::common::{require_root, serial, wait_for};
use crate::*;

#[test]
fn debians_waybar_style_imported_loads_without_a_css_error_and_styles_the_bar() {
    let _serial = serial();
    require_root();
    let out = tempfile::tempdir().expect("dir");
    let dir = format!("{}/", out.path().join("ringbar").display());
    let import = Command::new(env!("CARGO_BIN_EXE_ringbar"))
        .args(["import-waybar", "/etc/xdg/waybar/config", "-o", &dir])
        .output()
        .expect("run import-waybar");
    let report = String::from_utf8_lossy(&import.stderr);
    assert!(import.status.success(), "{report}");
    assert!(report.contains("`-gtk-icon-effect`: GTK 3's"), "{report}");
    let read = |name: &str| std::fs::read_to_string(format!("{dir}{name}")).expect(name);
    let style = read("style.css");
    assert!(style.contains("window#ringbar {"), "{style}");

    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", &read("config.toml"));
    session.write_config_file("style.css", &style);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("style loaded from");
    bar.wait_for_log("bar on output HEADLESS-1");
    let log = bar.log_text();
    assert!(
        !log.contains("style.css:"),
        "GTK refused part of the style:\n{log}"
    );
    // Waybar's bar: 30 pixels of rgba(43, 48, 59, 0.5) over the desktop, then its 3-pixel
    // border of rgba(100, 114, 125, 0.5); not ringbar's own colour.
    let over_desktop = |colour: [u8; 3], desktop: [u8; 3]| {
        std::array::from_fn::<u8, 3, _>(|i| {
            ((u16::from(colour[i]) + u16::from(desktop[i])) / 2) as u8
        })
    };
    let near = |a: [u8; 3], b: [u8; 3]| (0..3).all(|i| a[i].abs_diff(b[i]) <= 8);
    // Between the left modules and the right ones (the centre's window title is hidden):
    // Waybar's bar has no padding of its own, so its last module reaches the edge.
    let x = WIDTH as usize / 4;
    wait_for("Waybar's colours on the bar", WAIT, || {
        let image = session.screenshot(0, 0, WIDTH, 45);
        let desktop = image.pixel(x, 40);
        let body = over_desktop([43, 48, 59], desktop);
        let border = over_desktop([100, 114, 125], desktop);
        (0..30).all(|y| near(image.pixel(x, y), body))
            && (30..33).all(|y| near(image.pixel(x, y), border))
            && !is_bar_background(image.pixel(x, 10))
    });
}
