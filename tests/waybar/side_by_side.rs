//! A Waybar user's config and style in Debian's Waybar and, imported with
//! `ringbar import-waybar -o DIR/`, in ringbar: one after the other in one headless sway,
//! on one fake battery (a power_supply class bind-mounted over the real one for each bar),
//! one fake hwmon sensor and one real PipeWire's null sink at 40 %. Each module's text,
//! read back from the screen with OCR, is the same in both bars: formats, icons from
//! `format-icons` and static buttons included. An icon from Font Awesome (Debian's
//! `fonts-font-awesome`), which OCR cannot read, is compared by its red ink: the same
//! glyph has the same size and about the same ink. The disk module reads a tmpfs of its
//! own, 30 % full: the root file system's use moves while the machine writes, and once
//! crossed a percent between the two bars.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::bus::start_session_bus;
use crate::common::ocr;
use crate::common::session::{Compositor, Image, Session, WIDTH};
use crate::common::sound::Sound;
use crate::common::{require_root, serial};

pub(super) const HEIGHT: u32 = 30;

/// Each module's text begins with its own word, in the order the bar shows them.
const WORDS: [&str; 13] = [
    "WS", "HELLO", "CPU", "WIN", "DAY", "BAT", "TEMP", "MEM", "DISK", "NET", "VOL", "IDLE", "USER",
];

/// The user's config, in the style of real dotfiles; `HWMON` is the fake sensor's file and
/// `FAKE_DISK` the disk module's file system.
const CONFIG: &str = r#"// My bar
{
    "layer": "top",
    "position": "top",
    "height": 30,
    "modules-left": ["custom/gauge", "sway/workspaces", "custom/hello", "cpu", "sway/window"],
    "modules-center": ["clock"],
    "modules-right": ["battery", "temperature", "memory", "disk", "network", "pulseaudio", "idle_inhibitor", "user"],
    "custom/gauge": {
        "exec": "echo '{\"text\": \"g\", \"percentage\": 42}'",
        "return-type": "json",
        "interval": "once",
        "format": "{icon}",
        "format-icons": ["\uf244", "\uf243", "\uf242", "\uf241", "\uf240"]
    },
    "sway/workspaces": { "format": "WS {name}" },
    "custom/hello": { "format": "HELLO", "tooltip": false },
    "cpu": { "format": "CPU {avg_frequency} {max_frequency}" },
    "sway/window": { "format": "{}", "rewrite": { "F(.*)": "WIN ROSE $1" } },
    "clock": { "format": "DAY {:%m-%d}", "tooltip-format": "{:%A}" },
    "battery": {
        "states": { "warning": 30, "critical": 15 },
        "format": "BAT {capacity}% {icon}",
        "format-icons": ["A", "B", "C", "D", "E"]
    },
    "temperature": { "hwmon-path": "HWMON", "format": "TEMP {temperatureC}C" },
    "memory": { "format": "MEM {total}G" },
    "disk": { "path": "FAKE_DISK", "format": "DISK {percentage_used}%" },
    "network": {
        "format-ethernet": "NET {ipaddr}",
        "format-disconnected": "NET off",
        "tooltip-format": "{ifname}"
    },
    "pulseaudio": { "format": "VOL {volume}%", "format-muted": "VOL off" },
    "idle_inhibitor": {
        "format": "IDLE {icon}",
        "format-icons": { "activated": "ON", "deactivated": "OFF" }
    },
    "user": { "format": "USER {user}" },
}
"#;

/// At 14 px with little padding the twelve modules fit in 1280 pixels with room to spare
/// (at 16 px, an interface named `enp0s3` and the user `ringbar-test` overflowed it, and
/// Waybar cut the window's title short). The network module shows its address: OCR read
/// the same `eth0` in the two bars as `eth®` and `ethO`.
const STYLE: &str = r#"
* { font-family: "DejaVu Sans Mono", monospace; font-size: 14px; border: none; border-radius: 0; }
window#waybar { background: #ffffff; color: #000000; }
#workspaces button, #custom-hello, #cpu, #window, #clock, #battery, #temperature, #memory, #disk,
#network, #pulseaudio, #idle_inhibitor, #user {
    padding: 0 4px; color: #000000; background: #ffffff;
}
#custom-gauge { font-family: "Font Awesome 6 Free", "FontAwesome"; color: #ff0000; padding: 0 10px; }
"#;

/// A discharging battery at 42 % (by `capacity` and by energy alike) and no mains;
/// Waybar takes a battery only with a `uevent` file.
fn fake_power_supply(root: &Path) {
    let files = [
        ("BAT0/type", "Battery"),
        ("BAT0/present", "1"),
        ("BAT0/status", "Discharging"),
        ("BAT0/capacity", "42"),
        ("BAT0/energy_now", "21000000"),
        ("BAT0/energy_full", "50000000"),
        ("BAT0/energy_full_design", "50000000"),
        ("BAT0/power_now", "10000000"),
        ("BAT0/voltage_now", "12000000"),
        (
            "BAT0/uevent",
            "POWER_SUPPLY_NAME=BAT0\nPOWER_SUPPLY_TYPE=Battery",
        ),
        ("AC/type", "Mains"),
        ("AC/uevent", "POWER_SUPPLY_NAME=AC\nPOWER_SUPPLY_TYPE=Mains"),
        ("AC/online", "0"),
    ];
    for (file, value) in files {
        let path = root.join(file);
        fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        fs::write(path, format!("{value}\n")).expect("write");
    }
}

/// The text from each of `words` to the next, spaces normalised; panics unless every
/// word is there, in order.
pub(super) fn modules(words: &[&str], text: &str) -> Vec<String> {
    let read: Vec<&str> = text.split_whitespace().collect();
    let starts: Vec<usize> = words
        .iter()
        .map(|w| read.iter().position(|x| x == w).unwrap_or(usize::MAX))
        .collect();
    (0..words.len())
        .map(|i| {
            let end = starts.get(i + 1).copied().unwrap_or(read.len());
            read[starts[i]..end].join(" ")
        })
        .collect()
}

fn shows_every_module(words: &[&str], text: &str) -> bool {
    let read: Vec<&str> = text.split_whitespace().collect();
    let mut at = 0;
    words
        .iter()
        .all(|w| match read[at..].iter().position(|x| x == w) {
            Some(found) => {
                at += found + 1;
                true
            }
            None => false,
        })
}

/// The red icon's ink: its pixels and its bounding box's width and height.
#[derive(Debug)]
pub(super) struct Ink {
    pixels: usize,
    width: usize,
    height: usize,
}

fn red_ink(shot: &Image) -> Ink {
    let (mut pixels, mut xs, mut ys) = (0, (usize::MAX, 0), (usize::MAX, 0));
    for y in 0..HEIGHT as usize {
        for x in 0..WIDTH as usize {
            let [r, g, b] = shot.pixel(x, y);
            if r > 150 && g < 110 && b < 110 {
                pixels += 1;
                xs = (xs.0.min(x), xs.1.max(x));
                ys = (ys.0.min(y), ys.1.max(y));
            }
        }
    }
    Ink {
        pixels,
        width: (xs.1 + 1).saturating_sub(xs.0),
        height: (ys.1 + 1).saturating_sub(ys.0),
    }
}

/// OCR of the bar's strip until each of `words` is there (and, with `ink`, the red
/// icon), and the red icon's ink.
pub(super) fn read_bar(
    session: &Session,
    who: &str,
    (words, ink_wanted): (&[&str], bool),
    log: impl Fn() -> String,
) -> (String, Ink) {
    let started = Instant::now();
    loop {
        let shot = session.screenshot(0, 0, WIDTH, HEIGHT);
        let text = ocr::read_text(&shot);
        let ink = red_ink(&shot);
        if shows_every_module(words, &text) && (ink.pixels > 0 || !ink_wanted) {
            return (text, ink);
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{who}: OCR last read `{text}`; its log:\n{}",
            log()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// The user's Waybar config and style imported into ringbar's (`import-waybar -o DIR/`),
/// with no setting left behind and no selector that matches nothing; the import's report.
pub(super) fn import(session: &Session) -> String {
    let dir = format!("{}/", session.path().join("imported").display());
    let waybar_config = session.home().join(".config/waybar/config.jsonc");
    let import = Command::new(env!("CARGO_BIN_EXE_ringbar"))
        .arg("import-waybar")
        .arg(&waybar_config)
        .args(["-o", &dir, "--force"])
        .output()
        .expect("run import-waybar");
    let report = String::from_utf8_lossy(&import.stderr).into_owned();
    assert!(import.status.success(), "{report}");
    assert!(!report.contains("not carried"), "{report}");
    assert!(!report.contains("matches nothing"), "{report}");
    let read = |name: &str| fs::read_to_string(format!("{dir}{name}")).expect(name);
    session.write_config_file("config.toml", &read("config.toml"));
    session.write_config_file("style.css", &read("style.css"));
    report
}

/// A tmpfs of 10 MiB at `path` with 3 MiB in it (30 % used), unmounted when dropped.
struct FixedDisk(std::path::PathBuf);

impl FixedDisk {
    fn mount(path: &Path) -> FixedDisk {
        fs::create_dir_all(path).expect("mkdir");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=10m,mode=0755", "tmpfs"])
            .arg(path)
            .status()
            .expect("mount");
        assert!(mounted.success(), "a tmpfs at {}", path.display());
        let disk = FixedDisk(path.to_path_buf());
        fs::write(path.join("data"), vec![1u8; 3 << 20]).expect("3 MiB into the tmpfs");
        disk
    }
}

impl Drop for FixedDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[test]
fn a_waybar_config_and_style_show_the_same_text_in_both_bars() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let power_supply = session.home().join("fake/power_supply");
    fake_power_supply(&power_supply);
    let hwmon = session.write_home_file("fake/hwmon/temp1_input", "47000\n");
    let disk = FixedDisk::mount(&session.path().join("fake-disk"));
    let config = CONFIG
        .replace("HWMON", &hwmon.display().to_string())
        .replace("FAKE_DISK", &disk.0.display().to_string());
    let mounts = [(power_supply.as_path(), Path::new("/sys/class/power_supply"))];
    // PipeWire's null sink at 40 %, read by both over pipewire-pulse.
    let _bus = start_session_bus(&session);
    let sound = Sound::start(&session);
    sound.run("pactl", &["set-sink-volume", "@DEFAULT_SINK@", "40%"]);
    // A focused window, whose title the window module rewrites.
    let mut flower = session
        .as_user("weston-flower")
        .spawn()
        .expect("start weston-flower");

    let mut waybar = session.start_waybar_with_mounts(&config, STYLE, &mounts);
    waybar.wait_for_log("Bar configured");
    let (waybar_text, waybar_ink) =
        read_bar(&session, "Waybar", (&WORDS, true), || waybar.log_text());
    waybar.stop();

    let report = import(&session);
    let swaysock = session.swaysock();
    let bar = session.start_bar_with_mounts(&mounts, &[("SWAYSOCK", &swaysock)]);
    bar.wait_for_log("bar on output HEADLESS-1");
    let (ringbar_text, ringbar_ink) =
        read_bar(&session, "ringbar", (&WORDS, true), || bar.log_text());

    let (theirs, ours) = (
        modules(&WORDS, &waybar_text),
        modules(&WORDS, &ringbar_text),
    );
    eprintln!("Waybar: {theirs:?}\nringbar: {ours:?}\nthe import's notes:\n{report}");
    assert!(
        theirs.contains(&"BAT 42% C".to_owned()),
        "Waybar's battery: {theirs:?}"
    );
    assert!(
        theirs.contains(&"TEMP 47C".to_owned()),
        "Waybar's sensor: {theirs:?}"
    );
    eprintln!("the icon's ink: Waybar {waybar_ink:?}, ringbar {ringbar_ink:?}");
    // A battery glyph of Font Awesome is about 18 by 10 pixels at 14 px; the next glyph
    // of the list differs by a fifth of its ink.
    assert!(
        waybar_ink.width >= 12,
        "Waybar drew the icon: {waybar_ink:?}"
    );
    assert!(
        ringbar_ink.width.abs_diff(waybar_ink.width) <= 1
            && ringbar_ink.height.abs_diff(waybar_ink.height) <= 1
            && ringbar_ink.pixels.abs_diff(waybar_ink.pixels) * 100 <= 8 * waybar_ink.pixels,
        "the same icon: Waybar {waybar_ink:?}, ringbar {ringbar_ink:?}"
    );
    // Waybar 0.9.17 rewrites the title; later ones the label: the same with `{}`.
    // Tesseract reads this font's `l` at 14 px as `l` or `L`.
    assert!(
        theirs[3].eq_ignore_ascii_case("WIN ROSE lower"),
        "Waybar's rewrite of Flower: {}",
        theirs[3]
    );
    assert_eq!(theirs[8], "DISK 30%", "Waybar on the fixed disk");
    assert_eq!(theirs[10], "VOL 40%", "Waybar on PipeWire's null sink");
    let _ = flower.kill();
    let _ = flower.wait();
    // The CPU's frequency is fixed where the kernel has no cpufreq (a virtual machine,
    // as here: both read /proc/cpuinfo); elsewhere it moves between the two readings,
    // and only its shape is compared.
    let moving = Path::new("/sys/devices/system/cpu/cpu0/cpufreq").exists();
    let shape = |text: &str| -> String {
        text.chars()
            .map(|c| if c.is_ascii_digit() { '0' } else { c })
            .collect()
    };
    for (module, (waybar, ringbar)) in WORDS.iter().zip(theirs.iter().zip(&ours)) {
        let (waybar, ringbar) = match (*module, moving) {
            ("CPU", true) => (shape(waybar), shape(ringbar)),
            _ => (waybar.clone(), ringbar.clone()),
        };
        assert_eq!(
            ringbar, waybar,
            "{module}: Waybar `{waybar_text}`, ringbar `{ringbar_text}`"
        );
    }
}
