//! The taskbar on sway, from its wlr-foreign-toplevel protocol: real windows
//! (weston-flower, and a client with many windows of its own), their desktop entry's
//! name and icon, a left click that activates and a middle click that closes, hostile
//! titles and a thousand windows.

use std::path::PathBuf;
use std::process::Child;

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

/// `examples/windows` copied where the session's user can run it.
fn windows_helper(session: &Session) -> PathBuf {
    let built = crate::common::hyprland::example("windows");
    let copy = session.path().join("windows");
    std::fs::copy(&built, &copy).expect("copy the windows helper");
    copy
}

fn open_windows(session: &Session, helper: &PathBuf, args: &[&str]) -> Child {
    session
        .as_user(helper)
        .args(args)
        .spawn()
        .expect("start the windows helper")
}

/// The id of sway's focused window's app.
fn focused_app(session: &Session) -> String {
    let tree = session.swaymsg(&["-t", "get_tree", "-r"]);
    let at = tree.find("\"focused\": true").unwrap_or(0);
    let after = &tree[at..];
    after
        .split("\"app_id\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn the_taskbar_shows_sways_windows_and_clicks_activate_and_close_them() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // A desktop entry for the helper's app id: its name and icon are the button's.
    let data = session.path().join("data");
    std::fs::create_dir_all(data.join("applications")).expect("applications folder");
    std::fs::write(
        data.join("applications/org.ringbar.Petals.desktop"),
        "[Desktop Entry]\nType=Application\nName=Petals\nExec=true\nIcon=ringbar-petals\n",
    )
    .expect("desktop entry");
    let data_home = data.display().to_string();
    session.write_config_file(
        "config.toml",
        "modules_left = [\"taskbar\"]\nmodules_right = [\"clock\"]\n\
         [taskbar]\nformat = \"{icon} {name}\"\ntooltip-format = \"{title} ({app_id})\"\n\
         rewrite = { \"org\\\\.freedesktop\\\\.weston\\\\.(.*)\" = \"weston $1\" }\n",
    );
    let mut pointer = session.pointer();
    let mut bar = session.start_bar(&[("XDG_DATA_HOME", data_home.as_str())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let helper = windows_helper(&session);
    let mut petals = open_windows(
        &session,
        &helper,
        &["1", "Petals window", "org.ringbar.Petals"],
    );
    wait_for("the helper's window, named and with its icon", WAIT, || {
        bar.field("taskbar") == "Petals:active@ringbar-petals"
    });
    let mut flower = session
        .as_user("weston-flower")
        .spawn()
        .expect("start weston-flower");
    // The flower takes the focus; it has no desktop entry: its app id, and an icon name.
    wait_for("two buttons, the flower active", WAIT, || {
        let field = bar.field("taskbar");
        eprintln!("taskbar: {field}");
        let buttons: Vec<&str> = field.split('|').collect();
        buttons.len() == 2
            && buttons[0] == "Petals:@ringbar-petals"
            && buttons[1].contains(":active@")
    });
    let flower_app = focused_app(&session);
    assert!(!flower_app.is_empty(), "sway names the flower's app id");
    // Its name is its app id, which the config's `rewrite` rule shortens.
    assert_eq!(flower_app, "org.freedesktop.weston.flower");
    let field = bar.field("taskbar");
    assert!(field.contains("|weston flower:active@"), "{field}");
    // Its buttons, icons and all, keep the bar at its height (26 px by default): the
    // toolkit's own buttons would make it 34.
    assert_eq!(
        bar.field("size"),
        "1280x26",
        "the bar's size with two buttons"
    );

    // A left click on the helper's button activates it.
    let (x, y) = bar.button_center("taskbar", 0);
    pointer.move_to(x, y);
    pointer.click("left");
    wait_for("the helper's window focused by the click", WAIT, || {
        focused_app(&session) == "org.ringbar.Petals"
    });
    wait_for("its button active", WAIT, || {
        bar.field("taskbar").starts_with("Petals:active@")
    });
    // A middle click on the flower's button closes it: the client exits.
    let (x, y) = bar.button_center("taskbar", 1);
    pointer.move_to(x, y);
    pointer.click("middle");
    wait_for("the flower closed by the middle click", WAIT, || {
        matches!(flower.try_wait(), Ok(Some(_)))
    });
    wait_for("one button left", WAIT, || {
        bar.field("taskbar") == "Petals:active@ringbar-petals"
    });
    let _ = petals.kill();
    let _ = petals.wait();
    wait_for("no button, the row hidden", WAIT, || {
        bar.field("taskbar.visible") == "false"
    });

    // Hostile titles and app ids: markup, control and direction characters, a path for
    // an app id, 3 kB of title (a Wayland message holds 4 kB). The bar shows them as
    // text and stays up.
    let hostile_title = format!("<b>x</b>&amp;\u{202e}evil\u{7}{}", "é".repeat(1500));
    let mut hostile = open_windows(&session, &helper, &["1", &hostile_title, "/etc/shadow"]);
    wait_for("the hostile window's button", WAIT, || {
        let field = bar.field("taskbar");
        eprintln!("taskbar: {:.80}", field);
        field == "/etc/shadow:active@application-x-executable"
    });
    let _ = hostile.kill();
    let _ = hostile.wait();

    // A thousand windows at once (floating: sway lays out no tiles for them), from seven
    // clients of 143 (with about 200 windows from one client, sway 1.7 closed that
    // client's connection here: a limit of one client's, not the bar's, whose list holds
    // 4096), then gone at once.
    session.swaymsg(&["for_window [app_id=\"org.ringbar.Many\"] floating enable"]);
    let mut crowd: Vec<Child> = (0..7)
        .map(|_| open_windows(&session, &helper, &["143", "many", "org.ringbar.Many"]))
        .collect();
    wait_for("1001 buttons", Duration::from_secs(120), || {
        bar.field("taskbar").split('|').count() == 1001
    });
    for client in &mut crowd {
        let _ = client.kill();
        let _ = client.wait();
    }
    wait_for("none left", Duration::from_secs(60), || {
        bar.field("taskbar.visible") == "false"
    });
    assert_eq!(bar.try_wait(), None, "the bar is up: {}", bar.log_text());
    assert!(!bar.log_text().contains("CRITICAL"), "{}", bar.log_text());
}
