//! `keyboard-state` on the Hyprland VM's real keyboard (the guest's AT keyboard, whose
//! evdev node has the three lock LEDs; this machine has no input device at all). The
//! bar runs in the guest on Hyprland with the test hook, and follows:
//! - Caps Lock pressed on the keyboard: Hyprland turns its LED on, the bar's label
//!   gets `locked`, and off again;
//! - a LED set straight on the node, as any compositor sets them;
//!
//! then `--once --json` agrees with the kernel's LEDs, and a user outside the `input`
//! group gets the module hidden and one note that says why.

use std::fs;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use crate::common::hyprland::{HyprlandVm, GUEST_SHARE};

const KEY_CAPSLOCK: u32 = 58;
const LED_SCROLLL: u32 = 2;
/// The guest's folder for the bar's config, hook and runtime files.
const HOME: &str = "/tmp/ringbar-keyboard";
const CONFIG: &str =
    "modules_left = []\nmodules_center = []\nmodules_right = [\"keyboard-state\"]\n\
    [keyboard-state]\nnumlock = true\ncapslock = true\nscrolllock = true\n\
    format = \"{name}{icon}\"\nformat-icons = { locked = \"+\", unlocked = \"-\" }\n";

/// The labels the bar should show for the kernel's LED bitmap `bits`, as the test hook
/// writes them.
fn labels_for(bits: u64) -> String {
    let label = |name: &str, class: &str, on: bool| match on {
        true => format!("{name}+:{class}+locked"),
        false => format!("{name}-:{class}"),
    };
    [
        label("Scroll", "scrolllock", bits & 4 != 0),
        label("Caps", "capslock", bits & 2 != 0),
        label("Num", "numlock", bits & 1 != 0),
    ]
    .join("|")
}

fn evdev(vm: &HyprlandVm, args: &str) -> String {
    vm.guest(&format!("python3 {GUEST_SHARE}/evdev.py {args}"))
        .trim()
        .to_owned()
}

fn leds(vm: &HyprlandVm, node: &str) -> u64 {
    let out = evdev(vm, &format!("leds {node}"));
    out.parse()
        .unwrap_or_else(|_| panic!("EVIOCGLED on {node}: {out:?}"))
}

/// What the bar in the guest shows as keyboard-state's labels (the hook's `bars` file).
fn shown(vm: &HyprlandVm) -> String {
    let bars = vm.guest(&format!("cat {HOME}/hook/bars 2>/dev/null"));
    bars.split('\t')
        .find_map(|field| field.strip_prefix("keyboard-state.labels="))
        .unwrap_or_default()
        .trim()
        .to_owned()
}

fn wait_shown(vm: &HyprlandVm, want: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = shown(vm);
    while last != want {
        assert!(
            Instant::now() < deadline,
            "{what}: the bar shows {last:?}, not {want:?}\n{}",
            vm.guest_file("keyboard-bar.log")
        );
        std::thread::sleep(Duration::from_millis(300));
        last = shown(vm);
    }
}

fn wait_leds(vm: &HyprlandVm, node: &str, check: impl Fn(u64) -> bool, what: &str) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let bits = leds(vm, node);
        if check(bits) {
            return bits;
        }
        assert!(Instant::now() < deadline, "{what}: the LEDs stay {bits:#b}");
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// `ringbar --once --json` in the guest as the user `uid`, in no group: the module's
/// entry and the log.
fn once(vm: &HyprlandVm, uid: u32) -> (Json, String) {
    let share = GUEST_SHARE;
    let user = format!("setpriv --reuid={uid} --regid={uid} --clear-groups");
    vm.guest(&format!(
        "mkdir -p -m 700 {HOME}/run-{uid} && chown {uid}:{uid} {HOME}/run-{uid}; \
         cd /tmp && {user} env HOME=/tmp XDG_CONFIG_HOME={HOME}/cfg XDG_RUNTIME_DIR={HOME}/run-{uid} \
         RINGBAR_LOG=info {share}/ringbar --once --json --interval-ms 300 \
         > {share}/keyboard-once.json 2> {share}/keyboard-once.log"
    ));
    let text = fs::read_to_string(vm.shared("keyboard-once.json")).unwrap_or_default();
    let log = fs::read_to_string(vm.shared("keyboard-once.log")).unwrap_or_default();
    let doc: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}\n{log}"));
    let module = doc["modules"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["name"] == "keyboard-state"))
        .cloned()
        .unwrap_or_else(|| panic!("no keyboard-state in {text}"));
    (module, log)
}

pub fn keyboard_state(vm: &HyprlandVm) {
    let helper = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hyprland/evdev.py");
    fs::copy(helper, vm.shared("evdev.py")).expect("copy evdev.py");
    fs::write(vm.shared("keyboard.toml"), CONFIG).expect("config");
    let node = evdev(vm, "find");
    assert!(
        node.starts_with("/dev/input/event"),
        "the guest's keyboard with lock LEDs: {node:?}"
    );
    let share = GUEST_SHARE;
    vm.guest(&format!(
        "rm -rf {HOME} && mkdir -p {HOME}/cfg/ringbar {HOME}/hook && chmod 755 {HOME} && \
         cp {share}/keyboard.toml {HOME}/cfg/ringbar/config.toml && \
         XDG_CONFIG_HOME={HOME}/cfg RINGBAR_TEST_HOOK={HOME}/hook RINGBAR_LOG=info \
         setsid -f {share}/ringbar > {share}/keyboard-bar.log 2>&1 < /dev/null"
    ));
    let first = leds(vm, &node);
    wait_shown(vm, &labels_for(first), "the LEDs at start");

    // Caps Lock pressed on the keyboard: Hyprland turns the LED on (or off).
    evdev(vm, &format!("press {node} {KEY_CAPSLOCK}"));
    let caps = first & 2;
    let toggled = wait_leds(vm, &node, |b| b & 2 != caps, "Caps Lock pressed");
    wait_shown(vm, &labels_for(toggled), "Caps Lock pressed");

    // A LED set on the node itself, as a compositor does.
    evdev(vm, &format!("led {node} {LED_SCROLLL} 1"));
    let scroll = wait_leds(vm, &node, |b| b & 4 != 0, "Scroll Lock's LED set");
    wait_shown(vm, &labels_for(scroll), "Scroll Lock's LED set");

    // Pressed again: back as it was.
    evdev(vm, &format!("press {node} {KEY_CAPSLOCK}"));
    let back = wait_leds(vm, &node, |b| b & 2 == caps, "Caps Lock pressed again");
    wait_shown(vm, &labels_for(back), "Caps Lock pressed again");
    vm.guest("pkill -f 'hypr-vm/ringbar$'; true");

    // `--once --json` reads the same LEDs.
    let (module, log) = once(vm, 0);
    let text = labels_for(back)
        .split('|')
        .map(|label| label.split(':').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(module["text"], text, "{module}\n{log}");
    assert_eq!(module["visible"], true, "{module}");

    // A user outside the `input` group: hidden, and told why once.
    let (module, log) = once(vm, 65534);
    assert_eq!(module["visible"], false, "{module}\n{log}");
    let note = "permission denied; the user must be in the `input` group";
    assert_eq!(log.matches(note).count(), 1, "{log}");
}
