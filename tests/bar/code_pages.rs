//! The code only start-up ran is given back: some seconds after the bar shows, its
//! executable's code mapping holds at least a quarter fewer resident pages than start-up
//! left, and the bar goes on working (its clock and workspaces follow sway). Read from
//! the running bar's `/proc/PID/smaps`.
//!
//! What a tick runs is mapped again at its first touch, a whole page-cache folio at a
//! time (64 KiB or more on 6.x kernels with large folios), so how much comes back depends
//! on how the page cache holds the copied executable: 4.4 to 9.7 MiB of a debug build's
//! 14 MiB in runs here (its tick touches about a hundred 64 KiB folios). Without the
//! give-back nothing here unmaps code, with 24 GB and no memory pressure.

use std::time::Duration;

use crate::common::session::{Compositor, Session};
use crate::common::{require_root, serial};
use crate::*;

/// Resident KiB of the executable's code (its `r-xp` mapping) in process `pid`.
fn code_rss_kib(pid: u32) -> u64 {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).expect("exe");
    let exe = exe.to_str().expect("a UTF-8 path");
    let smaps = std::fs::read_to_string(format!("/proc/{pid}/smaps")).expect("smaps");
    let mut in_code = false;
    for line in smaps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields
            .first()
            .is_some_and(|f| f.contains('-') && !f.ends_with(':'))
        {
            in_code = fields.get(1) == Some(&"r-xp") && fields.last() == Some(&exe);
        } else if in_code && fields.first() == Some(&"Rss:") {
            return fields[1].parse().expect("a number");
        }
    }
    panic!("no code mapping of {exe} in {smaps}");
}

#[test]
fn the_code_only_start_up_ran_is_given_back() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\nmodules_right = []\n",
    );
    let bar = session.start_bar(&[
        ("SWAYSOCK", &session.swaysock()),
        ("RINGBAR_LOG", "ringbar::ui=debug"),
    ]);
    wait_for("the clock", WAIT, || !bar.field("clock").is_empty());
    wait_for("the workspaces", WAIT, || {
        !bar.field("workspaces").is_empty()
    });
    let after_start = code_rss_kib(bar.pid());
    // Given back 10 s after the bars show.
    std::thread::sleep(Duration::from_secs(13));
    let later = code_rss_kib(bar.pid());
    assert!(
        later * 4 < after_start * 3,
        "{after_start} KiB resident after start-up, {later} KiB later; the bar's log:\n{}",
        bar.log_text()
    );
    // The bar still runs its code: a new workspace shows.
    session.swaymsg(&["workspace", "7"]);
    wait_for("workspace 7", WAIT, || {
        bar.field("workspaces").contains('7')
    });
}
