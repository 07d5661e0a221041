//! Section 3: the whole bar against Waybar, the same modules on both sides, in one headless
//! sway with a real client window and a real sound server: workspaces, binding mode,
//! window title, clock, volume, network, cpu, memory, CPU temperature, battery, idle
//! inhibitor and backlight (none here: hidden in both), temperature and battery on a
//! fake sysfs (see `fake_sys`) that both bars see. (The keyboard layout is left out:
//! Debian's Waybar 0.9.17 fails on a virtual keyboard's keymap with
//! `basic_string::_M_create`.) Each run is a fresh bar in its own cgroups; runs alternate
//! (ringbar, Waybar, ringbar, Waybar) at each interval so drift on this shared machine
//! hits both.

use std::fs;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cgroup::{self, CpuGroup, Kind};
use crate::common::ocr;
use crate::common::session::{Compositor, Image, Session, WIDTH};
use crate::common::wait_for;
use crate::fake_sys::{self, CAPACITY, CELSIUS, TIME_LEFT};
use crate::report::Report;
use crate::runs::{comparison, every_run, Bar, Pair, Run};
use crate::usage::{mapped_libraries, memory_mib, syscalls, Counters};
use crate::yambar;

pub const HEIGHT: u32 = 26;
pub const WARM_UP: Duration = Duration::from_secs(5);
pub const ROUNDS: usize = 2;
const WAIT: Duration = Duration::from_secs(20);
/// Where, in the session's home, [`Bar::RingbarMinimal`]'s config folder is
/// (`ringbar/config.toml` in it).
pub const MINIMAL_CONFIG_HOME: &str = ".config-minimal";
/// How long the bar's system calls are counted, after its CPU window.
const SYSCALL_SECONDS: u64 = 10;

/// Section 3's comparisons: with Waybar (every module), and with yambar (the modules it
/// has).
pub struct Bars {
    pub waybar: Vec<Pair>,
    pub yambar: Vec<Pair>,
}

fn ringbar_config(interval_ms: u32) -> String {
    format!(
        "interval_ms = {interval_ms}\nmodules_left = [\"workspaces\", \"mode\", \"window\"]\n\
         modules_center = [\"clock\"]\n\
         modules_right = [\"audio\", \"network\", \"cpu\", \"memory\", \"battery\", \
         \"idle_inhibitor\", \"backlight\"]\n\
         [audio]\nformat = \"VOL {{volume}}%\"\n"
    )
}

/// Waybar's modules with texts like ringbar's; whole seconds, the clock at its own default
/// interval (a minute), as ringbar's clock.
fn waybar_config(interval_ms: u32) -> String {
    let s = interval_ms / 1000;
    format!(
        r#"{{"layer": "top", "position": "top", "height": {HEIGHT},
  "modules-left": ["sway/workspaces", "sway/mode", "sway/window"],
  "modules-center": ["clock"],
  "modules-right": ["pulseaudio", "network", "cpu", "memory", "temperature", "battery",
                    "idle_inhibitor", "backlight"],
  "idle_inhibitor": {{"format": "{{icon}}", "format-icons": {{"activated": "AWAKE", "deactivated": "idle"}}}},
  "clock": {{"format": "{{:%a %d %b %H:%M}}"}},
  "pulseaudio": {{"format": "VOL {{volume}}%"}},
  "network": {{"interval": {s}, "format": "NET {{ifname}} {{bandwidthDownBytes}}↓ {{bandwidthUpBytes}}↑"}},
  "cpu": {{"interval": {s}, "format": "CPU {{usage}}%"}},
  "memory": {{"interval": {s}, "format": "MEM {{used:0.1f}}G/{{total:0.1f}}G"}},
  "temperature": {{"interval": {s}, "thermal-zone": 0, "format": "{{temperatureC}}°C"}},
  "battery": {{"interval": {s}, "format": "BAT {{capacity}}% {{time}}", "format-time": "{{H}}:{{M:02}}"}}}}"#
    )
}

/// ringbar's default look (font, colours, button padding), so both draw alike.
const WAYBAR_STYLE: &str = "* { font-family: monospace; font-size: 11pt; border: none; \
     border-radius: 0; min-height: 0; }\n\
     window#waybar { background-color: rgba(24, 26, 33, 0.92); color: #d8dee9; }\n\
     #workspaces button { padding: 0 8px; color: #d8dee9; background: none; }\n\
     #workspaces button.focused { background-color: rgba(136, 192, 208, 0.20); \
     box-shadow: inset 0 -2px #88c0d0; }\n\
     #pulseaudio, #network, #cpu, #memory, #temperature, #battery, #window, \
     #idle_inhibitor { padding: 0 6px; }\n";

/// Everything both bars must show: the window title from sway's IPC, the sampled modules,
/// and the fake battery and temperature. Without all of it the comparison is void.
fn shows_everything(text: &str) -> bool {
    [
        "Flower", "VOL", "NET", "CPU", "MEM", "BAT", CAPACITY, TIME_LEFT, "idle",
    ]
    .iter()
    .all(|needle| ocr_contains(text, needle))
        && [format!("{CELSIUS}°C"), format!("{CELSIUS}°")]
            .iter()
            .any(|t| text.contains(t.as_str()))
}

/// Whether OCR's `text` holds `needle`, or `needle` with one stray glyph inside it: where
/// two labels touch (`17:11VOL`) tesseract may read one more (`V0OL`).
fn ocr_contains(text: &str, needle: &str) -> bool {
    if text.contains(needle) {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    let wanted: Vec<char> = needle.chars().collect();
    chars.windows(wanted.len() + 1).any(|window| {
        (1..window.len() - 1).any(|skip| {
            let mut rest = window.to_vec();
            rest.remove(skip);
            rest == wanted
        })
    })
}

/// Pixels of the focused workspace button's underline (`#88c0d0`, both styles): the
/// workspaces module shows, its focus from sway.
fn focused_underline(shot: &Image) -> usize {
    let (w, h) = (shot.width, shot.height);
    (0..w.min(200))
        .flat_map(|x| (h.saturating_sub(4)..h).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let [r, g, b] = shot.pixel(x, y);
            r.abs_diff(0x88) < 6 && g.abs_diff(0xc0) < 6 && b.abs_diff(0xd0) < 6
        })
        .count()
}

/// `target/bench/`, where the screenshots of the first round go.
fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../bench");
    fs::create_dir_all(&dir).expect("mkdir target/bench");
    dir
}

/// The session's sway's pid, from its socket's name `sway-ipc.UID.PID.sock`.
fn sway_pid(session: &Session) -> u32 {
    let socket = session.swaysock();
    socket
        .rsplit('/')
        .next()
        .and_then(|name| name.strip_suffix(".sock")?.rsplit('.').next()?.parse().ok())
        .expect("sway-ipc.UID.PID.sock")
}

/// A bar process, killed and reaped when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub struct Setup<'a> {
    pub session: &'a Session,
    fixture: PathBuf,
    pub hierarchies: Vec<(Kind, PathBuf)>,
    sway: u32,
    pub seconds: u64,
}

/// What the runs of one comparison are called, and what each bar must show in them.
pub struct Looks {
    pub name: &'static str,
    pub shows_everything: fn(&str) -> bool,
}

impl Setup<'_> {
    fn command(&self, bar: Bar, interval_ms: u32) -> Command {
        let swaysock = self.session.swaysock();
        match bar {
            Bar::Ringbar => {
                let binary = self.session.installed_bar();
                self.session
                    .as_user_with(binary, &[("SWAYSOCK", swaysock.as_str())])
            }
            Bar::RingbarMinimal => {
                let binary = self.session.installed_bar();
                let config = self.session.home().join(MINIMAL_CONFIG_HOME);
                let env = [
                    ("SWAYSOCK", swaysock.as_str()),
                    ("XDG_CONFIG_HOME", config.to_str().expect("a UTF-8 path")),
                ];
                self.session.as_user_with(binary, &env)
            }
            Bar::Waybar => {
                let env = [
                    ("SWAYSOCK", swaysock.as_str()),
                    ("GDK_BACKEND", "wayland"),
                    ("NO_AT_BRIDGE", "1"),
                ];
                let home = self.session.home();
                let mut command = self.session.as_user_with("waybar", &env);
                command
                    .arg("-c")
                    .arg(home.join(".config/waybar/config.jsonc"))
                    .arg("-s")
                    .arg(home.join(".config/waybar/style.css"));
                command
            }
            Bar::Floor => {
                let helper = std::env::current_exe()
                    .ok()
                    .and_then(|exe| Some(exe.parent()?.parent()?.join("examples/label_floor")))
                    .expect("the target folder");
                let copy = self.session.path().join("label_floor");
                fs::copy(&helper, &copy).expect("examples/label_floor, built by `cargo test`");
                let mut command = self.session.as_user_with(&copy, &[]);
                command.arg(HEIGHT.to_string()).arg(interval_ms.to_string());
                command
            }
            Bar::Yambar => {
                let config = self.session.home().join(".config/yambar/config.yml");
                // A UTF-8 locale, as a desktop has: in C, yambar drops a text with an arrow.
                let env = [("SWAYSOCK", swaysock.as_str()), ("LANG", "C.UTF-8")];
                let mut command = self.session.as_user_with("yambar", &env);
                command.arg("-c").arg(config);
                command
            }
        }
    }

    pub fn run(&self, bar: Bar, interval_ms: u32, round: usize, looks: &Looks) -> Run {
        let session = self.session;
        // A fresh bar reads its interval from the config, not from a remembered choice.
        let _ = fs::remove_file(session.home().join(".local/state/ringbar/state.toml"));
        let tag = format!(
            "{}-{}-{interval_ms}-{round}",
            looks.name,
            bar.name().to_lowercase()
        );
        let groups: Vec<CpuGroup> = self
            .hierarchies
            .iter()
            .map(|h| CpuGroup::create(h, &tag))
            .collect();
        let procs: Vec<PathBuf> = groups.iter().map(CpuGroup::procs).collect();
        let log_path = session.path().join(format!("{tag}.log"));
        let log = fs::File::create(&log_path).expect("log");
        let mut child = Running(
            fake_sys::wrap(&self.command(bar, interval_ms), &self.fixture, &procs)
                .stdout(log.try_clone().expect("dup"))
                .stderr(log)
                .spawn()
                .expect("start the bar"),
        );
        let pid = child.0.id();
        let log_text = || fs::read_to_string(&log_path).unwrap_or_default();
        let started = Instant::now();
        while session.workspace_y() != i64::from(HEIGHT) {
            let exited = child.0.try_wait().expect("try_wait");
            assert!(
                exited.is_none() && started.elapsed() < WAIT,
                "{} did not reserve its {HEIGHT} px ({exited:?}):\n{}",
                bar.name(),
                log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // yambar learns the focused window's title from sway's events only: one for every
        // bar, outside the measured window.
        session.swaymsg(&["workspace", "2"]);
        session.swaymsg(&["workspace", "1"]);
        if let Err(why) = fake_sys::seen_by(pid) {
            panic!("{} does not see the fake sysfs: {why}", bar.name());
        }
        assert_eq!(groups[0].pids(), [pid], "the bar alone in its cgroup");

        std::thread::sleep(WARM_UP);
        let before = Counters::read(pid, &groups, self.sway);
        let from = Instant::now();
        std::thread::sleep(Duration::from_secs(self.seconds));
        let used = Counters::read(pid, &groups, self.sway).since(&before);
        let window = from.elapsed().as_secs_f64();
        let minutes = window / 60.0;
        let (rss_mib, pss_mib) = memory_mib(pid);
        let libraries = mapped_libraries(pid);
        let ticks_in = |seconds: f64| seconds * 1000.0 / f64::from(interval_ms);
        let syscalls_per_tick = syscalls(pid, SYSCALL_SECONDS)
            .map(|calls| calls as f64 / ticks_in(SYSCALL_SECONDS as f64));

        // After the window, so reading the screen costs the bar nothing measured.
        let mut text = String::new();
        let checked = Instant::now();
        loop {
            let shot = session.screenshot(0, 0, WIDTH, HEIGHT);
            // The floor draws no workspaces.
            let underline = match bar {
                Bar::Floor => 1,
                _ => focused_underline(&shot),
            };
            if (looks.shows_everything)(&text) && underline > 0 {
                break;
            }
            assert!(
                checked.elapsed() < WAIT,
                "{} does not show all its modules; OCR read `{text}`, {underline} pixels of \
                 the focused workspace's underline; its log:\n{}",
                bar.name(),
                log_text()
            );
            text = ocr::read_text(&shot);
        }
        println!("  {tag}: the bar reads `{text}`");
        if round == 1 {
            let png = shots_dir().join(format!("whole-bar-{tag}.png"));
            session.screenshot_png(&format!("0,0 {WIDTH}x{HEIGHT}"), &png);
        }
        drop(child);
        wait_for("the bar's space freed", WAIT, || session.workspace_y() == 0);
        let per_minute = |ms: f64| ms / minutes;
        Run {
            bar,
            interval_ms,
            round,
            groups: used.groups.iter().map(|&ms| per_minute(ms)).collect(),
            ticks: per_minute(used.ticks),
            live_threads: per_minute(used.live_threads),
            compositor: per_minute(used.compositor),
            wakeups_per_tick: used.wakeups as f64 / ticks_in(window),
            syscalls_per_tick,
            rss_mib,
            pss_mib,
            libraries,
        }
    }
}

pub fn whole_bar(report: &mut Report) -> Bars {
    let seconds: u64 = std::env::var("RINGBAR_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    report.heading(&format!(
        "3. Whole bar in headless sway, the same modules: ringbar vs Waybar, {seconds} s × \
         {ROUNDS} rounds each"
    ));
    let waybar_version = Command::new("waybar")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let Some(waybar_version) = waybar_version else {
        report.note("Waybar is not installed (apt install waybar): no comparison.");
        return Bars {
            waybar: Vec::new(),
            yambar: Vec::new(),
        };
    };
    let hierarchies = cgroup::hierarchies();
    assert!(!hierarchies.is_empty(), "neither cgroup v2 nor v1 cpuacct");

    let session = Session::start(Compositor::Sway);
    // PipeWire with pipewire-pulse, which both volume modules speak to.
    let _bus = crate::common::bus::start_session_bus(&session);
    let _sound = crate::common::sound::Sound::start(&session);
    let fixture = session.path().join("fake-sys");
    fake_sys::build(&fixture);
    let _flower = Running(
        session
            .as_user("weston-flower")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start weston-flower"),
    );
    wait_for("the flower's window", WAIT, || {
        session
            .swaymsg(&["-t", "get_tree"])
            .contains("\"name\": \"Flower\"")
    });
    session.write_home_file(".config/waybar/style.css", WAYBAR_STYLE);
    let setup = Setup {
        session: &session,
        fixture,
        sway: sway_pid(&session),
        hierarchies,
        seconds,
    };
    let looks = Looks {
        name: "all",
        shows_everything,
    };
    let mut runs = Vec::new();
    for interval_ms in [1000u32, 2000] {
        session.write_config_file("config.toml", &ringbar_config(interval_ms));
        session.write_home_file(".config/waybar/config.jsonc", &waybar_config(interval_ms));
        for round in 1..=ROUNDS {
            for bar in [Bar::Ringbar, Bar::Waybar] {
                runs.push(setup.run(bar, interval_ms, round, &looks));
            }
        }
    }
    let pairs = comparison(report, &runs, Bar::Waybar);
    report.note(&format!(
        "CPU is {} of the bar's own cgroup per minute of wall time, over {seconds} s after \
         a {} s warm-up, the mean of {ROUNDS} rounds; every thread the bar ever ran counts, \
         exited ones too. RSS is VmRSS at the end of the window. Both bars run the same \
         modules on the same screen: workspaces and the focused window's title over sway's \
         IPC (`SWAYSOCK`, with weston-flower open), a clock, the volume of PipeWire's \
         default sink (over pipewire-pulse, a null sink), the network (the interface of the \
         default route, its rates at the interval), CPU usage, memory, the CPU \
         temperature and a battery, the last two from the same fake sysfs mounted over \
         /sys/class in each bar's mount namespace (one battery discharging at 12 W from \
         30 of 60 Wh, a coretemp and thermal zone at 54 °C); each run was checked to show \
         the focused workspace (its underline) and, by OCR, the window title, `VOL`, `NET`, \
         `{CAPACITY}`, `{TIME_LEFT}`, `{CELSIUS}°C` and the idle inhibitor's `idle`; the \
         binding mode (default: hidden) and the backlight (none: hidden) run in both too. \
         Waybar: {waybar_version} (GTK 3), \
         its network, cpu, memory, temperature and battery at the interval, its clock at its \
         default; ringbar: a {build} build, temperature in its cpu module. Headless sway \
         1.7, pixman renderer.",
        setup.hierarchies[0].0.describe(),
        WARM_UP.as_secs(),
        build = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    ));
    let verdict = |met: bool| if met { "met" } else { "missed" };
    let goals = pairs
        .iter()
        .map(|p| {
            format!(
                "at {} ms CPU ratio {:.3} ({}), RSS {:.1} vs {:.1} MiB ({})",
                p.interval_ms,
                p.cpu_ratio(),
                verdict(p.cpu_ratio() <= 1.0 / 3.0),
                p.ringbar.1,
                p.other.1,
                verdict(p.rss_ratio() < 1.0)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    report.note(&format!(
        "Goals (issue 13, issue 16): CPU at most ⅓ of Waybar's and RSS below Waybar's, at \
         1 s and at 2 s, in the same run: {goals}."
    ));
    let kinds: Vec<Kind> = setup.hierarchies.iter().map(|(kind, _)| *kind).collect();
    every_run(report, &kinds, &runs);
    let yambar = yambar::compare(&setup, report);
    Bars {
        waybar: pairs,
        yambar,
    }
}

#[test]
fn ocr_may_read_one_stray_glyph_inside_a_word() {
    assert!(ocr_contains("17:11V0OL 100%", "VOL"));
    assert!(ocr_contains("NET eth0", "NET"));
    assert!(
        !ocr_contains("V0L 100%", "VOL"),
        "a changed glyph is not a stray one"
    );
    assert!(!ocr_contains("XVOL", "VOLT"));
    assert!(!ocr_contains("VO L", "VOLT"));
}
