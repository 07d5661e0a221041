//! The bar in a real compositor: headless sway (and weston for the fallback) run by an
//! unprivileged user, ringbar installed with file capabilities, the real probe, real
//! clicks from a virtual pointer, screenshots with grim.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::time::Duration;

use common::session::{Compositor, Session, HEIGHT, WIDTH};
use common::{require_root, serial, wait_for, Subject, Subjects};

const WAIT: Duration = Duration::from_secs(20);

/// The bar's background from resources/style.css: rgba(24, 26, 33, 0.92).
fn is_bar_background([r, g, b]: [u8; 3]) -> bool {
    r.abs_diff(24) <= 8 && g.abs_diff(26) <= 8 && b.abs_diff(33) <= 8
}

fn capability_line<'a>(status: &'a str, name: &str) -> &'a str {
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .map_or("", str::trim)
}

#[test]
fn the_bar_reserves_its_height_draws_real_numbers_and_runs_unprivileged() {
    let _serial = serial();
    require_root();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("rb-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "height = 30\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");

    // 1. sway reserves the bar's height, and the bar is drawn there.
    wait_for("sway to reserve 30 px", WAIT, || {
        session.workspace_y() == 30
    });
    let shot = session.screenshot(0, 0, WIDTH, 60);
    let bar_rows = shot.count(0, 30, is_bar_background);
    assert!(
        bar_rows > (WIDTH as usize * 30) * 8 / 10,
        "the bar's background covers its 30 rows ({bar_rows} pixels)"
    );
    let text_pixels = shot.count(0, 30, |[r, g, b]| r > 150 && g > 150 && b > 150);
    assert!(
        text_pixels > 100,
        "the labels draw light text ({text_pixels} pixels)"
    );
    assert_eq!(
        shot.count(31, 60, is_bar_background),
        0,
        "nothing of the bar below its height"
    );

    // 2. The labels show the probe's numbers: one of two cores spins, so CPU ≥ 40 %.
    wait_for("the CPU label to show the spinner", WAIT, || {
        bar.bars()
            .first()
            .and_then(|b| b.get("cpu").cloned())
            .is_some_and(|cpu| {
                cpu.strip_prefix("CPU ")
                    .and_then(|p| p.strip_suffix('%'))
                    .and_then(|p| p.parse::<f64>().ok())
                    .is_some_and(|p| p >= 40.0)
            })
    });
    let bars = bar.bars();
    let memory = &bars[0]["memory"];
    let total_kib: f64 = std::fs::read_to_string("/proc/meminfo")
        .expect("meminfo")
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("MemTotal");
    let shown_total = memory.rsplit('/').next().expect("used/total");
    let (number, unit) = shown_total.split_at(shown_total.len() - 1);
    let scale = match unit {
        "M" => 1024.0,
        "G" => 1024.0 * 1024.0,
        "T" => 1024.0 * 1024.0 * 1024.0,
        other => panic!("unexpected unit {other} in {memory}"),
    };
    let shown_kib = number.parse::<f64>().expect("a number") * scale;
    assert!(
        (shown_kib / total_kib - 1.0).abs() < 0.05,
        "MEM label {memory} matches MemTotal {total_kib} kB"
    );

    let status = bar.status();
    for set in ["CapEff:", "CapPrm:", "CapInh:", "CapAmb:"] {
        assert_eq!(
            capability_line(&status, set),
            "0000000000000000",
            "{set} of the running bar"
        );
    }
    assert_eq!(capability_line(&status, "NoNewPrivs:"), "1");

    // 3. A machine without GPU or sensors (like CI's VM) shows a clean bar: no GPU label,
    // and nothing to warn about in the log.
    if !std::path::Path::new("/sys/class/drm").exists() {
        assert_eq!(bars[0]["gpu.visible"], "false", "{bars:?}");
    }
    let log = bar.log_text();
    assert!(
        !log.contains("ERROR") && !log.contains("WARN"),
        "a clean start logs no warnings:\n{log}"
    );
}

/// The monitor modules at the left edge, where the tests hover and click.
const LEFT_MONITOR: &str = "modules_left = [\"cpu\", \"memory\"]\n";

/// Waits until the tooltip, opened by hovering over the left edge's first module, shows
/// `needle`.
fn hover_until_tooltip_shows(
    pointer: &mut common::session::Pointer,
    bar: &common::session::RunningBar,
    needle: &str,
) {
    hover_at_until_tooltip_shows(pointer, bar, 40, needle);
}

/// Waits until the tooltip, opened by hovering at `x` on the bar, shows `needle`.
fn hover_at_until_tooltip_shows(
    pointer: &mut common::session::Pointer,
    bar: &common::session::RunningBar,
    at: u32,
    needle: &str,
) {
    // A click hides the tooltip; GTK shows it again after the pointer moves and rests.
    let mut x = at;
    wait_for(&format!("the tooltip to show `{needle}`"), WAIT, || {
        x = if x == at { at + 5 } else { at };
        pointer.move_to(x, 12);
        std::thread::sleep(Duration::from_millis(1500));
        bar.tooltip_text().contains(needle)
    });
}

#[test]
fn clicks_cycle_the_interval_and_toggle_kernel_threads_and_are_remembered() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", LEFT_MONITOR);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("interval=2000ms kernel-threads=off");
    bar.wait_for_log("bar on output HEADLESS-1");
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(
        &mut pointer,
        &bar,
        "every 2000 ms · kernel threads excluded",
    );

    for interval in [1000, 500, 250, 100, 2000] {
        pointer.click("left");
        bar.wait_for_log(&format!("interval={interval}ms"));
        hover_until_tooltip_shows(&mut pointer, &bar, &format!("every {interval} ms"));
    }
    pointer.click("middle");
    bar.wait_for_log("kernel-threads=on");
    hover_until_tooltip_shows(&mut pointer, &bar, "kernel threads included");
    pointer.click("left");
    bar.wait_for_log("interval=1000ms");
    let log = bar.log_text();
    assert_eq!(
        log.matches("interval=2000ms").count(),
        2,
        "start-up line plus the wrap-around: {log}"
    );

    // Remembered across a restart.
    bar.stop();
    let state = session.home().join(".local/state/ringbar/state.toml");
    let saved = std::fs::read_to_string(&state).expect("state file");
    assert!(
        saved.contains("interval_ms = 1000") && saved.contains("kernel_threads = true"),
        "{saved}\n{}",
        bar.log_text()
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("interval=1000ms kernel-threads=on");
}

#[test]
fn the_tooltip_shows_the_top_lists_with_names_escaped() {
    let _serial = serial();
    require_root();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("<rb&spin>", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    let mut hog = Subject::spawn(
        &subjects.program("rb-mem", "/usr/bin/perl"),
        &[
            "-e",
            "$| = 1; $x = 'a' x (400 * 1024 * 1024); print qq(ready\\n); sleep 600",
        ],
    );
    assert_eq!(hog.read_line(), "ready");
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", LEFT_MONITOR);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "<rb&spin>");

    let markup = bar.tooltip_markup();
    let text = bar.tooltip_text();
    for section in [
        "<b>CPU</b>",
        "<b>Memory</b>",
        "<b>IO</b>",
        "<small>sampled in ",
    ] {
        assert!(markup.contains(section), "{section} in {markup}");
    }
    assert!(
        markup.contains("&lt;rb&amp;spin&gt;"),
        "escaped in markup: {markup}"
    );
    assert!(
        !markup.contains("<rb&spin>"),
        "never raw in markup: {markup}"
    );
    let cpu_section = &text[..text.find("Memory").expect("Memory section")];
    let memory_section = &text[text.find("Memory").expect("Memory")..text.find("IO ").expect("IO")];
    assert!(
        cpu_section.contains("<rb&spin>"),
        "spinner in the CPU top 5: {text}"
    );
    assert!(
        memory_section.contains("rb-mem"),
        "400 MB hog in the memory top 5: {text}"
    );
    assert!(
        text.contains("every 2000 ms · kernel threads excluded"),
        "{text}"
    );

    // Drawn on screen below the bar: the tooltip's rows are not sway's background.
    let shot = session.screenshot(0, 0, 600, 400);
    let background = shot.pixel(590, 390);
    let tooltip_pixels = shot.count(40, 300, |p| p != background);
    assert!(
        tooltip_pixels > 20_000,
        "a tooltip is drawn under the bar ({tooltip_pixels} pixels differ from {background:?})"
    );
}

#[test]
fn every_output_gets_a_bar_as_outputs_come_and_go() {
    let _serial = serial();
    require_root();
    // Outputs of the nested sway are windows of the outer one: closing a window unplugs
    // its output.
    let session = Session::start(Compositor::NestedSway);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output WL-1");
    session.swaymsg(&["create_output"]);
    bar.wait_for_log("bar on output WL-2");
    let outputs = || -> Vec<String> { bar.bars().iter().map(|b| b["output"].clone()).collect() };
    wait_for("a bar on each output", WAIT, || {
        outputs() == ["WL-1", "WL-2"]
    });
    wait_for("both bars mapped with numbers", WAIT, || {
        bar.bars()
            .iter()
            .all(|b| b["mapped"] == "true" && b["cpu"].ends_with('%'))
    });
    let pid = bar.pid();

    session.swaymsg_outer(&["[title=\"wlroots - WL-2\"]", "kill"]);
    bar.wait_for_log("output WL-2 removed");
    wait_for("one bar again", WAIT, || outputs() == ["WL-1"]);
    assert_eq!(bar.pid(), pid, "one process serves every output");
    assert_eq!(
        session.workspace_y(),
        26,
        "the remaining bar still reserves its space"
    );
}

/// The BPF programs loaded in the kernel, as `bpftool prog show` lists them.
fn loaded_programs() -> String {
    let out = std::process::Command::new("bpftool")
        .args(["prog", "show"])
        .output()
        .expect("run bpftool");
    assert!(out.status.success(), "bpftool prog show failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_second_start_reloads_the_running_bar_and_sigterm_detaches_the_probe() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.swaymsg(&["create_output"]);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    bar.wait_for_log("bar on output HEADLESS-2");
    wait_for("the default height reserved", WAIT, || {
        session.workspace_y() == 26
    });
    let pid = bar.pid();
    // Loaded by the bar, which runs as the test user (uid 999).
    let programs = loaded_programs();
    assert!(
        programs.contains("name dump_task") && programs.contains("uid 999"),
        "the probe's programs are loaded by the bar:\n{programs}"
    );

    // A second start on the same display steps aside and makes the first reload.
    session.write_config_file("config.toml", "height = 40\n");
    let mut second = session.start_bar(&[]);
    let status = second.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{}", second.log_text());
    let message = second.log_text();
    assert_eq!(message.lines().count(), 1, "one line: {message}");
    assert!(
        message.contains(&format!(
            "ringbar already runs on wayland-1 (pid {pid}): asked it to reload its config and style"
        )),
        "{message}"
    );
    bar.wait_for_log("reloading the config");
    wait_for("the new height on every output", WAIT, || {
        let bars = bar.bars();
        session.workspace_y() == 40
            && bars.len() == 2
            && bars
                .iter()
                .all(|b| b["mapped"] == "true" && b["cpu"].ends_with('%'))
    });
    assert!(bar.try_wait().is_none(), "the first bar still runs");

    // The config deleted while running, then a reload (SIGUSR1): the defaults, no marker.
    session.remove_config_file("config.toml");
    // SAFETY: kill has no memory-safety preconditions; pid is our child.
    unsafe { libc::kill(pid as i32, libc::SIGUSR1) };
    bar.wait_for_log("reloading the config");
    wait_for("the default height again", WAIT, || {
        session.workspace_y() == 26 && bar.bars().iter().all(|b| b["notice.visible"] == "false")
    });

    // A broken config on reload: a marker, and the bar keeps running on the defaults.
    session.write_config_file("config.toml", "\u{0}\u{ff}garbage = [\n");
    // SAFETY: as above.
    unsafe { libc::kill(pid as i32, libc::SIGHUP) };
    bar.wait_for_log("reloading the config");
    wait_for("the config marker", WAIT, || {
        let bars = bar.bars();
        bars.len() == 2 && bars.iter().all(|b| b["notice"] == "⚠ config")
    });
    assert_eq!(session.workspace_y(), 26);

    // SIGTERM: a clean exit, and none of the probe's programs stay in the kernel.
    // SAFETY: kill has no memory-safety preconditions; pid is our child.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    let status = bar.wait_exit(Duration::from_secs(10));
    assert!(
        status.success(),
        "exit status {status:?}:\n{}",
        bar.log_text()
    );
    bar.wait_for_log("SIGTERM: exiting");
    let programs = loaded_programs();
    assert!(
        !programs.contains("name dump_task") && !programs.contains("name group_freed"),
        "programs left behind:\n{programs}"
    );
}

#[test]
fn the_config_moves_the_bar_to_the_bottom() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "position = \"bottom\"\nheight = 34\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("sway to reserve 34 px at the bottom", WAIT, || {
        session.workspace_rect("y") == 0
            && session.workspace_rect("height") == i64::from(HEIGHT) - 34
    });
    let shot = session.screenshot(0, HEIGHT - 34, WIDTH, 34);
    assert!(
        shot.count(0, 34, is_bar_background) > (WIDTH as usize * 34) * 8 / 10,
        "the bar is drawn at the bottom"
    );
    assert!(
        bar.log_text().contains("bar on output"),
        "{}",
        bar.log_text()
    );
}

#[test]
fn a_broken_config_shows_a_marker_and_the_bar_runs_on_defaults() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "height = 40\nheigth = 40\n");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let log = bar.log_text();
    assert!(
        log.contains("config.toml:2: `heigth = 40`: unknown field `heigth`"),
        "file, line and key in the log: {log}"
    );
    wait_for("the error marker", WAIT, || {
        bar.bars()
            .first()
            .is_some_and(|b| b["notice.visible"] == "true" && b["notice"] == "⚠ config")
    });
    // sway applies the exclusive zone a moment after the bar maps.
    wait_for("the default height", WAIT, || session.workspace_y() == 26);
    wait_for("numbers despite the broken config", WAIT, || {
        bar.bars().first().is_some_and(|b| b["cpu"].ends_with('%'))
    });
}

#[test]
fn thresholds_set_classes_and_the_user_style_is_reloaded_when_it_changes() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // Every CPU reading is past 0 %: the label is always .warning, never .critical.
    session.write_config_file(
        "config.toml",
        "[cpu]\nwarning = 0\ncritical = 100\n[memory]\nwarning = 0\ncritical = 0\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("CSS level classes", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            b["cpu.classes"].split(',').any(|c| c == "warning")
                && b["memory.classes"].split(',').any(|c| c == "critical")
        })
    });

    let red = |[r, g, b]: [u8; 3]| r > 200 && g < 60 && b < 60;
    assert_eq!(session.screenshot(0, 0, WIDTH, 26).count(0, 26, red), 0);
    session.write_config_file("style.css", ".ringbar label.cpu { color: #ff0000; }\n");
    bar.wait_for_log("style loaded from");
    wait_for("the CPU label drawn red", WAIT, || {
        session.screenshot(0, 0, WIDTH, 26).count(0, 26, red) > 30
    });
    session.remove_config_file("style.css");
    wait_for("the default colours back", WAIT, || {
        session.screenshot(0, 0, WIDTH, 26).count(0, 26, red) == 0
    });
}

#[test]
fn without_capabilities_the_bar_runs_and_says_why_the_probe_is_off() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let mut bar = session.start_bar_without_capabilities();
    bar.wait_for_log("sudo setcap cap_bpf,cap_perfmon+ep");
    bar.wait_for_log("bar on output HEADLESS-1");
    // The /proc fallback supplies the numbers; the window is marked for CSS.
    wait_for("the probe-off marker and /proc numbers", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            b["notice.visible"] == "true"
                && b["notice"] == "⚠ BPF probe off"
                && b["cpu"].ends_with('%')
                && b["bar.classes"].split(',').any(|c| c == "probe-off")
        })
    });
    let mut pointer = session.pointer();
    hover_until_tooltip_shows(&mut pointer, &bar, "BPF probe off");
    let tooltip = bar.tooltip_text();
    assert!(
        tooltip.contains("setcap cap_bpf,cap_perfmon+ep"),
        "{tooltip}"
    );
    assert!(tooltip.contains("the numbers come from /proc"), "{tooltip}");
    assert!(
        tooltip.contains("processes of other users"),
        "IO n/a: {tooltip}"
    );
    assert!(bar.try_wait().is_none(), "still running");
}

#[test]
fn the_bar_exits_non_zero_when_the_compositor_goes_away() {
    let _serial = serial();
    require_root();
    let mut session = Session::start(Compositor::Sway);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    session.kill_compositor();
    let status = bar.wait_exit(Duration::from_secs(10));
    assert!(
        !status.success(),
        "a supervisor must see a failure: {status:?}"
    );
}

#[test]
fn without_layer_shell_a_plain_window_appears() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Weston);
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("showing a plain window instead of a bar");
    wait_for("the fallback window with numbers", WAIT, || {
        bar.bars().first().is_some_and(|b| {
            b["output"] == "window" && b["mapped"] == "true" && b["cpu"].ends_with('%')
        })
    });
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        bar.try_wait().is_none(),
        "still running: {}",
        bar.log_text()
    );
    let log = bar.log_text();
    assert!(
        !log.contains("CRITICAL") && !log.contains("panicked"),
        "{log}"
    );
}

/// Regenerates `data/screenshot.png` (the bar with its tooltip open) for README:
/// `scripts/dev.sh screenshot`.
#[test]
#[ignore = "writes data/screenshot.png; run by `scripts/dev.sh screenshot`"]
fn screenshot_for_the_readme() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    // The default layout, as sway's `exec` starts it, with a window open.
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    session.swaymsg(&["rename", "workspace", "to", "web"]);
    let _flower = session.as_user("weston-flower").spawn();
    let mut pointer = session.pointer();
    // The CPU module is the first of the right edge's.
    hover_at_until_tooltip_shows(&mut pointer, &bar, WIDTH - 210, "sampled in");
    // One more tick so the tooltip shows rates.
    std::thread::sleep(Duration::from_millis(2500));
    let to = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/screenshot.png");
    session.screenshot_png(&format!("0,0 {WIDTH}x420"), &to);
    println!("wrote {}", to.display());
}

#[test]
fn ringbar_msg_drives_the_running_bar_and_only_for_its_own_user() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let ringbar = session.path().join("ringbar");
    let msg = |word: &str| {
        session
            .as_user(&ringbar)
            .args(["msg", word])
            .output()
            .expect("run ringbar msg")
    };
    let out = msg("cycle-interval");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    bar.wait_for_log("interval=1000ms");
    assert_eq!(msg("toggle-kernel-threads").status.code(), Some(0));
    bar.wait_for_log("kernel-threads=on");
    session.write_config_file(
        "config.toml",
        "modules_left = [\"memory\"]\nmodules_center = []\nmodules_right = []\n",
    );
    assert_eq!(msg("reload").status.code(), Some(0));
    bar.wait_for_log("reloading the config");
    wait_for("the reloaded modules", WAIT, || {
        bar.bars()
            .first()
            .is_some_and(|b| b.get("cpu").is_none() && b["memory"].starts_with("MEM "))
    });

    // Another user cannot drive it.
    let other = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&ringbar)
        .args(["msg", "cycle-interval"])
        .env("XDG_RUNTIME_DIR", session.runtime_dir())
        .output()
        .expect("run msg as nobody");
    assert_eq!(other.status.code(), Some(1), "{other:?}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        !bar.log_text().contains("interval=500ms"),
        "{}",
        bar.log_text()
    );
}

/// `date +FORMAT` now, in the machine's time zone (the bar's too).
fn date(format: &str) -> String {
    let out = Command::new("date")
        .arg(format!("+{format}"))
        .output()
        .expect("run date");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn the_clock_ticks_on_its_own_timer_and_shows_its_calendar() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"clock\", \"cpu\"]\n[clock]\nformat = \"%H:%M:%S\"\n\
         format_alt = \"day %d of %B\"\n",
    );
    let bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let clock = || {
        bar.bars()
            .first()
            .map(|b| b["clock"].clone())
            .unwrap_or_default()
    };
    // The sample interval is 2 s; the clock shows seconds, so its own timer must tick
    // every second and agree with the system clock.
    wait_for("the clock to show the time", WAIT, || {
        clock() == date("%H:%M:%S")
    });
    let first = clock();
    wait_for("the next second", Duration::from_millis(1500), || {
        clock() != first
    });

    let mut pointer = session.pointer();
    pointer.move_to(30, 12);
    pointer.click("left");
    wait_for("the alternative format", WAIT, || {
        clock() == date("day %d of %B")
    });
    wait_for("the calendar tooltip", WAIT, || {
        pointer.move_to(32, 12);
        std::thread::sleep(Duration::from_millis(1500));
        let text = bar.tooltip_text();
        text.contains(&date("%B %Y")) && text.contains("Mo Tu We Th Fr Sa Su")
    });
    let markup = bar.tooltip_markup();
    let today = date("%-d");
    assert!(
        markup.contains(&format!("<b>{today:>2}</b>")),
        "today in bold: {markup}"
    );
}

#[test]
fn workspaces_and_the_window_title_follow_sway_events() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    session.write_config_file(
        "config.toml",
        "modules_left = [\"workspaces\", \"window\"]\nmodules_right = [\"cpu\"]\n",
    );
    // As sway's `exec` starts it.
    let bar = session.start_bar(&[("SWAYSOCK", &session.swaysock())]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| {
        bar.bars()
            .first()
            .and_then(|b| b.get(key).cloned())
            .unwrap_or_default()
    };
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
    });
    session.swaymsg(&["workspace", "beta"]);
    wait_for("beta focused, alpha occupied, no title", WAIT, || {
        field("workspaces") == "alpha:occupied|beta:focused+visible+empty"
            && field("window.visible") == "false"
    });

    // A click on the first button (alpha) switches sway to it.
    let mut pointer = session.pointer();
    pointer.move_to(24, 12);
    pointer.click("left");
    wait_for("sway on alpha", WAIT, || {
        session
            .swaymsg(&["-t", "get_workspaces", "-r"])
            .split("\"name\"")
            .any(|w| w.starts_with(": \"alpha\"") && w.contains("\"focused\": true"))
    });
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

#[test]
fn custom_modules_run_waybar_scripts_and_their_clicks() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let scripts = session.home().join("scripts");
    std::fs::create_dir_all(&scripts).expect("mkdir");
    let clicked = session.home().join("clicked");
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
             [custom.dying]\nexec = \"{}\"\nreturn-type = \"json\"\n",
            weather.display(),
            clicked.display(),
            dying.display()
        ),
    );
    let mut bar = session.start_bar(&[]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let field = |key: &str| {
        bar.bars()
            .first()
            .and_then(|b| b.get(key).cloned())
            .unwrap_or_default()
    };
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
    assert!(bar.try_wait().is_none(), "the bar still runs");
    let log = bar.log_text();
    assert!(
        log.contains("custom/dying"),
        "the script's failure is logged: {log}"
    );
}
