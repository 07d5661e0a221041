//! No work for what is not on screen: the system readings only a monitor tooltip shows
//! (swap traffic from /proc/vmstat, pressure stall from /proc/pressure) are read while a
//! tooltip is open, and not otherwise; and a layout that shows nothing of the samples
//! (a clock and workspaces) takes none. Checked on the bar's real syscalls.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::session::{Compositor, RunningBar, Session};
use crate::common::{require_root, serial};
use crate::*;

/// The bar's pread64 calls per file during `seconds`, from strace: of every thread, since
/// the samples are taken on the main loop once they prove short, on a thread before.
fn sampler_reads(bar: &RunningBar, seconds: u32) -> String {
    let out = Command::new("timeout")
        .args([
            "-s",
            "INT",
            &seconds.to_string(),
            "strace",
            "-f",
            "-qq",
            "-y",
        ])
        .args(["-e", "trace=pread64", "-p"])
        .arg(bar.pid().to_string())
        .output()
        .expect("run strace");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The bar's mappings of BPF maps: the probe's ring buffer and walker records, which the
/// kernel maps whole.
fn bpf_map_mappings(bar: &RunningBar) -> usize {
    let maps = std::fs::read_to_string(format!("/proc/{}/maps", bar.pid())).expect("maps");
    maps.lines()
        .filter(|line| line.ends_with("anon_inode:bpf-map"))
        .count()
}

fn count(trace: &str, file: &str) -> usize {
    trace.matches(&format!("<{file}>")).count()
}

#[test]
fn tooltip_only_readings_are_read_only_while_a_tooltip_shows() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // No `pressure` module (the default layout's right part has one).
    let config =
        format!("interval_ms = 250\n{LEFT_MONITOR}modules_center = []\nmodules_right = []\n");
    session.write_config_file("config.toml", &config);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let psi = Path::new("/proc/pressure/cpu").exists();

    let closed = sampler_reads(&bar, 2);
    assert!(count(&closed, "/proc/meminfo") >= 4, "sampling: {closed}");
    assert_eq!(count(&closed, "/proc/vmstat"), 0, "{closed}");
    assert_eq!(count(&closed, "/proc/pressure/cpu"), 0, "{closed}");

    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "every 250 ms");
    let open = sampler_reads(&bar, 2);
    assert!(count(&open, "/proc/vmstat") >= 4, "{open}");
    if psi {
        assert!(count(&open, "/proc/pressure/cpu") >= 4, "{open}");
    }
    wait_for("swap traffic in the tooltip", WAIT, || {
        bar.tooltip_text().contains("· in ")
    });

    // Away from the bar: the tooltip hides, and the reads stop.
    pointer.move_to(600, 400);
    std::thread::sleep(Duration::from_millis(1000));
    let closed_again = sampler_reads(&bar, 2);
    assert!(count(&closed_again, "/proc/meminfo") >= 4);
    assert_eq!(count(&closed_again, "/proc/vmstat"), 0, "{closed_again}");
}

/// A clock and workspaces show nothing of the monitor's samples: the bar reads none of
/// the files a sample reads. A reload that lists `memory` starts the samples (its label
/// comes), and one that drops it stops them again.
#[test]
fn a_layout_without_monitor_modules_takes_no_samples() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let minimal = "interval_ms = 100\nmodules_left = [\"workspaces\"]\n\
                   modules_center = [\"clock\"]\nmodules_right = []\n";
    session.write_config_file("config.toml", minimal);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the clock", WAIT, || !bar.field("clock").is_empty());
    let idle = sampler_reads(&bar, 2);
    assert_eq!(count(&idle, "/proc/meminfo"), 0, "{idle}");
    assert_eq!(count(&idle, "/proc/stat"), 0, "{idle}");
    assert_eq!(bpf_map_mappings(&bar), 0, "the probe's maps are not mapped");

    let reload = |config: &str| {
        session.write_config_file("config.toml", config);
        bar.send_reload();
    };
    reload(&minimal.replace("modules_right = []", "modules_right = [\"memory\"]"));
    wait_for("the memory label", WAIT, || {
        bar.field("memory").starts_with("MEM")
    });
    let sampling = sampler_reads(&bar, 2);
    assert!(count(&sampling, "/proc/meminfo") >= 4, "{sampling}");
    assert!(
        bpf_map_mappings(&bar) > 0,
        "the probe samples: its maps are mapped"
    );

    reload(minimal);
    wait_for("the memory label gone", WAIT, || {
        bar.field("memory").is_empty()
    });
    std::thread::sleep(Duration::from_millis(500));
    let idle_again = sampler_reads(&bar, 2);
    assert_eq!(count(&idle_again, "/proc/meminfo"), 0, "{idle_again}");
    assert_eq!(bpf_map_mappings(&bar), 0, "unmapped again");
}
