//! A module's own menu (Waybar's `menu`, `menu-file`, `menu-actions`) on a real sway: a
//! click on the module pops up the entries of the user's GTK 3 menu file, and choosing
//! one runs its command.

use std::time::{Duration, Instant};

use crate::common::session::{Compositor, Session};
use crate::common::{ocr, require_root, serial, wait_for};

const BAR_HEIGHT: u32 = 26;
const WAIT: Duration = Duration::from_secs(20);

/// Waybar's example power menu, as users copy it beside their config.
const POWER_MENU: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<interface>
  <object class="GtkMenu" id="menu">
    <child>
      <object class="GtkMenuItem" id="suspend">
        <property name="label">Suspend</property>
      </object>
    </child>
    <child>
      <object class="GtkMenuItem" id="hibernate">
        <property name="label">Hibernate</property>
      </object>
    </child>
    <child>
      <object class="GtkSeparatorMenuItem" id="delimiter1"/>
    </child>
    <child>
      <object class="GtkMenuItem" id="reboot">
        <property name="label">Reboot</property>
      </object>
    </child>
  </object>
</interface>
"#;

#[test]
fn a_click_opens_the_users_menu_and_an_entry_runs_its_command() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("power_menu.xml", POWER_MENU);
    session.write_config_file(
        "config.toml",
        &format!(
            "height = {BAR_HEIGHT}\nmodules_left = [\"custom/power\"]\nmodules_center = []\n\
             modules_right = []\n[custom.power]\nformat = \"POWER\"\nmenu = \"on-click\"\n\
             menu-file = \"power_menu.xml\"\n[custom.power.menu-actions]\n\
             suspend = \"echo suspend >> $HOME/chosen\"\nreboot = \"echo reboot >> $HOME/chosen\"\n"
        ),
    );
    drop(session.pointer());
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let bounds = || -> Vec<u32> {
        let field = bar.laid_out_field("custom/power.bounds");
        field.split(',').filter_map(|n| n.parse().ok()).collect()
    };
    wait_for("the module laid out", WAIT, || {
        bounds().get(2).is_some_and(|&width| width > 0)
    });
    let bounds = bounds();
    let module = (bounds[0] + bounds[2] / 2, bounds[1] + bounds[3] / 2);
    let menu_file = session.hook_dir().join("module-menu");
    let chosen = session.home().join("chosen");
    let mut pointer = session.pointer();
    let mut click_until = |(x, y): (u32, u32), what: &str, done: &dyn Fn() -> bool| {
        for _ in 0..5 {
            pointer.move_to(x + 1, y);
            pointer.move_to(x, y);
            std::thread::sleep(Duration::from_millis(200));
            pointer.click("left");
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(3) {
                if done() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!(
            "{what}: five clicks at ({x}, {y}) did nothing; the bar's log:\n{}",
            bar.log_text()
        );
    };

    // The entries as the file has them: Hibernate has no command, so it is greyed.
    click_until(module, "the menu", &|| {
        std::fs::read_to_string(&menu_file).unwrap_or_default() == "Suspend|~Hibernate|---|Reboot"
    });
    // The popover opens below the module, its first row about 20 px below the bar.
    let menu_on_screen = || {
        let shot = session.screenshot(0, BAR_HEIGHT, 200, 100);
        shot.count(0, 100, |[r, g, b]| r > 230 && g > 230 && b > 230) > 2000
    };
    wait_for("the menu on screen", WAIT, menu_on_screen);
    // Whole: GTK adds a section's separator after the popover could be measured, which
    // left the last entry cut in half behind a scroll bar.
    // Strips of one row's height, every 10 px down the popover (OCR reads a line at a time).
    let read = || -> String {
        let strip = |n: u32| ocr::read_text(&session.screenshot(8, BAR_HEIGHT + 10 * n, 90, 24));
        (0..14).map(strip).collect::<Vec<_>>().join("|")
    };
    let whole = |text: &str| {
        ["Suspend", "Hibernate", "Reboot"]
            .iter()
            .all(|e| text.contains(e))
    };
    let deadline = Instant::now() + WAIT;
    let mut text = read();
    while !whole(&text) {
        assert!(
            Instant::now() < deadline,
            "every entry on screen: read {text:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
        text = read();
    }
    let first_row = (module.0.max(40) + 20, BAR_HEIGHT + 20);
    click_until(first_row, "the first entry chosen", &|| {
        std::fs::read_to_string(&chosen).unwrap_or_default() == "suspend\n"
    });
    // Choosing closes the menu.
    wait_for("the menu closed", WAIT, || !menu_on_screen());
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        std::fs::read_to_string(&chosen).unwrap_or_default(),
        "suspend\n",
        "one entry chosen, once"
    );
}
