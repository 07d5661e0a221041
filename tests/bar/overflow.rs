//! Modules wider than the output: the bar stays the output's width and cuts them off at
//! its end (saying so once in its log), and a clock ticking every second does not pile up
//! buffers (GDK's, in the bar's address space). A window wider than the size sway gave it kept each frame's buffer: 1,900 px
//! of modules took another 190 kB a second, for as long as the bar ran.

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

/// The bar's GDK buffers (`memfd:gdk-wayland` mappings) in its address space.
fn gdk_buffers(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/maps"))
        .unwrap_or_default()
        .lines()
        .filter(|line| {
            line.ends_with("/memfd:gdk-wayland (deleted)") || line.ends_with("/memfd:gdk-wayland")
        })
        .count()
}

#[test]
fn modules_wider_than_the_output_are_cut_off_and_hold_no_buffers() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let wide = "exec = \"printf '%0120d\\\\n' 0\"\n";
    session.write_config_file(
        "config.toml",
        &format!(
            "modules_left = [\"custom/one\", \"custom/two\"]\nmodules_center = [\"clock\"]\n\
             modules_right = [\"custom/three\"]\n[clock]\nformat = \"%H:%M:%S\"\n\
             [custom.one]\n{wide}[custom.two]\n{wide}[custom.three]\n{wide}"
        ),
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the scripts' text", WAIT, || {
        ["custom/one", "custom/two", "custom/three"]
            .iter()
            .all(|m| bar.field(m).len() == 120)
    });
    bar.wait_for_log("px fit: the rest is cut off");

    // Twenty frames of the clock.
    std::thread::sleep(Duration::from_secs(20));
    let buffers = gdk_buffers(bar.pid());
    assert!(buffers <= 4, "{buffers} GDK buffers after 20 frames");
    assert_eq!(bar.log_text().matches("cut off").count(), 1, "said once");
}
