//! Reading the backlight class, picking a device, stepping, and parsing uevents.

use super::*;

fn device(root: &Path, name: &str, kind: &str, brightness: u32, max: u32, actual: Option<u32>) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("type"), format!("{kind}\n")).expect("type");
    std::fs::write(dir.join("max_brightness"), format!("{max}\n")).expect("max");
    std::fs::write(dir.join("brightness"), format!("{brightness}\n")).expect("brightness");
    if let Some(actual) = actual {
        std::fs::write(dir.join("actual_brightness"), format!("{actual}\n")).expect("actual");
    }
}

#[test]
fn devices_are_read_and_picked_firmware_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    device(
        dir.path(),
        "intel_backlight",
        "raw",
        12_000,
        24_000,
        Some(12_000),
    );
    device(dir.path(), "acpi_video0", "firmware", 3, 15, None);
    device(dir.path(), "panel", "platform", 50, 100, Some(40));
    std::fs::create_dir_all(dir.path().join("broken")).expect("mkdir");
    let state = BacklightState::read(dir.path());
    let names: Vec<&str> = state.devices.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["acpi_video0", "intel_backlight", "panel"]);
    assert_eq!(
        state.pick(None).map(|d| d.name.as_str()),
        Some("acpi_video0")
    );
    let intel = state.pick(Some("intel_backlight")).expect("named");
    assert_eq!((intel.kind, intel.percent()), (Kind::Raw, 50));
    // actual_brightness, where there is one, is what the panel shows.
    assert_eq!(state.pick(Some("panel")).map(Backlight::percent), Some(40));
    assert_eq!(
        state.pick(Some("acpi_video0")).map(Backlight::percent),
        Some(20)
    );
    assert!(state.pick(Some("nope")).is_none());
    assert!(BacklightState::read(&dir.path().join("missing"))
        .devices
        .is_empty());
}

#[test]
fn steps_stay_within_one_and_the_maximum_and_always_move() {
    let light = |brightness, max| Backlight {
        name: "b".to_owned(),
        kind: Kind::Raw,
        brightness,
        max,
    };
    assert_eq!(light(12_000, 24_000).stepped(5.0), 13_200);
    assert_eq!(light(12_000, 24_000).stepped(-5.0), 10_800);
    assert_eq!(light(23_900, 24_000).stepped(5.0), 24_000);
    assert_eq!(light(500, 24_000).stepped(-5.0), 1, "never off");
    // Seven steps of 0..=7: 5 % is less than one step, yet the scroll moves it.
    assert_eq!(light(3, 7).stepped(5.0), 4);
    assert_eq!(light(3, 7).stepped(-5.0), 2);
    assert_eq!(light(1, 7).stepped(-5.0), 1);
    assert_eq!(light(7, 7).stepped(5.0), 7);
    assert_eq!(light(0, 0).stepped(5.0), 0);
    assert_eq!(light(0, 0).percent(), 0);
}

#[test]
fn kernel_uevents_parse_and_others_do_not() {
    let message = b"change@/devices/pci0000:00/0000:00:02.0/drm/card0/card0-eDP-1/intel_backlight\0\
        ACTION=change\0DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0/card0-eDP-1/intel_backlight\0\
        SUBSYSTEM=backlight\0SOURCE=sysfs\0SEQNUM=4242\0";
    let uevent = parse_uevent(message).expect("a uevent");
    assert_eq!(uevent.action, "change");
    assert_eq!(uevent.subsystem, "backlight");
    assert!(uevent.devpath.ends_with("/intel_backlight"));
    // udev's messages, truncated ones, and garbage are not kernel uevents.
    assert!(parse_uevent(b"libudev\0\xfe\xed\xca\xfe").is_none());
    assert!(parse_uevent(b"add@/devices/x\0ACTION=add\0").is_none());
    assert!(parse_uevent(b"").is_none());
    assert!(parse_uevent(b"\xff\xfe@\0ACTION=x\0SUBSYSTEM=y\0DEVPATH=z\0").is_none());
}
