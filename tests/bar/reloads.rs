//! Reloads keep the bar's memory: a Sway user's `exec ringbar` asks the running bar to
//! reload on every `swaymsg reload`, and the config watch reloads on every save.

use std::time::Duration;

use crate::common::session::{Compositor, RunningBar, Session};
use crate::common::{require_root, rss_kib, serial, wait_for};
use crate::*;

const DAILY: &str = "modules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\n\
                     modules_right = [\"memory\", \"cpu\"]\n";
const OTHER: &str = "modules_left = [\"workspaces\", \"window\"]\nmodules_center = []\n\
                     modules_right = [\"cpu\", \"clock\"]\n";

fn reloads(bar: &RunningBar) -> usize {
    bar.log_text().matches("reloading the config").count()
}

/// Sends SIGHUP and waits until the bar has reloaded once more.
fn reload(bar: &RunningBar) {
    let before = reloads(bar);
    bar.send_reload();
    wait_for("the reload", WAIT, || reloads(bar) > before);
}

#[test]
fn a_thousand_reloads_keep_the_bars_memory_flat() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", DAILY);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the memory label", WAIT, || {
        bar.field("memory").starts_with("MEM")
    });
    // Warm up: caches, GTK's first allocations, the allocator's arenas.
    for _ in 0..100 {
        reload(&bar);
    }
    let before = rss_kib(bar.pid());
    for _ in 0..1000 {
        reload(&bar);
    }
    let unchanged = rss_kib(bar.pid());
    // Switched between two configs by the config watch, as saves do.
    for round in 0..100 {
        let before = reloads(&bar);
        session.write_config_file("config.toml", if round % 2 == 0 { OTHER } else { DAILY });
        wait_for("the reload of a save", WAIT, || reloads(&bar) > before);
    }
    std::thread::sleep(Duration::from_millis(500));
    let switched = rss_kib(bar.pid());
    // A new height needs a new window: the old one is destroyed.
    for round in 0..100 {
        let before = reloads(&bar);
        let config = format!("height = {}\n{DAILY}", 30 + round % 2);
        session.write_config_file("config.toml", &config);
        wait_for("the reload of a save", WAIT, || reloads(&bar) > before);
    }
    std::thread::sleep(Duration::from_millis(500));
    let resized = rss_kib(bar.pid());
    eprintln!("after 100 new heights {resized} KiB");
    eprintln!(
        "RSS {before} KiB, after 1000 reloads {unchanged} KiB, after 100 saves {switched} KiB"
    );
    // A leak of 150 kB a reload would be 150 MB by then.
    assert!(
        unchanged < before + 4096,
        "{before} → {unchanged} KiB over 1000 reloads"
    );
    assert!(
        switched < before + 4096,
        "{before} → {switched} KiB over 100 saves"
    );
    assert!(
        resized < before + 4096,
        "{before} → {resized} KiB over 100 new heights"
    );
    assert!(bar.try_wait().is_none(), "the bar runs");
    wait_for("the clock after it all", WAIT, || {
        !bar.field("clock").is_empty()
    });
}

/// Reloads asked while the bar starts, before its handlers exist, do not end it (the
/// default action of SIGHUP and SIGUSR1 is to end the process).
#[test]
fn reloads_asked_while_the_bar_starts_do_not_end_it() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", DAILY);
    let mut bar = session.start_bar(&[]);
    let pid = bar.pid().to_string();
    // From its first log line on: before `main` (the loader, library constructors) the
    // defaults are all there is.
    wait_for("the bar's first log line", WAIT, || {
        !bar.log_text().is_empty()
    });
    while !bar.log_text().contains("bar on output HEADLESS-1") {
        assert!(
            bar.try_wait().is_none(),
            "ended by a reload: {}",
            bar.log_text()
        );
        for signal in ["-HUP", "-USR1"] {
            let _ = std::process::Command::new("kill")
                .args([signal, &pid])
                .status();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    wait_for("the memory label", WAIT, || {
        bar.field("memory").starts_with("MEM")
    });
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
}
