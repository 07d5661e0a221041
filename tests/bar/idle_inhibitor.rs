//! The idle_inhibitor module on a real sway, with a real swayidle as the judge: with
//! `swayidle -w timeout 2 'touch FILE'`, the file is not made in 5 s while the
//! inhibitor is on, and is made once a click turns it off. Outputs unplugged in turn
//! (a nested sway, whose outputs are windows of the outer one): the inhibitor moves to a
//! bar that stays when the one whose surface held it goes with its output.

use std::process::Stdio;
use std::time::Duration;

use crate::common::bus::Helper;
use crate::common::session::{Compositor, Session, WIDTH};
use crate::common::{ocr, require_root, serial, wait_for};
use crate::*;

fn click(session: &Session, bar: &crate::common::session::RunningBar) {
    bar.point_at(session, "idle_inhibitor").click("left");
}

#[test]
fn the_inhibitor_keeps_swayidle_from_firing_until_clicked_off() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::NestedSway);
    session.swaymsg(&["create_output"]);
    session.write_config_file(
        "config.toml",
        "modules_left = []\nmodules_center = []\nmodules_right = [\"idle_inhibitor\"]\n",
    );
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output WL-1");
    bar.wait_for_log("bar on output WL-2");
    let label = || bar.field("idle_inhibitor");
    wait_for("off at first", WAIT, || label() == "idle");
    assert_eq!(
        bar.field("idle_inhibitor.classes"),
        "module,idle_inhibitor,deactivated"
    );

    click(&session, &bar);
    wait_for("on after a click", WAIT, || label() == "AWAKE");
    assert_eq!(
        bar.field("idle_inhibitor.classes"),
        "module,idle_inhibitor,activated"
    );
    let right_text = || ocr::read_text(&session.screenshot(WIDTH - 300, 0, 300, 26));
    wait_for("`AWAKE` on screen", WAIT, || right_text().contains("AWAKE"));

    // swayidle, as the test user, on sway: with the inhibitor on it never fires.
    let fired = session.home().join("idle-fired");
    let _swayidle = Helper(
        session
            .as_user("swayidle")
            .args(["-w", "timeout", "2"])
            .arg(format!("touch {}", fired.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start swayidle (Debian's swayidle)"),
    );
    std::thread::sleep(Duration::from_secs(5));
    assert!(!fired.exists(), "swayidle fired while the inhibitor was on");

    // WL-1 unplugged, WL-3 plugged in, WL-2 unplugged: whichever bar held the
    // inhibitor, by the second unplug it is WL-2's, and WL-3's bar takes it over.
    let outputs = || -> Vec<String> { bar.bars().iter().map(|b| b["output"].clone()).collect() };
    let unplug = |output: &str| {
        session.swaymsg_outer(&[&format!("[title=\"wlroots - {output}\"]"), "kill"]);
        bar.wait_for_log(&format!("output {output} removed"));
    };
    unplug("WL-1");
    wait_for("WL-2's bar alone", WAIT, || outputs() == ["WL-2"]);
    std::thread::sleep(Duration::from_secs(5));
    assert!(!fired.exists(), "swayidle fired with WL-1 gone");
    session.swaymsg(&["create_output"]);
    wait_for("WL-3's bar", WAIT, || outputs() == ["WL-2", "WL-3"]);
    unplug("WL-2");
    wait_for("WL-3's bar alone", WAIT, || outputs() == ["WL-3"]);
    std::thread::sleep(Duration::from_secs(5));
    assert!(!fired.exists(), "swayidle fired with WL-2 gone");
    assert_eq!(label(), "AWAKE");

    // Off: swayidle fires within its 2 s (and some slack).
    click(&session, &bar);
    wait_for("off after a second click", WAIT, || label() == "idle");
    wait_for("swayidle fires", Duration::from_secs(10), || fired.exists());
}
