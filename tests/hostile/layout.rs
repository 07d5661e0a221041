//! A default sway session as a new user has it: the workspace buttons and the window
//! title next to each other must never be drawn over each other, whatever happens to
//! the workspaces and windows; checked on GTK's allocations and on the screen by OCR.

use std::process::Child;
use std::time::Duration;

use crate::common::ocr::read_text;
use crate::common::session::{Compositor, Session};
use crate::common::{serial, wait_for};

const WAIT: Duration = Duration::from_secs(30);

/// `x,y,w,h` as numbers.
fn rect(text: &str) -> Option<[f64; 4]> {
    let v: Vec<f64> = text.split(',').filter_map(|n| n.parse().ok()).collect();
    (v.len() == 4).then(|| [v[0], v[1], v[2], v[3]])
}

fn intersect(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// Whether the bounds written are of a frame GTK laid out: the row has its height.
fn laid_out(field: &dyn Fn(&str) -> String) -> bool {
    rect(&field("workspaces.bounds")).is_some_and(|row| row[3] > 0.0)
}

/// Every workspace button, the row and the title, where GTK put them: no two overlap,
/// and every button lies within its row.
fn check_layout(field: &dyn Fn(&str) -> String, when: &str) {
    let row = rect(&field("workspaces.bounds"));
    let title = rect(&field("window.bounds"));
    let buttons: Vec<[f64; 4]> = field("workspaces.buttons")
        .split(';')
        .filter_map(rect)
        .collect();
    let (Some(row), Some(title)) = (row, title) else {
        panic!(
            "{when}: no bounds: {} / {}",
            field("workspaces.bounds"),
            field("window.bounds")
        );
    };
    if field("window.visible") == "true" {
        assert!(
            !intersect(row, title),
            "{when}: the row {row:?} and the title {title:?} overlap"
        );
        for button in &buttons {
            assert!(
                !intersect(*button, title),
                "{when}: a button {button:?} and the title {title:?} overlap (row {row:?})"
            );
        }
    }
    for button in &buttons {
        assert!(
            button[0] >= row[0] - 0.5 && button[0] + button[2] <= row[0] + row[2] + 0.5,
            "{when}: a button {button:?} outside its row {row:?}"
        );
    }
}

#[test]
fn the_workspace_buttons_and_the_title_never_overlap() {
    crate::common::require_root();
    let _serial = serial();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "interval_ms = 250\nmodules_left = [\"workspaces\", \"window\"]\n\
         modules_center = [\"clock\"]\nmodules_right = []\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    let settled = |what: &str, check: &dyn Fn() -> bool| {
        wait_for(what, WAIT, check);
        // The bounds are those of the frame before the last write: let two more go by,
        // and (after a reload rebuilt the bars) wait for a write after their first layout.
        std::thread::sleep(Duration::from_millis(700));
        wait_for(&format!("{what}, laid out"), WAIT, || laid_out(&field));
        check_layout(&field, what);
    };
    let mut windows: Vec<Child> = Vec::new();
    let flower = |session: &Session| session.as_user("weston-flower").spawn().expect("flower");

    windows.push(flower(&session));
    settled("the flower on 1", &|| {
        field("window") == "Flower" && field("workspaces") == "1:focused+visible+occupied"
    });
    let strip = || read_text(&session.screenshot(0, 0, 300, 26));
    wait_for("`1` and `Flower` apart on screen", WAIT, || {
        let text = strip();
        eprintln!("OCR: {text:?}");
        text.contains("Flower") && text.split_whitespace().any(|w| w == "1")
    });

    session.swaymsg(&["workspace", "2"]);
    settled("workspace 2", &|| {
        field("workspaces") == "1:occupied|2:focused+visible+empty"
    });
    windows.push(flower(&session));
    settled("a flower on 2", &|| {
        field("window") == "Flower"
            && field("workspaces") == "1:occupied|2:focused+visible+occupied"
    });
    session.swaymsg(&["rename", "workspace", "2", "to", "a-long-workspace-name"]);
    settled("the rename", &|| {
        field("workspaces").contains("a-long-workspace-name:focused")
    });
    wait_for("the long name and `Flower` apart on screen", WAIT, || {
        let text = read_text(&session.screenshot(0, 0, 600, 26));
        eprintln!("OCR: {text:?}");
        text.contains("Flower") && text.contains("a-long-workspace-name")
    });
    session.swaymsg(&["workspace", "1"]);
    settled("back on 1", &|| {
        field("workspaces").starts_with("1:focused") && field("window") == "Flower"
    });
    for mut window in windows {
        let _ = window.kill();
        let _ = window.wait();
    }
    settled("the windows gone", &|| field("window.visible") == "false");

    // A broken config: the ⚠ marker comes in front of the buttons (the default layout
    // has the workspaces and the window on the left too).
    session.write_config_file(
        "config.toml",
        "interval_ms = 250
height = \"tall\"\n",
    );
    // SAFETY: kill takes plain integers; the bar is our child.
    unsafe { libc::kill(bar.pid() as i32, libc::SIGUSR1) };
    settled("the marker", &|| field("notice.visible") == "true");
    let notice = rect(&field("notice.bounds")).expect("notice bounds");
    for button in field("workspaces.buttons").split(';').filter_map(rect) {
        assert!(
            !intersect(notice, button),
            "the marker {notice:?} and a button {button:?} overlap"
        );
    }
}

#[test]
fn a_scripts_markup_never_makes_the_bar_taller_than_its_height() {
    crate::common::require_root();
    let _serial = serial();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "height = 30\nmodules_left = [\"custom/big\", \"custom/tall\"]\nmodules_center = [\"clock\"]\n\
         modules_right = []\n\
         [custom.big]\nexec = \"echo '<span font=\\\"40\\\">BIG</span>'\"\ninterval = \"once\"\n\
         [custom.tall]\nexec = \"echo '<big><big><big><big><big>T</big></big></big></big></big>'\"\n\
         interval = \"once\"\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| bar.field(key);
    wait_for("both scripts shown", WAIT, || {
        field("custom/big") == "BIG" && field("custom/tall") == "T"
    });
    std::thread::sleep(Duration::from_millis(1500));
    for name in ["custom/big", "custom/tall"] {
        let bounds = rect(&field(&format!("{name}.bounds"))).expect("bounds");
        assert_eq!(bounds[3], 30.0, "{name} is as tall as the bar: {bounds:?}");
    }
    assert_eq!(
        session.workspace_y(),
        30,
        "the bar reserves its 30 px and no more"
    );
    let log = bar.log_text();
    assert!(!log.contains("WARN") && !log.contains("CRITICAL"), "{log}");
}
