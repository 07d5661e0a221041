//! Storms on the real Hyprland, with the bar running here:
//! - a flood: thousands of workspace switches in one Lua dispatch, over 10,000 lines on
//!   Hyprland's event socket (counted by a reader of its own). The bar ends on the last
//!   workspace, its main loop on time, with far fewer redraws than events;
//! - a hotplug storm: headless outputs created and removed in random order (a few at a
//!   time), sent without waiting for the bar. Then one bar per output and none for a gone one, the
//!   bar alive, and its memory and file descriptors back within 10 % with the same
//!   outputs.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::host_bar;
use crate::common::hyprland::HyprlandVm;
use crate::common::session::RunningBar;
use crate::common::stalls::Window;
use crate::common::storm::{Dice, Footprint};

const SLOW: Duration = Duration::from_secs(60);
/// Workspace switches in the flood: each makes a workspace, leaves one to be destroyed,
/// and moves the focus, several events each.
const SWITCHES: usize = 2_500;
const FLOOD_EVENTS: u64 = 10_000;
/// Outputs plugged in the storm, and at most this many of them at once: Hyprland draws
/// each output with llvmpipe in an emulated guest, and with more than a few it no
/// longer answers its socket in time.
const PLUGS: usize = 10;
const MOST_AT_ONCE: usize = 2;
const CONFIG: &str = "interval_ms = 500\nmodules_left = [\"workspaces\", \"window\"]\n\
                      modules_right = [\"cpu\", \"clock\"]\n";

/// Counts the lines on Hyprland's event socket from its start on, on a thread of its own.
struct EventCounter {
    lines: Arc<AtomicU64>,
    /// The socket was closed by the other end (Hyprland drops a reader that falls 64
    /// events behind; here the reader is socat in the emulated guest, which a busy host
    /// can starve).
    closed: Arc<AtomicBool>,
    stream: UnixStream,
}

impl EventCounter {
    fn start(vm: &HyprlandVm) -> EventCounter {
        let path = Path::new(vm.var("XDG_RUNTIME_DIR"))
            .join("hypr")
            .join(vm.var("HYPRLAND_INSTANCE_SIGNATURE"))
            .join(".socket2.sock");
        let stream = UnixStream::connect(&path)
            .unwrap_or_else(|e| panic!("connect {}: {e}", path.display()));
        let reader = BufReader::new(stream.try_clone().expect("dup"));
        let lines = Arc::new(AtomicU64::new(0));
        let closed = Arc::new(AtomicBool::new(false));
        let (counted, ended) = (lines.clone(), closed.clone());
        std::thread::spawn(move || {
            for line in reader.split(b'\n') {
                if line.is_err() {
                    break;
                }
                counted.fetch_add(1, Ordering::Relaxed);
            }
            ended.store(true, Ordering::Relaxed);
        });
        EventCounter {
            lines,
            closed,
            stream,
        }
    }

    fn closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    fn lines(&self) -> u64 {
        self.lines.load(Ordering::Relaxed)
    }

    /// The count once no line came for a second.
    fn settled(&self) -> u64 {
        let mut last = self.lines();
        loop {
            std::thread::sleep(Duration::from_secs(1));
            let now = self.lines();
            if now == last {
                return now;
            }
            last = now;
        }
    }
}

impl Drop for EventCounter {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

pub fn an_event_flood_and_a_hotplug_storm(vm: &HyprlandVm) {
    vm.dispatch("hl.dsp.focus({ workspace = 1 })");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut bar = host_bar::start(vm, dir.path(), CONFIG);
    host_bar::wait_until(&bar, SLOW, "workspace 1 on the bar", &|| {
        bar.field("workspaces") == "1:focused+visible+empty" && bar.field("mapped") == "true"
    });
    flood(vm, &bar);
    hotplug_storm(vm, &bar);
    assert!(bar.try_wait().is_none(), "the bar runs: {}", bar.log_text());
    let log = bar.log_text();
    assert!(
        !log.contains("Gtk-CRITICAL") && !log.contains("Gtk-WARNING") && !log.contains("panicked"),
        "{log}"
    );
    vm.dispatch("hl.dsp.focus({ workspace = 1 })");
}

/// How many times Hyprland's logs (the first instance's and a restarted one's) say it
/// dropped an event reader that fell behind.
fn readers_dropped(vm: &HyprlandVm) -> usize {
    ["hyprland.log", "hyprland-restarted.log"]
        .iter()
        .map(|name| std::fs::read_to_string(vm.shared(name)).unwrap_or_default())
        .map(|log| log.matches("overflowed event queue").count())
        .sum()
}

fn flood(vm: &HyprlandVm, bar: &RunningBar) {
    let dropped_before = readers_dropped(vm);
    let counter = EventCounter::start(vm);
    let renders_before = bar.renders("Compositor");
    let window = Window::open(bar.hook_dir());
    let started = Instant::now();
    vm.dispatch(&format!(
        "function() for i = 1, {SWITCHES} do \
         hl.dispatch(hl.dsp.focus({{ workspace = \"name:flood-\" .. i % 2 }})) end end"
    ));
    vm.dispatch("hl.dsp.focus({ workspace = \"name:flood-end\" })");
    host_bar::wait_until(bar, SLOW, "the flood's last workspace", &|| {
        bar.field("workspaces") == "flood-end:focused+visible+empty"
    });
    let mut events = counter.settled();
    let renders = bar.renders("Compositor") - renders_before;
    eprintln!(
        "{SWITCHES} switches: {events} events, {renders} renders of the compositor's \
         modules, the bar up to date after {:?}",
        started.elapsed()
    );
    let dropped = readers_dropped(vm) - dropped_before;
    if counter.closed() && dropped > 0 {
        // The flood outran a reader: Hyprland dropped it with 64 events queued, so the
        // count is short. Every switch is at least a `workspace` and a `workspacev2` line.
        eprintln!("Hyprland dropped {dropped} event readers in the flood, the counter's with them");
        events = events.max(2 * SWITCHES as u64);
    } else {
        assert!(
            events >= FLOOD_EVENTS,
            "only {events} events (the counter's socket closed: {}): the flood is too small \
             to show anything",
            counter.closed()
        );
    }
    assert!(
        renders * 10 < events,
        "{renders} renders for {events} events"
    );
    window.assert_on_time("the flood");
}

/// The outputs Hyprland has, by name.
fn monitors(vm: &HyprlandVm) -> BTreeSet<String> {
    let json = vm.query("monitors");
    json.as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["name"].as_str().map(str::to_owned))
        .collect()
}

/// The outputs the bar has a bar on.
fn shown(bar: &RunningBar) -> BTreeSet<String> {
    bar.bars().iter().map(|b| b["output"].clone()).collect()
}

/// `output create NAME` or `output remove NAME`, until Hyprland has the output or not.
/// An empty reply is a connection closed before an answer, outside ringbar (see
/// [`HyprlandVm::dispatch`]): the request may or may not have been carried out, so
/// Hyprland's outputs say whether to send it again.
fn output(vm: &HyprlandVm, verb: &str, name: &str) {
    let request = format!("/output {verb} {name}");
    for _ in 0..3 {
        let reply = vm.request(&request);
        if reply.trim() == "ok" {
            return;
        }
        assert!(reply.trim().is_empty(), "{request}: {reply:?}");
        if monitors(vm).contains(name) == verb.starts_with("create") {
            return;
        }
        eprintln!("{request}: an empty reply; sent again");
        std::thread::sleep(Duration::from_millis(500));
    }
    panic!("{request}: no answer in three tries");
}

fn hotplug_storm(vm: &HyprlandVm, bar: &RunningBar) {
    let first = monitors(vm);
    let one_each = |outputs: &BTreeSet<String>| {
        host_bar::wait_until(bar, SLOW, &format!("bars on {outputs:?}"), &|| {
            bar.bars().len() == outputs.len() && shown(bar) == *outputs
        });
    };
    one_each(&first);
    // Warm up with outputs that come and go, then measure with the first ones alone.
    for name in ["RB-WARM-0", "RB-WARM-1"] {
        output(vm, "create headless", name);
    }
    one_each(&monitors(vm));
    for name in ["RB-WARM-0", "RB-WARM-1"] {
        output(vm, "remove", name);
    }
    one_each(&first);
    // Windows go half a second after their output, and the heap is trimmed a second later.
    std::thread::sleep(Duration::from_secs(3));
    let before = Footprint::of(bar.pid());

    let seed = u64::from(std::process::id()) | 1;
    eprintln!("storm seed {seed}");
    let mut dice = Dice(seed);
    let mut alive: Vec<String> = Vec::new();
    let (mut plugged, mut unplugged) = (0, 0);
    let started = Instant::now();
    while plugged < PLUGS {
        if alive.is_empty() || (alive.len() < MOST_AT_ONCE && dice.roll(2) == 0) {
            let name = format!("RB-STORM-{plugged}");
            output(vm, "create headless", &name);
            alive.push(name);
            plugged += 1;
        } else {
            let gone = alive.swap_remove(dice.roll(alive.len()));
            output(vm, "remove", &gone);
            unplugged += 1;
        }
    }
    eprintln!(
        "{plugged} outputs plugged and {unplugged} unplugged in {:?}",
        started.elapsed()
    );
    let remaining = monitors(vm);
    assert_eq!(remaining.len(), first.len() + alive.len(), "{remaining:?}");
    one_each(&remaining);

    for name in &alive {
        output(vm, "remove", name);
    }
    one_each(&first);
    // Windows go half a second after their output, and the heap is trimmed a second later.
    std::thread::sleep(Duration::from_secs(3));
    let after = Footprint::of(bar.pid());
    eprintln!("before {before:?}, after {after:?}");
    // The memory as a whole, the windows' buffers in it: GDK 4.8 unmaps a buffer only
    // once the compositor has released it, and Hyprland (through waypipe) leaves a few
    // of the gone outputs' windows unreleased, which Sway's storm does not (there each
    // buffer is counted).
    after.assert_whole_back_to(&before);
    host_bar::wait_until(bar, SLOW, "numbers still drawn", &|| {
        bar.field("cpu").ends_with('%')
    });
}
