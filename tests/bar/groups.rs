//! Groups (`group/NAME`) on a real sway, read off the screen: a drawer shows its first
//! module and slides the others out while the pointer is on it, and back when it
//! leaves; a click-to-reveal drawer opens and closes on left clicks, not on hovering.

use crate::common::session::{Compositor, Session, WIDTH};
use crate::common::{ocr, require_root, serial, wait_for};
use crate::*;

const CONFIG: &str = "modules_left = [\"group/tap\"]\nmodules_center = []\n\
    modules_right = [\"group/more\"]\n\
    [group.more]\nmodules = [\"custom/first\", \"custom/second\", \"custom/third\"]\n\
    orientation = \"inherit\"\n[group.more.drawer]\ntransition-duration = 100\n\
    [group.tap]\nmodules = [\"custom/alpha\", \"custom/beta\"]\norientation = \"inherit\"\n\
    [group.tap.drawer]\nclick-to-reveal = true\ntransition-duration = 100\n\
    [custom.first]\nformat = \"FIRST\"\n[custom.second]\nformat = \"SECOND\"\n\
    [custom.third]\nformat = \"LAST\"\n\
    [custom.alpha]\nformat = \"START\"\n[custom.beta]\nformat = \"BETA\"\n";

/// The middle of a module on the bar, from the bar's test hook.
fn centre(bar: &crate::common::session::RunningBar, module: &str) -> (u32, u32) {
    let bounds: Vec<u32> = bar
        .laid_out_field(&format!("{module}.bounds"))
        .split(',')
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(bounds.len(), 4, "{module}: {bounds:?}");
    (bounds[0] + bounds[2] / 2, bounds[1] + bounds[3] / 2)
}

#[test]
fn a_drawer_opens_on_hover_or_click_and_closes_again() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", CONFIG);
    // The virtual pointer before the bar: sway has it when the bar's surface maps (one
    // full run's hover over a pointer made afterwards opened no drawer).
    drop(session.pointer());
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let on_screen = || ocr::read_text(&session.screenshot(0, 0, WIDTH, 26));
    wait_for("the first modules of both groups", WAIT, || {
        let text = on_screen();
        text.contains("FIRST") && text.contains("START")
    });
    let text = on_screen();
    assert!(
        !text.contains("SECOND") && !text.contains("LAST") && !text.contains("BETA"),
        "closed drawers show: {text}"
    );
    // The drawer's modules carry Waybar's children class.
    let classes = bar.field("custom/second.classes");
    assert!(classes.split(',').any(|c| c == "drawer-child"), "{classes}");

    // Hovering opens the drawer; leaving closes it.
    let mut pointer = bar.point_at(&session, "custom/first");
    wait_for("the drawer open on hover", WAIT, || {
        let text = on_screen();
        text.contains("SECOND") && text.contains("LAST") && text.contains("FIRST")
    });
    pointer.move_to(WIDTH / 2, 300);
    wait_for("the drawer closed again", WAIT, || {
        let text = on_screen();
        !text.contains("SECOND") && text.contains("FIRST")
    });

    // A click-to-reveal drawer stays shut under the pointer, and opens on a click.
    let (x, y) = centre(&bar, "custom/alpha");
    pointer.move_to(x, y);
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!on_screen().contains("BETA"), "opened on hover");
    pointer.click("left");
    wait_for("the drawer open after a click", WAIT, || {
        on_screen().contains("BETA")
    });
    pointer.move_to(WIDTH / 2, 300);
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(on_screen().contains("BETA"), "closed when the pointer left");
    pointer.move_to(x, y);
    std::thread::sleep(std::time::Duration::from_millis(300));
    pointer.click("left");
    wait_for("the drawer shut after a second click", WAIT, || {
        let text = on_screen();
        !text.contains("BETA") && text.contains("START")
    });
}
