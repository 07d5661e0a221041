//! Waybar's `tooltip = false` on any module: hovering over it opens no tooltip, while
//! the module beside it keeps its own (and its `cursor`).

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial, wait_for};
use crate::*;

/// The middle of a module's label on the bar, from the test hook's `NAME.bounds`.
fn middle(bar: &crate::common::session::RunningBar, module: &str) -> Option<u32> {
    let bars = bar.bars();
    let bounds = bars.first()?.get(&format!("{module}.bounds"))?.clone();
    let numbers: Vec<u32> = bounds.split(',').filter_map(|n| n.parse().ok()).collect();
    match numbers[..] {
        [x, _, width, _] if width > 0 => Some(x + width / 2),
        _ => None,
    }
}

#[test]
fn a_module_with_tooltip_false_opens_none() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "interval_ms = 250\nmodules_left = [\"disk\", \"memory\"]\nmodules_center = []\n\
         modules_right = []\n[disk]\ntooltip = false\n[memory]\ncursor = true\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("both labels placed", WAIT, || {
        middle(&bar, "disk").is_some() && middle(&bar, "memory").is_some()
    });
    let (disk, memory) = (middle(&bar, "disk"), middle(&bar, "memory"));
    let (disk, memory) = (disk.expect("disk"), memory.expect("memory"));

    // Over the disk's label, resting twice as long as GTK waits before a tooltip.
    let mut pointer = session.pointer();
    for x in [disk, disk + 2, disk] {
        pointer.move_to(x, 12);
        std::thread::sleep(std::time::Duration::from_millis(1500));
    }
    assert_eq!(bar.tooltip_text(), "", "no tooltip over the disk");
    // The memory label beside it has its tooltip: the hover itself works.
    hover_at_until_tooltip_shows(&mut pointer, &bar, memory, "every 250 ms");
    // Hovered with a hand's cursor, which GTK finds in the theme without a word.
    let log = bar.log_text();
    assert!(!log.to_lowercase().contains("cursor"), "{log}");
}
