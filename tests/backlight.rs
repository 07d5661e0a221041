//! The backlight module. This machine has no backlight (no /sys/class/backlight), so
//! the bar runs in a mount namespace whose /sys/class is a copy of the real one (links
//! to each class, the real one bind-mounted aside) plus a fake
//! `backlight/intel_backlight` in the kernel's documented layout. Its uevents are real netlink messages on NETLINK_KOBJECT_UEVENT's kernel
//! group, in the kernel's format, sent by `tests/backlight/logind.py` where the kernel
//! would send them; the bar's side (the socket, the parsing, the reading) is the real
//! one. Setting the brightness goes through a stand-in for logind's documented
//! `Session.SetBrightness` on a real dbus-daemon (no logind session here), or straight
//! to the file once the test user may write it.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::bus::Helper;
use common::session::{Compositor, RunningBar, Session};
use common::system_bus;
use common::{require_root, serial, wait_for};

const WAIT: Duration = Duration::from_secs(20);
const DEVICE: &str = "intel_backlight";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/backlight/logind.py")
}

/// The kernel's uevent for the fake device, as root.
fn uevent(action: &str) {
    let status = Command::new("/usr/bin/python3")
        .arg(script())
        .args(["uevent", action, DEVICE])
        .status()
        .expect("run logind.py uevent");
    assert!(status.success(), "uevent {action}");
}

/// A /sys/class of links to the real classes (at `real`, where the bar's namespace
/// mounts them), and a fake backlight at 12000 of 24000.
fn fake_class(session: &Session, real: &Path) -> PathBuf {
    let class = session.path().join("class");
    std::fs::create_dir_all(&class).expect("mkdir class");
    std::fs::create_dir_all(real).expect("mkdir the real class's place");
    for entry in std::fs::read_dir("/sys/class")
        .expect("/sys/class")
        .flatten()
    {
        let name = entry.file_name();
        std::os::unix::fs::symlink(real.join(&name), class.join(&name)).expect("link");
    }
    write_device(&class.join("backlight"), 12_000);
    class
}

fn write_device(backlight: &Path, brightness: u32) {
    let device = backlight.join(DEVICE);
    std::fs::create_dir_all(&device).expect("mkdir device");
    for (file, value) in [
        ("type", "raw".to_owned()),
        ("max_brightness", "24000".to_owned()),
        ("brightness", brightness.to_string()),
        ("actual_brightness", brightness.to_string()),
    ] {
        std::fs::write(device.join(file), format!("{value}\n")).expect("write");
    }
}

fn scroll(session: &Session, bar: &RunningBar, direction: &str) {
    bar.point_at(session, "backlight").scroll(direction);
}

#[test]
fn the_backlight_follows_uevents_and_scrolls_set_it_through_logind_or_sysfs() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let real = session.path().join("real-class");
    let class = fake_class(&session, &real);
    let device = class.join("backlight").join(DEVICE);
    let bus = system_bus::start(&session);

    // The logind stand-in, as root as logind runs; what it was asked, line by line.
    let mut child = Command::new("/usr/bin/python3")
        .arg(script())
        .arg("logind")
        .arg(class.join("backlight"))
        .env("DBUS_SYSTEM_BUS_ADDRESS", &bus.address)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the logind stand-in (python3-gi)");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    assert_eq!(lines.next().and_then(Result::ok).as_deref(), Some("owned"));
    let _logind = Helper(child);
    let asked = Arc::new(Mutex::new(Vec::<String>::new()));
    let heard = asked.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            heard.lock().expect("lock").push(line);
        }
    });

    // Waybar's `on-update`: a line for each new label, as an OSD script would be told.
    let updates = session.home().join("updates");
    session.write_config_file(
        "config.toml",
        &format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"backlight\"]\n\
             [backlight]\nstates = {{ dim = 0, bright = 70 }}\nformat-bright = \"SUN {{percent}}%\"\n\
             on-update = \"echo up >> {}\"\n",
            updates.display()
        ),
    );
    let updated = || {
        std::fs::read_to_string(&updates)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let bar = session.start_bar_with_mounts(
        &[
            (Path::new("/sys/class"), &real),
            (&class, Path::new("/sys/class")),
        ],
        &[("DBUS_SYSTEM_BUS_ADDRESS", bus.address.as_str())],
    );
    let label = || bar.field("backlight");
    let classes = || bar.field("backlight.classes");
    wait_for("the fake backlight, dim", WAIT, || {
        label() == "LIGHT 50%" && classes().split(',').any(|c| c == "dim")
    });
    wait_for("on-update for the first label", WAIT, || updated() == 1);

    // No polling: a change the kernel does not announce is not seen; announced, it is.
    write_device(&class.join("backlight"), 18_000);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(label(), "LIGHT 50%", "read without a uevent");
    uevent("change");
    // 75 % reaches the state `bright`: its class and its own format.
    wait_for("the change after its uevent", WAIT, || {
        label() == "SUN 75%"
            && classes().split(',').any(|c| c == "bright")
            && !classes().split(',').any(|c| c == "dim")
    });

    // The file is root's: a scroll goes through logind's SetBrightness (+5 %).
    scroll(&session, &bar, "up");
    wait_for("logind asked", WAIT, || {
        asked.lock().expect("lock").as_slice() == ["SetBrightness backlight intel_backlight 19200"]
    });
    wait_for("the label after logind's change", WAIT, || {
        label() == "SUN 80%"
    });
    let brightness = std::fs::read_to_string(device.join("brightness")).expect("read");
    assert_eq!(brightness.trim(), "19200");
    // One run for each of the two new labels, and none meanwhile.
    wait_for("on-update for each new label", WAIT, || updated() == 3);
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(updated(), 3, "on-update without a new label");

    // The test user may write the file (as a udev rule can allow): written directly.
    let status = Command::new("chown")
        .arg("ringbar-test")
        .arg(device.join("brightness"))
        .status()
        .expect("chown");
    assert!(status.success());
    scroll(&session, &bar, "down");
    wait_for("the file written", WAIT, || {
        std::fs::read_to_string(device.join("brightness")).is_ok_and(|b| b.trim() == "18000")
    });
    wait_for("the label at once", WAIT, || label() == "SUN 75%");
    assert_eq!(
        asked.lock().expect("lock").len(),
        1,
        "logind not asked again"
    );

    // The device goes, and comes back.
    std::fs::remove_dir_all(&device).expect("remove the device");
    uevent("remove");
    wait_for("hidden without it", WAIT, || {
        bar.field("backlight.visible") == "false"
    });
    write_device(&class.join("backlight"), 6_000);
    uevent("add");
    wait_for("back", WAIT, || label() == "LIGHT 25%");
}
