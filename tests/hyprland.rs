//! End to end on a real Hyprland 0.57 (`../shared/hyprland/headless-hyprland.sh`: a
//! QEMU VM under TCG, its sockets forwarded here, its display through waypipe): the IPC
//! client, then the ringbar binary as a bar, then the client across a restart of
//! Hyprland, then real Wi-Fi, Bluetooth and keyboard LEDs in the guest. One boot serves all of it (a boot costs minutes), so it is one test,
//! ignored by default; `scripts/dev.sh test` runs it.

mod common;
#[path = "hyprland/host_bar.rs"]
mod host_bar;
#[path = "hyprland/keyboard.rs"]
mod keyboard;
#[path = "hyprland/storms.rs"]
mod storms;
#[path = "hyprland/wireless.rs"]
mod wireless;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ringbar::events::compositor::CompositorState;

use common::hyprland::{self, example, HyprlandVm};
use common::ipc::{
    connect, focused, on_own_context, pump, target, thread_cpu_time, wait_state, workspace, Running,
};
use common::session::Image;
use common::{ocr, require_root, serial, wait_for};

/// Hyprland under TCG takes seconds for what takes milliseconds elsewhere.
const SLOW: Duration = Duration::from_secs(60);
/// The bar's height in the test's config: the rows read by OCR.
const BAR_HEIGHT: usize = 26;

#[test]
#[ignore = "boots Hyprland 0.57 in a QEMU VM (TCG): 5 to 10 minutes; run with --ignored"]
fn real_hyprland_end_to_end() {
    let _serial = serial();
    require_root();
    let Some(vm) = HyprlandVm::boot() else {
        return;
    };
    let started = Instant::now();
    the_client_follows_hyprland(&vm);
    eprintln!("IPC client checks: {:?}", started.elapsed());
    let started = Instant::now();
    the_bar_follows_hyprland(&vm);
    eprintln!("bar checks: {:?}", started.elapsed());
    let started = Instant::now();
    the_layout_and_the_submap(&vm);
    eprintln!("layout and submap checks: {:?}", started.elapsed());
    let started = Instant::now();
    storms::an_event_flood_and_a_hotplug_storm(&vm);
    eprintln!("storm checks: {:?}", started.elapsed());
    let started = Instant::now();
    the_client_survives_a_restart(&vm);
    eprintln!("restart checks: {:?}", started.elapsed());
    if vm.guest_tools {
        vm.install_ringbar();
        let started = Instant::now();
        wireless::wifi(&vm);
        eprintln!("Wi-Fi checks: {:?}", started.elapsed());
        let started = Instant::now();
        wireless::bluetooth(&vm);
        eprintln!("Bluetooth checks: {:?}", started.elapsed());
        let started = Instant::now();
        keyboard::keyboard_state(&vm);
        eprintln!("keyboard-state checks: {:?}", started.elapsed());
    }
}

fn flower(vm: &HyprlandVm) -> Running {
    let child = vm
        .wayland_client("weston-flower")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start weston-flower");
    Running(child)
}

/// The keyboard's layout (the VM's AT keyboard, given two layouts) switched by hyprctl
/// and by the client as the language module's click does, and a submap entered and left.
fn the_layout_and_the_submap(vm: &HyprlandVm) {
    on_own_context(|context| {
        vm.dispatch("function() hl.config({ input = { kb_layout = \"us,de\" } }) end");
        vm.dispatch(
            "function() hl.define_submap(\"resize\", function() \
             hl.bind(\"escape\", hl.dsp.submap(\"reset\")) end) end",
        );
        let (compositor, _) = connect(&vm.client_env());
        let wait = |what: &str, check: &dyn Fn(&CompositorState) -> bool| {
            wait_state(context, &compositor, what, SLOW, check)
        };
        let layout = |s: &CompositorState| s.keyboard.as_ref().map(|k| k.active.clone());
        let state = wait("the first layout", &|s| {
            layout(s).as_deref() == Some("English (US)")
        });
        assert_eq!(state.keyboard.expect("keyboard").layouts, ["us", "de"]);
        assert_eq!(state.mode, None, "no submap at first");
        assert_eq!(vm.request("switchxkblayout all next").trim(), "ok");
        wait("German, from hyprctl", &|s| {
            layout(s).as_deref() == Some("German")
        });
        compositor.next_layout();
        wait("English again, from the client", &|s| {
            layout(s).as_deref() == Some("English (US)")
        });
        vm.dispatch("hl.dsp.submap(\"resize\")");
        wait("the resize submap", &|s| {
            s.mode.as_deref() == Some("resize")
        });
        vm.dispatch("hl.dsp.submap(\"reset\")");
        wait("back to the default", &|s| s.mode.is_none());
    });
}

/// State, switching both ways, a window opened and closed, a special workspace, an
/// output added and removed.
fn the_client_follows_hyprland(vm: &HyprlandVm) {
    on_own_context(|context| {
        // Where a fresh instance starts (the same when the VM was already running).
        vm.dispatch("hl.dsp.focus({ workspace = 1 })");
        let (compositor, _) = connect(&vm.client_env());
        let wait = |what: &str, check: &dyn Fn(&CompositorState) -> bool| {
            wait_state(context, &compositor, what, SLOW, check)
        };
        let state = wait("Hyprland's state", &|s| focused(s) == Some("1"));
        eprintln!("first state: {state:?}");
        let output = state.workspaces[0].output.clone();

        // Switched in Lua, as hyprctl would, seen by the client.
        vm.dispatch("hl.dsp.focus({ workspace = 2 })");
        let state = wait("workspace 2", &|s| focused(s) == Some("2"));
        let two = workspace(&state, "2").expect("2");
        assert!(two.id == 2 && two.visible && !two.special && two.windows == 0);
        assert_eq!(two.output, output);

        // Switched by the client: by number, then a named workspace whose name would
        // break out of a Lua string if it were not escaped.
        compositor.focus_workspace(&target(1, "1"));
        wait("1 from the client", &|s| focused(s) == Some("1"));
        assert_eq!(vm.active_workspace(), "1");
        let odd_name = "we\"ird }) , \\ ]] name";
        compositor.focus_workspace(&target(-1, odd_name));
        wait("the odd name", &|s| focused(s) == Some(odd_name));
        assert_eq!(vm.active_workspace(), odd_name);
        compositor.focus_workspace(&target(1, "1"));
        wait("1 again", &|s| focused(s) == Some("1"));

        // A window through waypipe: its title, class and occupancy; closed, all gone.
        let mut window = flower(vm);
        let state = wait("Flower on 1", &|s| {
            s.window_title.as_deref() == Some("Flower")
                && workspace(s, "1").is_some_and(|w| w.windows == 1)
        });
        eprintln!("flower's class: {:?}", state.window_app_id);
        assert!(state.window_app_id.is_some());
        // Listed on its workspace (from `j/clients`), for `window-rewrite`.
        let state = wait("the flower listed on 1", &|s| {
            workspace(s, "1").is_some_and(|w| w.window_names.len() == 1)
        });
        let listed = &workspace(&state, "1").expect("1").window_names[0];
        assert_eq!(listed.title, "Flower");
        assert_eq!(listed.app_id, state.window_app_id);
        window.stop();
        let state = wait("the window closed", &|s| {
            s.window_title.is_none()
                && workspace(s, "1").is_some_and(|w| w.windows == 0 && w.window_names.is_empty())
        });
        assert_eq!(state.window_app_id, None);

        // A special workspace, opened in Lua: it has the focus, 1 stays shown under it.
        vm.dispatch("hl.dsp.workspace.toggle_special(\"scratch\")");
        let state = wait("the special workspace", &|s| {
            focused(s) == Some("special:scratch")
        });
        let scratch = workspace(&state, "special:scratch")
            .expect("scratch")
            .clone();
        assert!(scratch.special && scratch.visible && scratch.output == output);
        let one = workspace(&state, "1").expect("1");
        assert!(one.visible && !one.focused && !one.special);
        // Closed by the client, as a click on its button would (a toggle).
        compositor.focus_workspace(&scratch);
        wait("the special workspace closed", &|s| {
            focused(s) == Some("1") && workspace(s, "special:scratch").is_none()
        });
        assert_eq!(vm.query("monitors")[0]["specialWorkspace"]["name"], "");

        // An output added: its own workspace, shown there; removed: nothing left on it.
        let reply = vm.request("/output create headless RB-TEST");
        assert_eq!(reply.trim(), "ok", "output create");
        let state = wait("a workspace on the new output", &|s| {
            s.workspaces
                .iter()
                .any(|w| w.output == "RB-TEST" && w.visible && !w.focused)
        });
        eprintln!("with the new output: {state:?}");
        assert_eq!(focused(&state), Some("1"));
        let reply = vm.request("/output remove RB-TEST");
        assert_eq!(reply.trim(), "ok", "output remove");
        let state = wait("the output gone", &|s| {
            !s.workspaces.iter().any(|w| w.output == "RB-TEST")
        });
        assert_eq!(focused(&state), Some("1"));
        assert!(state.workspaces.iter().all(|w| w.output == output));
    });
}

/// The ringbar binary as the bar on Hyprland: workspaces, window, clock, window count and
/// taskbar. Its widgets
/// through the test hook, its pixels by OCR, a click on a workspace button.
fn the_bar_follows_hyprland(vm: &HyprlandVm) {
    vm.dispatch("hl.dsp.focus({ workspace = 1 })");
    let dir = tempfile::tempdir().expect("tempdir");
    let config = format!(
        "height = {BAR_HEIGHT}\nmodules_left = [\"workspaces\", \"window\"]\n\
         modules_center = [\"clock\"]\nmodules_right = [\"windowcount\", \"taskbar\"]\n\
         [windowcount]\nformat = \"{{count}} open\"\nformat-empty = \"\"\n"
    );
    let bar = host_bar::start(vm, dir.path(), &config);
    let field = |key: &str| bar.field(key);
    // On a timeout, what the bar showed and logged.
    let wait = |what: &str, check: &dyn Fn() -> bool| host_bar::wait_until(&bar, SLOW, what, check);
    wait("workspace 1 on the bar", &|| {
        field("workspaces") == "1:focused+visible+empty" && field("mapped") == "true"
    });
    eprintln!("the bar: {:?}", bar.bars());
    // The pointer rests on the bar's empty end: weston-flower (weston 10) crashes when the
    // pointer leaves its window, which a workspace switch does.
    let monitor = &vm.query("monitors")[0];
    let layout = (
        monitor["width"].as_u64().expect("width") as u32,
        monitor["height"].as_u64().expect("height") as u32,
    );
    let mut pointer = hyprland::pointer(vm, layout);
    pointer.move_to(layout.0 - 4, 4);

    vm.dispatch("hl.dsp.focus({ workspace = 2 })");
    wait("workspace 2 on the bar", &|| {
        field("workspaces") == "2:focused+visible+empty" && field("window.visible") == "false"
    });
    let mut window = flower(vm);
    wait("the flower's title and occupancy", &|| {
        field("window") == "Flower"
            && field("window.visible") == "true"
            && field("workspaces") == "2:focused+visible+occupied"
            && field("windowcount") == "1 open"
    });

    // What is on the screen: the workspace's number first, then the title.
    let shot = dir.path().join("shot.png");
    let strip = vm.screenshot_top(&shot, BAR_HEIGHT);
    let text = ocr::read_text(&strip);
    eprintln!("the bar by OCR: {text:?}");
    assert_eq!(text.split_whitespace().next(), Some("2"), "OCR: {text:?}");
    assert!(text.contains("Flower"), "OCR: {text:?}");

    vm.dispatch("hl.dsp.focus({ workspace = 3 })");
    wait("3 focused, 2 occupied, no title, no count", &|| {
        field("workspaces") == "2:occupied|3:focused+visible+empty"
            && field("window.visible") == "false"
            && field("windowcount.visible") == "false"
    });
    // A special workspace gets no button by default; the one under it stays shown.
    vm.dispatch("hl.dsp.workspace.toggle_special(\"scratch\")");
    wait("the special workspace hidden", &|| {
        field("workspaces") == "2:occupied|3:visible+empty"
    });
    vm.dispatch("hl.dsp.workspace.toggle_special(\"scratch\")");
    wait("back on 3", &|| {
        field("workspaces") == "2:occupied|3:focused+visible+empty"
    });

    // A click on the first button (2) switches Hyprland to it. It is where the screenshot
    // showed the focused button's background then.
    let (left, right) = first_block(&strip);
    assert!(
        right < 100,
        "the focused button at {left}..{right} is not the first one"
    );
    pointer.move_to(((left + right) / 2) as u32, BAR_HEIGHT as u32 / 2);
    pointer.click("left");
    wait_for("Hyprland on 2 after the click", SLOW, || {
        vm.active_workspace() == "2"
    });
    wait("the bar follows the click", &|| {
        field("workspaces") == "2:focused+visible+occupied"
            && field("window") == "Flower"
            && field("windowcount") == "1 open"
    });

    // The taskbar, from Hyprland's wlr-foreign-toplevel: the flower's button, active; a
    // middle click on it closes the flower.
    wait("the flower's taskbar button", &|| {
        field("taskbar") == ":active@org.freedesktop.weston.flower"
    });
    let (x, y) = bar.button_center("taskbar", 0);
    pointer.move_to(x, y);
    pointer.click("middle");
    wait_for("the flower closed by the taskbar", SLOW, || {
        matches!(window.0.try_wait(), Ok(Some(_)))
    });
    pointer.move_to(layout.0 - 4, 4);
    wait("no taskbar button", &|| field("taskbar.visible") == "false");
    window.stop();
    wait("the window gone", &|| {
        field("window.visible") == "false" && field("workspaces") == "2:focused+visible+empty"
    });

    // An urgent window: it asks for the focus (xdg-activation, with the serial of a click
    // into it: Hyprland refuses tokens without one) while another workspace is shown.
    vm.dispatch("hl.dsp.focus({ workspace = 5 })");
    let mut urgent = Running(
        vm.wayland_client(example("urgent_window"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the urgent window"),
    );
    wait("the window on 5", &|| {
        field("workspaces") == "5:focused+visible+occupied"
            && field("window") == "Urgent"
            && field("windowcount") == "1 open"
    });
    pointer.move_to(layout.0 / 2, layout.1 / 2);
    pointer.click("left");
    pointer.move_to(layout.0 - 4, 4);
    vm.dispatch("hl.dsp.focus({ workspace = 6 })");
    wait("6 focused", &|| {
        field("workspaces") == "5:occupied|6:focused+visible+empty"
    });
    let signal = Command::new("kill")
        .args(["-USR1", &urgent.0.id().to_string()])
        .status()
        .expect("run kill");
    assert!(signal.success(), "kill -USR1");
    wait("5 urgent", &|| {
        field("workspaces") == "5:urgent+occupied|6:focused+visible+empty"
    });
    // Shown again, it is no longer urgent.
    vm.dispatch("hl.dsp.focus({ workspace = 5 })");
    wait("5 focused, not urgent", &|| {
        field("workspaces") == "5:focused+visible+occupied" && field("window") == "Urgent"
    });
    urgent.stop();

    // A window with a hostile title and app id: markup, an entity, a direction override,
    // a control byte and 3 kB of text (a Wayland message holds 4 kB); a path for an app
    // id. Hyprland's events carry it to the bar, which shows it as text and stays up.
    vm.dispatch("hl.dsp.focus({ workspace = 7 })");
    let title = format!("<b>x</b>&amp;\u{202e}evil\u{7},\n{}", "é".repeat(1500));
    let mut hostile = Running(
        vm.wayland_client(example("windows"))
            .args(["1", &title, "/etc/shadow"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the hostile window"),
    );
    // The control bytes are spaces in a title; the override is gone.
    wait("the hostile title as text", &|| {
        field("window").starts_with("<b>x</b>&amp;evil , éé")
            && field("taskbar") == ":active@application-x-executable"
    });
    assert_eq!(
        field("size"),
        format!("{}x{BAR_HEIGHT}", layout.0),
        "the bar's size"
    );
    hostile.stop();
    wait("the hostile window gone", &|| {
        field("window.visible") == "false"
    });

    let log = bar.log_text();
    eprintln!("the bar's log:\n{log}");
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");
}

/// The columns of the first run whose top row differs from the bar's background at its
/// left end: the focused workspace's button, when it comes first.
fn first_block(strip: &Image) -> (usize, usize) {
    let background = strip.pixel(0, 0);
    let left = (0..strip.width)
        .find(|&x| strip.pixel(x, 0) != background)
        .expect("a button with its own background");
    let right = (left..strip.width)
        .find(|&x| strip.pixel(x, 0) == background)
        .unwrap_or(strip.width);
    (left, right)
}

/// Hyprland killed and started again: the client empties its state, waits without
/// spinning, and finds the new instance by itself.
fn the_client_survives_a_restart(vm: &HyprlandVm) {
    on_own_context(|context| {
        let (compositor, changes) = connect(&vm.client_env());
        vm.dispatch("hl.dsp.focus({ workspace = \"name:before\" })");
        wait_state(context, &compositor, "the first instance", SLOW, |s| {
            focused(s) == Some("before")
        });

        vm.kill_hyprland();
        wait_state(context, &compositor, "an empty state", SLOW, |s| {
            s.workspaces.is_empty()
        });
        let changes_then = changes.get();
        let cpu = thread_cpu_time();
        pump(context, Duration::from_secs(4));
        let used = thread_cpu_time() - cpu;
        eprintln!("CPU time of the test thread in 4 s without Hyprland: {used:?}");
        assert!(
            used < Duration::from_millis(200),
            "busy while disconnected: {used:?}"
        );
        assert_eq!(changes.get(), changes_then, "no state changes while down");

        let restarted = Instant::now();
        vm.start_hyprland();
        let linked = Instant::now();
        eprintln!("new Hyprland's sockets after {:?}", restarted.elapsed());
        let state = wait_state(context, &compositor, "the new instance", SLOW * 2, |s| {
            focused(s) == Some("1")
        });
        eprintln!(
            "reconnected {:?} after the sockets came up",
            linked.elapsed()
        );
        let names: Vec<&str> = state.workspaces.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(names, ["1"], "the new instance's workspaces");

        // Requests reach the new instance too (the dialect is asked again).
        compositor.focus_workspace(&target(4, "4"));
        wait_state(context, &compositor, "4 from the client", SLOW, |s| {
            focused(s) == Some("4")
        });
        assert_eq!(vm.active_workspace(), "4");
    });
}
