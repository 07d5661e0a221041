//! Section 3, second part: ringbar against yambar (C, its own renderer on fcft and
//! pixman, no toolkit), the lightest full bar in Debian, with the modules yambar has:
//! workspaces and the focused window's title (its `i3` module), a clock, the volume
//! (`pulse`), the network, CPU usage, memory and the battery, in the same headless sway,
//! alternating runs as with Waybar.

use std::process::Command;

use crate::fake_sys::{CAPACITY, TIME_LEFT};
use crate::report::Report;
use crate::runs::{comparison, every_run, Bar, Pair, Run};
use crate::whole_bar::{Looks, Setup, HEIGHT, MINIMAL_CONFIG_HOME, ROUNDS, WARM_UP};

/// ringbar with yambar's modules.
fn ringbar_config(interval_ms: u32) -> String {
    format!(
        "interval_ms = {interval_ms}\nmodules_left = [\"workspaces\", \"window\"]\n\
         modules_center = [\"clock\"]\n\
         modules_right = [\"audio\", \"network\", \"cpu\", \"memory\", \"battery\"]\n\
         [audio]\nformat = \"VOL {{volume}}%\"\n"
    )
}

/// yambar's modules with texts like ringbar's: the focused workspace underlined in
/// ringbar's colour, its polled modules at the interval (the battery in whole seconds),
/// the clock at its own pace. yambar 1.9's keys differ from its man pages: the network's
/// and the cpu's `poll-interval` are in ms (the network shows nothing at all when it is
/// below 250), the memory's is `interval`.
fn yambar_config(interval_ms: u32, interface: &str) -> String {
    let s = (interval_ms / 1000).max(1);
    format!(
        r#"bar:
  height: {HEIGHT}
  location: top
  spacing: 6
  font: monospace:size=11
  background: 181a21eb
  foreground: d8dee9ff
  left:
    - i3:
        content:
          "":
            map:
              default: {{string: {{text: "{{name}}", margin: 8}}}}
              conditions:
                state == focused:
                  string:
                    text: "{{name}}"
                    margin: 8
                    deco: {{stack: [{{background: {{color: 88c0d033}}}}, {{underline: {{size: 2, color: 88c0d0ff}}}}]}}
          current: {{string: {{text: "{{title}}", margin: 6}}}}
  center:
    - clock:
        date-format: "%a %d %b"
        time-format: "%H:%M"
        content: {{string: {{text: "{{date}} {{time}}"}}}}
  right:
    - pulse:
        content: {{string: {{text: "VOL {{sink_percent}}%"}}}}
    - network:
        name: {interface}
        poll-interval: {interval_ms}
        content: {{string: {{text: "NET {{name}} {{dl-speed}}↓ {{ul-speed}}↑"}}}}
    - cpu:
        poll-interval: {interval_ms}
        content:
          map:
            conditions:
              id < 0: {{string: {{text: "CPU {{cpu}}%"}}}}
    - mem:
        interval: {interval_ms}
        content: {{string: {{text: "MEM {{used:mb}}M"}}}}
    - battery:
        name: BAT0
        poll-interval: {s}
        content: {{string: {{text: "BAT {{capacity}}% {{estimate}}"}}}}
"#
    )
}

/// What both bars must show here: the window title, the modules, the fake battery.
fn shows_everything(text: &str) -> bool {
    [
        "Flower", "VOL", "NET", "CPU", "MEM", "BAT", CAPACITY, TIME_LEFT,
    ]
    .iter()
    .all(|needle| text.contains(needle))
}

/// The minimal layout: the workspaces and a clock, at the interval.
fn minimal_config(interval_ms: u32) -> String {
    format!(
        "interval_ms = {interval_ms}\nmodules_left = [\"workspaces\"]\n\
         modules_center = [\"clock\"]\nmodules_right = []\n[clock]\nformat = \"TIME %H:%M\"\n"
    )
}

/// The minimal layout shows its clock (the workspaces' underline is checked apart).
const MINIMAL_LOOKS: Looks = Looks {
    name: "minimal",
    shows_everything: |text| text.contains("TIME"),
};

/// The floor shows its label.
const FLOOR_LOOKS: Looks = Looks {
    name: "floor",
    shows_everything: |text| text.contains("FLOOR"),
};

/// The least a GTK4 bar costs, measured in the same rounds: a layer-shell window with
/// one label set at the interval (`examples/label_floor.rs`), and each bar above it.
fn floor(report: &mut Report, runs: &[Run]) {
    let mean = |bar: Bar, interval_ms: u32, value: fn(&Run) -> f64| -> f64 {
        let runs: Vec<&Run> = (runs.iter())
            .filter(|r| r.bar == bar && r.interval_ms == interval_ms)
            .collect();
        runs.iter().map(|r| value(r)).sum::<f64>() / runs.len().max(1) as f64
    };
    let cpu: fn(&Run) -> f64 = |r| r.groups[0];
    let rss: fn(&Run) -> f64 = |r| r.rss_mib;
    let mut rows = Vec::new();
    let mut halves = Vec::new();
    for interval_ms in [1000u32, 2000] {
        let (floor_cpu, floor_rss) = (
            mean(Bar::Floor, interval_ms, cpu),
            mean(Bar::Floor, interval_ms, rss),
        );
        for bar in [Bar::Floor, Bar::Ringbar, Bar::RingbarMinimal, Bar::Yambar] {
            let (cpu, rss) = (mean(bar, interval_ms, cpu), mean(bar, interval_ms, rss));
            let libraries = mean(bar, interval_ms, |r| r.libraries as f64);
            rows.push(vec![
                format!("{interval_ms} ms"),
                bar.name().to_owned(),
                format!("{cpu:.1} ms"),
                format!("{:+.1} ms", cpu - floor_cpu),
                format!("{rss:.1} MiB"),
                format!("{:+.1} MiB", rss - floor_rss),
                format!("{libraries:.0}"),
            ]);
        }
        let half = mean(Bar::Yambar, interval_ms, cpu) / 2.0;
        let side = if half < floor_cpu { "below" } else { "above" };
        halves.push(format!(
            "at {interval_ms} ms {half:.1} ms/min, {side} the floor's {floor_cpu:.1}"
        ));
    }
    report.table(
        &[
            "interval",
            "bar",
            "CPU/min",
            "above the floor",
            "RSS",
            "above the floor",
            "libraries",
        ],
        &rows,
    );
    report.note(&format!(
        "The floor: a GTK4 layer-shell window across the top, {HEIGHT} px, with one label \
         set to the time at the interval, drawn with the cairo renderer as ringbar draws; \
         no config, no CSS, no IPC (`examples/label_floor.rs`), measured in the same \
         rounds; ringbar-minimal is ringbar with the workspaces and a clock only, which \
         open no sound plugin. Libraries: the shared objects mapped at the end of the \
         window. Half of yambar's CPU: {}.",
        halves.join("; ")
    ));
}

/// The interface of the default route, which ringbar's network module shows.
fn default_route_interface() -> Option<String> {
    let out = Command::new("ip")
        .args(["-o", "route", "show", "default"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut words = text.split_whitespace();
    words.find(|w| *w == "dev")?;
    words.next().map(str::to_owned)
}

fn version() -> Option<String> {
    let out = Command::new("yambar").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The comparison, in `setup`'s session; nothing where yambar is not installed.
pub fn compare(setup: &Setup, report: &mut Report) -> Vec<Pair> {
    let seconds = setup.seconds;
    report.heading(&format!(
        "3b. Whole bar in headless sway, yambar's modules: ringbar vs yambar, {seconds} s × \
         {ROUNDS} rounds each"
    ));
    let Some(version) = version() else {
        report.note("yambar is not installed (apt install yambar): no comparison.");
        return Vec::new();
    };
    let Some(interface) = default_route_interface() else {
        report.note("No default route: yambar's network module needs an interface.");
        return Vec::new();
    };
    let session = setup.session;
    let looks = Looks {
        name: "yambar-set",
        shows_everything,
    };
    let mut runs = Vec::new();
    for interval_ms in [1000u32, 2000] {
        session.write_config_file("config.toml", &ringbar_config(interval_ms));
        session.write_home_file(
            ".config/yambar/config.yml",
            &yambar_config(interval_ms, &interface),
        );
        session.write_home_file(
            &format!("{MINIMAL_CONFIG_HOME}/ringbar/config.toml"),
            &minimal_config(interval_ms),
        );
        for round in 1..=ROUNDS {
            for bar in [Bar::Ringbar, Bar::Yambar] {
                runs.push(setup.run(bar, interval_ms, round, &looks));
            }
            runs.push(setup.run(Bar::Floor, interval_ms, round, &FLOOR_LOOKS));
            runs.push(setup.run(Bar::RingbarMinimal, interval_ms, round, &MINIMAL_LOOKS));
        }
    }
    let pairs = comparison(report, &runs, Bar::Yambar);
    floor(report, &runs);
    report.note(&format!(
        "Measured as above, over {seconds} s after a {} s warm-up, the mean of {ROUNDS} \
         rounds. Both bars run workspaces and the focused window's title over sway's IPC, a \
         clock, the default sink's volume (pipewire-pulse), the network of the default \
         route ({interface}) with its rates, CPU usage, memory and the fake battery; each \
         run was checked to show the focused workspace's underline and, by OCR, the title, \
         `VOL`, `NET`, `CPU`, `MEM`, `{CAPACITY}` and `{TIME_LEFT}`. {version}: cpu, \
         memory and the network's rates at the interval, the battery at whole seconds of \
         it, its clock at its own pace; yambar shows the focused window's title only from \
         sway's next event, so every run (each bar's) starts with a switch to workspace 2 \
         and back. ringbar also reads the CPU temperature, which \
         its cpu module always shows where there is a sensor (the fake one); yambar has no \
         temperature module.",
        WARM_UP.as_secs()
    ));
    let goals = pairs
        .iter()
        .map(|p| {
            format!(
                "at {} ms {:.3} ({})",
                p.interval_ms,
                p.cpu_ratio(),
                if p.cpu_ratio() <= 0.5 {
                    "met"
                } else {
                    "missed"
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    report.note(&format!(
        "Goal: CPU at most ½ of yambar's, at 1 s and at 2 s, in the same run: {goals}."
    ));
    let kinds: Vec<_> = setup.hierarchies.iter().map(|(kind, _)| *kind).collect();
    every_run(report, &kinds, &runs);
    pairs
}
