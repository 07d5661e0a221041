//! The modules fed by the compositor and by scripts: workspaces, the window title,
//! custom modules.

use std::os::unix::fs::PermissionsExt;

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

#[test]
fn workspaces_and_the_window_title_follow_sway_events() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"workspaces\", \"window\"]\nmodules_right = [\"windowcount\", \"cpu\"]\n",
    );
    // As sway's `exec` starts it.
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    wait_for("workspace 1", WAIT, || {
        field("workspaces") == "1:focused+visible+empty"
    });

    session.swaymsg(&["workspace", "alpha"]);
    wait_for("workspace alpha, focused", WAIT, || {
        field("workspaces") == "alpha:focused+visible+empty"
    });
    let mut flower = session
        .as_user("weston-flower")
        .spawn()
        .expect("start weston-flower");
    wait_for("the flower's title and occupancy", WAIT, || {
        field("window") == "Flower"
            && field("window.visible") == "true"
            && field("workspaces") == "alpha:focused+visible+occupied"
            && field("windowcount") == "1"
    });
    // What a user sees: the left of the bar, read by OCR.
    let left_text = || crate::common::ocr::read_text(&session.screenshot(0, 0, 400, 26));
    wait_for("`alpha` and `Flower` on screen", WAIT, || {
        let text = left_text();
        eprintln!("OCR: {text:?}");
        text.contains("alpha") && text.contains("Flower")
    });
    session.swaymsg(&["workspace", "beta"]);
    wait_for("beta focused, alpha occupied, no title", WAIT, || {
        field("workspaces") == "alpha:occupied|beta:focused+visible+empty"
            && field("window.visible") == "false"
            && field("windowcount") == "0"
    });
    wait_for("`alpha beta` and no title on screen", WAIT, || {
        let text = left_text();
        eprintln!("OCR: {text:?}");
        text.contains("alpha") && text.contains("beta") && !text.contains("Flower")
    });

    // A click on the first button (alpha) switches sway to it.
    let mut pointer = session.pointer();
    let on_alpha = || {
        session
            .swaymsg(&["-t", "get_workspaces", "-r"])
            .split("\"name\"")
            .any(|w| w.starts_with(": \"alpha\"") && w.contains("\"focused\": true"))
    };
    let (x, y) = bar.button_center("workspaces", 0);
    pointer.move_to(x, y);
    pointer.click("left");
    wait_for("sway on alpha", WAIT, on_alpha);
    wait_for("the bar follows", WAIT, || {
        field("workspaces") == "alpha:focused+visible+occupied" && field("window") == "Flower"
    });
    let _ = flower.kill();
    let _ = flower.wait();
    wait_for("the window gone", WAIT, || {
        field("window.visible") == "false"
    });
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

/// Waybar's `persistent-workspaces`: a workspace sway has not made has its button, and a
/// click on it makes sway create it; left again, it keeps its button.
#[test]
fn a_persistent_workspace_is_shown_and_made_by_a_click() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"sway/workspaces\"]\nmodules_right = [\"clock\"]\n\
         [\"sway/workspaces\"]\npersistent-workspaces = { \"1\" = [], \"music\" = [\"HEADLESS-1\"] }\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    wait_for("1 and the persistent music", WAIT, || {
        field("workspaces") == "1:focused+visible+persistent+empty|music:persistent+empty"
    });
    let has_music = || session.swaymsg(&["-t", "get_workspaces"]).contains("music");
    assert!(!has_music(), "sway has no workspace music yet");
    let (x, y) = bar.button_center("workspaces", 1);
    let mut pointer = session.pointer();
    pointer.move_to(x, y);
    pointer.click("left");
    wait_for("sway made music", WAIT, has_music);
    // Sway drops the empty workspace 1 it left: its button stays.
    wait_for("music focused, 1 kept", WAIT, || {
        field("workspaces") == "1:persistent+empty|music:focused+visible+persistent+empty"
    });
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

/// Waybar's `sort-by` and sway's `custom-sort`: the buttons by name, after the names
/// put first (`mail` matches `3:mail`), sway's own workspace among the persistent ones;
/// a workspace sway makes later takes its place in that order.
#[test]
fn the_buttons_follow_sort_by_and_custom_sort() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"sway/workspaces\"]\nmodules_right = [\"clock\"]\n\
         [\"sway/workspaces\"]\nsort-by = \"name\"\ncustom-sort = [\"mail\"]\n\
         persistent-workspaces = { \"2\" = [], \"10\" = [], \"web\" = [], \"3:mail\" = [] }\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let names = || -> Vec<String> {
        let field = bar.field("workspaces");
        field
            .split('|')
            .filter_map(|b| b.split(':').next())
            .map(str::to_owned)
            .collect()
    };
    wait_for("mail first, then by name", WAIT, || {
        names() == ["3", "1", "10", "2", "web"]
    });
    session.swaymsg(&["workspace", "apple"]);
    // Sway drops the empty workspace 1 it left.
    wait_for("apple in its place", WAIT, || {
        names() == ["3", "10", "2", "apple", "web"]
    });
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

/// Waybar's `window-rewrite`: each window on a workspace is written by the first rule
/// its app id matches (`class<…>` holds the whole app id, here
/// `org.freedesktop.weston.flower`), and two alike are grouped.
#[test]
fn window_rewrite_writes_the_windows_of_each_workspace() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"sway/workspaces\"]\nmodules_right = [\"clock\"]\n\
         [\"sway/workspaces\"]\nformat = \"{name}={windows}\"\n\
         window-rewrite = { \"class<.*\\\\.flower>\" = \"Bloom\", \"class<nothing>\" = \"x\" }\n\
         window-rewrite-group-threshold = 2\nwindow-rewrite-group-format = \"{count} {icon}s\"\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    wait_for("workspace 1 without windows", WAIT, || {
        field("workspaces") == "1=:focused+visible+empty"
    });
    let flower = || {
        let child = session.as_user("weston-flower").spawn();
        child.expect("start weston-flower")
    };
    let mut first = flower();
    wait_for("one flower", WAIT, || {
        field("workspaces") == "1=Bloom:focused+visible+occupied"
    });
    let mut second = flower();
    wait_for("two flowers, grouped", WAIT, || {
        field("workspaces") == "1=2 Blooms:focused+visible+occupied"
    });
    let text = crate::common::ocr::read_text(&session.screenshot(0, 0, 200, 26));
    assert!(text.contains("2 Blooms"), "OCR: {text:?}");
    let _ = second.kill();
    let _ = second.wait();
    wait_for("one flower again", WAIT, || {
        field("workspaces") == "1=Bloom:focused+visible+occupied"
    });
    let _ = first.kill();
    let _ = first.wait();
    wait_for("none", WAIT, || {
        field("workspaces") == "1=:focused+visible+empty"
    });
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

/// Sway's scratchpad, by Waybar's name: a window moved there is counted, with its line
/// in the tooltip; shown again, the module hides.
#[test]
fn the_scratchpad_counts_sways_stashed_windows() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"sway/scratchpad\"]\nmodules_right = [\"clock\"]\n\
         [\"sway/scratchpad\"]\nformat = \"{icon} {count}\"\nformat-icons = [\"none\", \"STASH\"]\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    let mut flower = session
        .as_user("weston-flower")
        .spawn()
        .expect("start weston-flower");
    wait_for(
        "the flower mapped, the scratchpad empty and hidden",
        WAIT,
        || {
            session
                .swaymsg(&["-t", "get_tree"])
                .contains("org.freedesktop.weston.flower")
                && field("scratchpad.visible") == "false"
        },
    );
    session.swaymsg(&[
        "[app_id=\"org.freedesktop.weston.flower\"]",
        "move",
        "scratchpad",
    ]);
    wait_for("the flower in the scratchpad", WAIT, || {
        field("scratchpad") == "STASH 1"
    });
    assert_eq!(field("scratchpad.visible"), "true");
    let text = crate::common::ocr::read_text(&session.screenshot(0, 0, 200, 26));
    assert!(text.contains("STASH"), "OCR: {text:?}");
    session.swaymsg(&["scratchpad", "show"]);
    wait_for("hidden again once it is shown", WAIT, || {
        field("scratchpad.visible") == "false"
    });
    let _ = flower.kill();
    let _ = flower.wait();
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

#[test]
fn custom_modules_run_waybar_scripts_and_their_clicks() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let scripts = session.home().join("scripts");
    std::fs::create_dir_all(&scripts).expect("mkdir");
    let clicked = session.home().join("clicked");
    let forwarded = session.home().join("forwarded");
    let weather = scripts.join("weather.sh");
    std::fs::write(
        &weather,
        "#!/bin/sh\nwhile :; do echo '{\"text\": \"rain <b>12°</b>\", \"tooltip\": \"Bergen & co\", \
         \"class\": [\"wet\", \"bad class!\"]}'; sleep 1; done\n",
    )
    .expect("write script");
    let dying = scripts.join("dying.sh");
    std::fs::write(&dying, "#!/bin/sh\necho 'not json'\nexit 3\n").expect("write script");
    for file in [&weather, &dying] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    session.write_config_file(
        "config.toml",
        &format!(
            "modules_left = [\"custom/weather\", \"custom/dying\"]\nmodules_right = [\"cpu\"]\n\
             [custom.weather]\nexec = \"{}\"\nreturn-type = \"json\"\non-click = \"touch {}\"\n\
             on-click-forward = \"touch {}\"\n\
             format-alt = \"ALT {{}}\"\nformat-alt-click = \"click-middle\"\n\
             [custom.dying]\nexec = \"{}\"\nreturn-type = \"json\"\n",
            weather.display(),
            clicked.display(),
            forwarded.display(),
            dying.display()
        ),
    );
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    wait_for("the script's text and classes", WAIT, || {
        field("custom/weather") == "rain 12°"
            && field("custom/weather.classes")
                .split(',')
                .any(|c| c == "wet")
            && !field("custom/weather.classes").contains("bad")
            && field("custom/weather.classes")
                .split(',')
                .any(|c| c == "custom-weather")
    });
    wait_for("the dying script's marker", WAIT, || {
        field("custom/dying") == "⚠"
            && field("custom/dying.classes")
                .split(',')
                .any(|c| c == "failed")
    });
    // Over the weather module first (its tooltip shows), so the click lands on it.
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "Bergen & co");
    pointer.click("left");
    wait_for("on-click ran", WAIT, || clicked.exists());
    // The mouse's forward side button (9), which Waybar calls `on-click-forward`.
    assert!(!forwarded.exists());
    pointer.click("forward");
    wait_for("on-click-forward ran", WAIT, || forwarded.exists());
    // Waybar's `format-alt-click`: the middle button switches the label, and back.
    pointer.click("middle");
    wait_for("the alternative format", WAIT, || {
        field("custom/weather") == "ALT rain 12°"
    });
    pointer.click("middle");
    wait_for("the format again", WAIT, || {
        field("custom/weather") == "rain 12°"
    });
    assert!(bar.try_wait().is_none(), "the bar still runs");
    let log = bar.log_text();
    assert!(
        log.contains("custom/dying"),
        "the script's failure is logged: {log}"
    );
}

/// A script that speaks once: its tooltip must show on the first hover (the tooltip was
/// built from an input without the scripts' states, and only a later line filled it).
#[test]
fn a_scripts_tooltip_shows_on_the_first_hover() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"custom/once\"]\nmodules_center = []\nmodules_right = []\n\
         [custom.once]\nexec = \"echo '{\\\"text\\\": \\\"said once\\\", \\\"tooltip\\\": \\\"only now\\\"}'\"\n\
         return-type = \"json\"\ninterval = \"once\"\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the script's text", WAIT, || {
        bar.field("custom/once") == "said once"
    });
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "only now");
}
