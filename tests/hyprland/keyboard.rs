//! `keyboard-state` on the Hyprland VM's real keyboard (the guest's AT keyboard, whose
//! evdev node has the three lock LEDs; this machine has no input device at all). The
//! bar runs in the guest on Hyprland with the test hook, and follows:
//! - Caps Lock pressed on the keyboard: Hyprland turns its LED on, the bar's label
//!   gets `locked`, and off again;
//! - a LED set straight on the node, as any compositor sets them;
//! - a flood of 600 LED changes, drawn at most once a frame;
//! - 200 keys typed, which wake the bar no more than idling does (it asks the kernel for
//!   LED events only);
//! - a second keyboard plugged in (uinput), a lock on on it, then unplugged;
//!
//! then `--once --json` agrees with the kernel's LEDs, and a user outside the `input`
//! group gets the module hidden and one note that says why.

use std::fs;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use crate::common::hyprland::{HyprlandVm, GUEST_SHARE};

const KEY_CAPSLOCK: u32 = 58;
const LED_SCROLLL: u32 = 2;
/// The log of the bar with the test hook, in the shared folder.
const BAR_LOG: &str = "keyboard-bar.log";
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
            vm.guest_file(BAR_LOG)
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

/// The bar in the guest, on Hyprland, with `env` (`NAME=VALUE`) besides its config,
/// logging to the shared folder's `log`.
fn start_bar(vm: &HyprlandVm, env: &str, log: &str) {
    let share = GUEST_SHARE;
    vm.guest(&format!(
        "XDG_CONFIG_HOME={HOME}/cfg RINGBAR_LOG=info {env} \
         setsid -f {share}/ringbar > {share}/{log} 2>&1 < /dev/null"
    ));
}

fn stop_bar(vm: &HyprlandVm) {
    vm.guest(
        "pkill -f 'hypr-vm/ringbar$'; \
         for i in $(seq 50); do pgrep -f 'hypr-vm/ringbar$' || break; sleep 0.1; done",
    );
}

/// The main thread's voluntary context switches so far: each time it slept and woke.
fn wakeups(vm: &HyprlandVm) -> u64 {
    let out = vm.guest(
        "awk '/^voluntary_ctxt_switches/ {print $2}' \
         /proc/$(pgrep -f 'hypr-vm/ringbar$' | head -1)/status",
    );
    out.trim()
        .parse()
        .unwrap_or_else(|_| panic!("the bar's wake-ups: {out:?}"))
}

/// 200 keys typed on the keyboard the bar reads, 5 ms apart: the kernel passes the bar
/// none of them (only LED events), so its main thread wakes no more than while idle for
/// as long. (A bar without the test hook, whose timer wakes it 60 times a second.)
fn keys_wake_nothing(vm: &HyprlandVm, node: &str) {
    const KEY_A: u32 = 30;
    start_bar(vm, "", "keyboard-quiet.log");
    wait_log(vm, "keyboard-quiet.log", "bar on output");
    wait_log(
        vm,
        "keyboard-quiet.log",
        &format!("keyboard-state: reading {node}"),
    );
    std::thread::sleep(Duration::from_secs(2));
    let before = wakeups(vm);
    let typing = Instant::now();
    evdev(vm, &format!("type {node} {KEY_A} 200"));
    let typing_time = typing.elapsed();
    let typed = wakeups(vm);
    std::thread::sleep(typing_time);
    let idle = wakeups(vm);
    stop_bar(vm);
    let (typing_wakeups, idle_wakeups) = (typed - before, idle - typed);
    eprintln!(
        "the bar's main thread woke {typing_wakeups} times in {typing_time:?} of 400 key \
         events, {idle_wakeups} times idle as long"
    );
    assert!(
        typing_wakeups < idle_wakeups + 40,
        "keys wake the bar: {typing_wakeups} wake-ups while typing, {idle_wakeups} idle"
    );
}

/// How often the bar in the guest has drawn keyboard-state (the hook's `renders`).
fn renders(vm: &HyprlandVm) -> u64 {
    let text = vm.guest(&format!("cat {HOME}/hook/renders 2>/dev/null"));
    text.lines()
        .find_map(|line| line.strip_prefix("Event(KeyboardLeds) "))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or(0)
}

/// Scroll Lock's LED set on and off 300 times, a millisecond apart: the bar follows the
/// flood as it comes (more than its first and last drawing), at most once a frame, and
/// ends with the LED off.
fn a_flood_of_leds(vm: &HyprlandVm, node: &str) {
    let before = renders(vm);
    let started = Instant::now();
    evdev(vm, &format!("blink {node} {LED_SCROLLL} 300"));
    let off = wait_leds(
        vm,
        node,
        |b| b & 4 == 0,
        "Scroll Lock's LED off after the flood",
    );
    wait_shown(vm, &labels_for(off), "the flood's last LED");
    let (gap, took) = (ringbar::app::pacing::GAP, started.elapsed());
    let redraws = renders(vm) - before;
    let most = took.as_millis() as u64 / gap.as_millis() as u64 + 3;
    eprintln!("600 LED changes in {took:?}: {redraws} redraws (at most {most})");
    assert!(
        redraws >= 5,
        "the flood was followed as it came: {redraws} redraws"
    );
    assert!(
        redraws <= most,
        "{redraws} redraws for 600 LED changes in {took:?}"
    );
}

/// A second keyboard plugged in (uinput, as a USB keyboard appears) is read too: a lock
/// on on it shows; unplugged, the bar shows the first keyboard's again.
fn a_keyboard_plugged_in_counts(vm: &HyprlandVm, first: &str) {
    let share = GUEST_SHARE;
    if leds(vm, first) & 1 != 0 {
        evdev(vm, &format!("led {first} 0 0"));
        wait_leds(vm, first, |b| b & 1 == 0, "Num Lock's LED cleared");
    }
    let until = format!("{HOME}/unplug");
    vm.guest(&format!(
        "modprobe uinput; setsid -f python3 {share}/evdev.py plug 'ringbar test <b>kbd</b>' \
         {until} > {share}/plug.log 2>&1 < /dev/null"
    ));
    let deadline = Instant::now() + Duration::from_secs(60);
    let plugged = loop {
        let node = vm
            .guest(&format!("cat {until}.node 2>/dev/null"))
            .trim()
            .to_owned();
        if !node.is_empty() {
            break node;
        }
        assert!(
            Instant::now() < deadline,
            "no uinput keyboard: {}",
            vm.guest_file("plug.log")
        );
        std::thread::sleep(Duration::from_millis(300));
    };
    let read = format!("keyboard-state: reading {plugged}");
    wait_log(vm, BAR_LOG, &read);
    evdev(vm, &format!("led {plugged} 0 1"));
    wait_leds(
        vm,
        &plugged,
        |b| b & 1 != 0,
        "Num Lock on on the second keyboard",
    );
    let both = leds(vm, first) | leds(vm, &plugged);
    assert!(both & 1 != 0);
    wait_shown(vm, &labels_for(both), "a lock on on the second keyboard");
    vm.guest(&format!("touch {until}"));
    wait_log(vm, BAR_LOG, &format!("keyboard-state: {plugged} is gone"));
    wait_shown(
        vm,
        &labels_for(leds(vm, first)),
        "the second keyboard unplugged",
    );
}

fn wait_log(vm: &HyprlandVm, name: &str, line: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let log = fs::read_to_string(vm.shared(name)).unwrap_or_default();
        if log.contains(line) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no {line:?} in the bar's log:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
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
         cp {share}/keyboard.toml {HOME}/cfg/ringbar/config.toml"
    ));
    start_bar(vm, &format!("RINGBAR_TEST_HOOK={HOME}/hook"), BAR_LOG);
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

    a_flood_of_leds(vm, &node);
    a_keyboard_plugged_in_counts(vm, &node);
    stop_bar(vm);
    keys_wake_nothing(vm, &node);

    // `--once --json` reads the same LEDs.
    let (module, log) = once(vm, 0);
    let text = labels_for(leds(vm, &node))
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
