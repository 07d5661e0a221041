//! Files the user controls, swapped for things that are not files: a FIFO that never
//! gets a writer, a device that never ends, a huge file, a planted symlink where the
//! instance lock goes, and keyboard-state's `device-path` naming what is no keyboard.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::wait_for;
use crate::{finish, mkfifo, text, Home, Lines};

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn a_config_that_is_a_fifo_is_refused_by_once_and_waybar_without_waiting() {
    crate::common::require_root();
    let home = Home::new();
    mkfifo(&home.config());
    let out = finish(home.command(&["--once", "--interval-ms", "100"]), LIMIT);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("⚠ config") && stdout.contains("not a regular file but a FIFO"),
        "the config notice names the FIFO:\n{stdout}"
    );

    let mut waybar = home.waybar();
    let line = Lines::of(&mut waybar.0).next("from --waybar", LIMIT);
    assert!(line.contains("not a regular file but a FIFO"), "{line}");
}

#[test]
fn a_running_instance_told_to_reload_a_fifo_keeps_answering() {
    crate::common::require_root();
    let home = Home::new();
    std::fs::write(home.config(), "interval_ms = 100\n").expect("config");
    let mut waybar = home.waybar();
    let pid = waybar.0.id() as i32;
    let lines = Lines::of(&mut waybar.0);
    lines.next("from --waybar", LIMIT);
    // The control socket is up once `msg` reaches it.
    let msg = |home: &Home| {
        let mut c = home.command(&["msg", "toggle-kernel-threads"]);
        c.stdout(Stdio::null()).stderr(Stdio::null());
        c.status().expect("ringbar msg").success()
    };
    wait_for("the control socket", Duration::from_secs(20), || msg(&home));

    std::fs::remove_file(home.config()).expect("rm config");
    mkfifo(&home.config());
    // SAFETY: kill takes plain integers; `pid` is our child.
    unsafe { libc::kill(pid, libc::SIGUSR1) };
    lines.until("not a regular file but a FIFO", Duration::from_secs(20));
    assert!(msg(&home), "`ringbar msg` still reaches it");
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    assert!(
        crate::exits_within(&mut waybar, Duration::from_secs(20)),
        "SIGTERM ends it"
    );
}

/// A FIFO that never gets a writer (opening it to read would wait for one), a device
/// that never ends, a regular file and a path that does not exist: none is a keyboard,
/// so keyboard-state hides at once, says so, and the rest of the bar is read.
#[test]
fn a_keyboard_device_path_that_is_no_keyboard_hides_the_module_without_waiting() {
    crate::common::require_root();
    let home = Home::new();
    let fifo = home.path("leds.fifo");
    mkfifo(&fifo);
    let file = home.path("leds.txt");
    std::fs::write(&file, "17\n").expect("write");
    let missing = home.path("no-such-node");
    for path in [&fifo, Path::new("/dev/zero"), &file, &missing] {
        let config = format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"keyboard-state\", \"clock\"]\n\
             [keyboard-state]\ndevice-path = {:?}\n",
            path.display().to_string()
        );
        std::fs::write(home.config(), config).expect("config");
        let mut command = home.command(&["--once", "--json", "--interval-ms", "100"]);
        command.env("RINGBAR_LOG", "info");
        let out = finish(command, LIMIT);
        let (stdout, log) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{}: {log}", path.display());
        let doc: serde_json::Value = serde_json::from_str(&stdout).expect(&stdout);
        let module = |name: &str| {
            doc["modules"]
                .as_array()
                .and_then(|m| m.iter().find(|m| m["name"] == name))
                .cloned()
                .unwrap_or_else(|| panic!("no {name} in {stdout}"))
        };
        assert_eq!(
            module("keyboard-state")["visible"],
            false,
            "{}: {stdout}",
            path.display()
        );
        assert_eq!(module("clock")["visible"], true, "{stdout}");
        let note = format!(
            "keyboard-state: no keyboard with Num, Caps and Scroll Lock LEDs in {}",
            path.display()
        );
        assert_eq!(log.matches(&note).count(), 1, "{log}");
    }
}

#[test]
fn a_config_linked_to_an_endless_device_or_over_the_cap_is_refused() {
    crate::common::require_root();
    let home = Home::new();
    for device in ["/dev/zero", "/dev/urandom"] {
        let _ = std::fs::remove_file(home.config());
        symlink(device, home.config()).expect("symlink");
        let mut command = home.command(&["--once", "--interval-ms", "100"]);
        limit_memory(&mut command, 512 << 20);
        let out = finish(command, LIMIT);
        assert!(out.status.success(), "{device}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("not a regular file but a character device"),
            "{device}: {}",
            text(&out.stdout)
        );
    }
    std::fs::remove_file(home.config()).expect("rm");
    let big = "# a comment line of a config file that is far too long\n".repeat(40_000);
    assert!(big.len() > 1 << 20);
    std::fs::write(home.config(), big).expect("write");
    let out = finish(home.command(&["--once", "--interval-ms", "100"]), LIMIT);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("⚠ config") && stdout.contains("larger than 1 MiB"),
        "{stdout}"
    );
}

/// RLIMIT_AS for the child: a read without limit fails fast instead of swapping.
fn limit_memory(command: &mut std::process::Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; the struct lives on the child's stack.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes * 8,
                rlim_max: bytes * 8,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
}

#[test]
fn the_instance_lock_never_follows_a_planted_symlink() {
    crate::common::require_root();
    for mode in [0o777, 0o1777, 0o700] {
        let home = Home::new();
        let victim = home.path("victim.txt");
        std::fs::write(&victim, "precious\n").expect("victim");
        let run = home.path("run");
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(mode)).expect("chmod");
        symlink(&victim, run.join("ringbar-ringbar-hostile-none.lock")).expect("plant");
        // The bar takes its lock before anything else, then finds no display and exits.
        let out = finish(home.command(&[]), LIMIT);
        assert_eq!(
            std::fs::read_to_string(&victim).expect("victim"),
            "precious\n",
            "mode {mode:o}: {}",
            text(&out.stderr)
        );
        let why = if mode == 0o700 {
            "is a symlink"
        } else {
            "is writable by other users"
        };
        assert!(
            text(&out.stderr).contains(why),
            "mode {mode:o}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_config_listing_a_hundred_thousand_modules_is_refused() {
    crate::common::require_root();
    let home = Home::new();
    let list = vec!["\"cpu\""; 100_000].join(",");
    std::fs::write(home.config(), format!("modules_right = [{list}]\n")).expect("config");
    let out = finish(home.command(&["--once", "--interval-ms", "100"]), LIMIT);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("more than 64 modules in one group (100000 here)"),
        "{stdout}"
    );
    assert!(stdout.len() < 64 * 1024, "{} bytes of output", stdout.len());
}

#[test]
fn a_style_or_config_that_is_a_fifo_leaves_the_bar_running() {
    use crate::common::session::{Compositor, Session};
    crate::common::require_root();
    let _serial = crate::common::serial();
    let session = Session::start(Compositor::Sway);
    session.write_config_file("config.toml", "modules_right = [\"cpu\"]\n");
    let style = session.home().join(".config/ringbar/style.css");
    mkfifo(&style);
    std::os::unix::fs::chown(&style, Some(uid_of(&session)), None).expect("chown");
    let bar = session.start_bar(&[]);
    bar.wait_for_log("not a regular file but a FIFO");
    bar.wait_for_log("bar on output HEADLESS-1");
    wait_for("the cpu label", Duration::from_secs(20), || {
        bar.field("cpu").starts_with("CPU")
    });

    // The config swapped for a FIFO under the running bar, and SIGUSR1: the main loop
    // goes on, with the marker, and still takes SIGTERM.
    let config = session.home().join(".config/ringbar/config.toml");
    std::fs::remove_file(&config).expect("rm config");
    mkfifo(&config);
    // SAFETY: kill takes plain integers; the bar is our child.
    unsafe { libc::kill(bar.pid() as i32, libc::SIGUSR1) };
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while bar.field("notice") != "⚠ config" {
        assert!(
            std::time::Instant::now() < deadline,
            "no config marker; the notice shows {:?}; the bar's threads (comm state \
             wchan): {}; the bar's log:\n{}",
            bar.field("notice"),
            threads(bar.pid()),
            bar.log_text()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let log = bar.log_text();
    assert!(log.contains("not a regular file but a FIFO"), "{log}");
    let mut bar = bar;
    // SAFETY: as above.
    unsafe { libc::kill(bar.pid() as i32, libc::SIGTERM) };
    assert!(
        bar.wait_exit(Duration::from_secs(10)).success(),
        "SIGTERM ends it"
    );
}

/// Each thread of `pid` as `comm state wchan`, or what ended it: where a hung bar waits.
fn threads(pid: u32) -> String {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return format!("no /proc/{pid}: the bar ended");
    };
    let read = |tid: &str, file: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/{file}")).unwrap_or_default()
    };
    tasks
        .flatten()
        .map(|task| {
            let tid = task.file_name().to_string_lossy().into_owned();
            let stat = read(&tid, "stat");
            let state = stat.rsplit_once(") ").map_or("?", |(_, rest)| &rest[..1]);
            format!(
                "{} {state} {}",
                read(&tid, "comm").trim(),
                read(&tid, "wchan")
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn uid_of(session: &crate::common::session::Session) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(session.home()).expect("home").uid()
}
