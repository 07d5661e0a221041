//! Bar modules as data. A module has a name, its own config table (`[cpu]`), an update
//! source, a text, a tooltip, CSS classes and click actions. The bar, `--once`, `--json`
//! and `--waybar` all render the same modules from the same [`Sample`].
//!
//! Adding a module: its file or folder here, its `mod` line and its line in `REGISTRY`,
//! both below.

mod alt_format;
pub mod audio;
pub mod backlight;
pub mod battery;
pub mod bluetooth;
pub mod clicks;
mod clock;
mod cpu;
pub mod custom;
pub mod disk;
pub mod format;
pub mod gamemode;
mod gpu;
mod graph;
pub mod group;
pub mod idle_inhibitor;
mod image;
pub mod import;
mod input;
pub mod keyboard_state;
pub mod language;
mod listed;
pub mod media;
mod memory;
pub mod menu;
pub mod mode;
mod module;
pub mod mpd;
pub mod network;
mod number_spec;
mod oom;
mod picture;
pub mod power_profile;
pub mod pressure;
pub mod privacy;
pub mod registry;
mod row;
mod scratchpad;
mod states;
pub mod systemd_failed_units;
mod taskbar;
pub mod temperature;
mod thresholds;
mod tray;
pub mod upower;
pub mod user;
mod window;
mod windowcount;
mod workspaces;

pub use clicks::Clicks;
pub use graph::{BarGraph, GraphSettings};
pub use input::{
    utc_offset_seconds, Date, FixedClock, Input, Scripts, WallClock, NO_COMPOSITOR, NO_SCRIPTS,
};
pub use module::{
    event_sources, monitor_action, shows_gpus, uses_samples, Action, Button, Layout, Level, Module,
    Sampling, Status, Table, Update, Widget,
};
pub use picture::Picture;
pub use registry::{
    aliases, is_custom, is_module, make, make_listed, names, readers_of, reads_own, ModuleKind,
};
pub use row::{ButtonRow, IconStyle, LabelRow, RowButton, RowLabel, Target};
pub use tray::TraySettings;

pub use crate::events::{EventSource, Events, SourceCommand, NO_EVENTS};
pub use crate::model::controls::Request;

/// Every module ringbar has, by its kind (see [`registry`]).
const REGISTRY: &[ModuleKind] = &[
    cpu::KIND,
    memory::KIND,
    gpu::KIND,
    pressure::KIND,
    oom::KIND,
    battery::KIND,
    disk::KIND,
    temperature::KIND,
    network::KIND,
    audio::KIND,
    bluetooth::KIND,
    clock::KIND,
    workspaces::KIND,
    window::KIND,
    language::KIND,
    mode::KIND,
    windowcount::KIND,
    scratchpad::KIND,
    taskbar::KIND,
    power_profile::KIND,
    media::KIND,
    idle_inhibitor::KIND,
    backlight::KIND,
    privacy::KIND,
    gamemode::KIND,
    mpd::KIND,
    user::KIND,
    image::KIND,
    upower::KIND,
    systemd_failed_units::KIND,
    keyboard_state::KIND,
    tray::KIND,
    graph::CPU_KIND,
    graph::MEMORY_KIND,
];

#[cfg(test)]
pub(crate) mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::sample::Sample;

    #[cfg(feature = "app")]
    #[test]
    fn report_sections_are_read_while_shown_when_their_module_is_not_listed() {
        use crate::sample::readings::{Reader, Roots};
        let keys = |names: &[&str]| -> Vec<(String, bool)> {
            let modules: Vec<_> = names.iter().map(|name| default_module(name)).collect();
            let readers = readers_of(modules.iter(), &Roots::system());
            let key = |r: &dyn Reader| (r.key().to_owned(), r.only_while_shown());
            readers.iter().map(|r| key(r.as_ref())).collect()
        };
        let pair = |key: &str, while_shown| (key.to_owned(), while_shown);
        assert_eq!(
            keys(&["cpu"]),
            [pair("pressure", true), pair("battery", true)]
        );
        assert_eq!(
            keys(&["pressure", "disk"]),
            [
                pair("pressure", false),
                pair("disk", false),
                pair("battery", true)
            ]
        );
        let instance = make("battery#bat2", None)
            .expect("a module")
            .expect("valid");
        let readers = readers_of([default_module("cpu"), instance].iter(), &Roots::system());
        let keys: Vec<&str> = readers.iter().map(|r| r.key()).collect();
        assert_eq!(
            keys,
            ["battery#bat2", "pressure"],
            "no second battery section"
        );
    }

    /// The module `name` with its defaults.
    pub fn default_module(name: &str) -> Rc<dyn Module> {
        make(name, None)
            .expect("a registered module")
            .expect("defaults are valid")
    }

    /// A clock stopped at 2026-11-23 14:28:14 UTC.
    pub const CLOCK: FixedClock = FixedClock {
        unix_ms: 1_795_444_094_000,
    };

    /// What a module renders `sample` from in a test: the fixed clock, no compositor,
    /// no scripts.
    pub fn input(sample: &Sample) -> Input<'_> {
        Input {
            sample,
            clock: &CLOCK,
            compositor: &NO_COMPOSITOR,
            output: "",
            scripts: &NO_SCRIPTS,
            events: &NO_EVENTS,
        }
    }

    /// The module `name` as the config file makes it from `toml`, its table's lines.
    pub fn configured(name: &str, toml: &str) -> Rc<dyn Module> {
        let text = format!("modules_right = [\"{name}\"]\n[\"{name}\"]\n{toml}");
        let config = crate::config::parse(&text, std::path::Path::new("c.toml")).expect(&text);
        config.modules.right[0].clone()
    }

    /// Asserts that the config refuses each of `bad`, a line of `name`'s table.
    pub fn refused(name: &str, bad: &[&str]) {
        for bad in bad {
            let text = format!("modules_right = [\"{name}\"]\n[\"{name}\"]\n{bad}\n");
            let parsed = crate::config::parse(&text, std::path::Path::new("c.toml"));
            assert!(parsed.is_err(), "{bad}");
        }
    }

    /// The module's text and status with `events`, for an empty sample.
    pub fn text_with(module: &dyn Module, events: &Events) -> (String, Option<Status>) {
        let sample = Sample::default();
        let input = Input {
            events,
            ..input(&sample)
        };
        let mut out = String::new();
        let status = module.text(&input, &mut out);
        (out, status)
    }

    /// The module's text and status for `sample`.
    pub fn text_of(name: &str, sample: &Sample) -> (String, Option<Status>) {
        let mut out = String::new();
        let status = default_module(name).text(&input(sample), &mut out);
        (out, status)
    }

    #[test]
    fn the_sources_to_start_are_those_the_modules_follow_each_once() {
        let modules: Vec<_> = ["cpu", "privacy", "network", "audio", "pulseaudio", "clock"]
            .iter()
            .map(|name| default_module(name))
            .collect();
        let keys = format!("{:?}", event_sources(modules.iter()));
        assert_eq!(keys, "[(Capture, None), (Audio, None), (Network, None)]");
    }

    #[test]
    fn levels() {
        assert_eq!(Level::of(75.0, 70.0, 90.0), Level::Warning);
        assert_eq!(Level::of(90.0, 70.0, 90.0), Level::Critical);
        assert_eq!(Level::of(10.0, 70.0, 90.0).css_class(), None);
    }

    #[test]
    fn monitor_clicks() {
        let cpu = default_module("cpu");
        let monitor = |request| Some(Action::Monitor(request));
        assert_eq!(cpu.action(Button::Left), monitor(Request::CycleInterval));
        assert_eq!(
            cpu.action(Button::Middle),
            monitor(Request::ToggleKernelThreads)
        );
        assert_eq!(cpu.action(Button::Right), monitor(Request::ToggleGroupBy));
        assert_eq!(cpu.action(Button::ScrollUp), None);
        assert!(make("cpux", None).is_none());
        // Every registered name makes its module, once, and the monitor's come first.
        let names: Vec<_> = names().collect();
        assert_eq!(names[..3], ["cpu", "memory", "gpu"]);
        for (at, name) in names.iter().enumerate() {
            assert!(!names[..at].contains(name), "{name} twice");
            assert_eq!(make(name, None).expect(name).expect(name).name(), *name);
        }
        assert!(names.contains(&"workspaces") && names.contains(&"tray"));
    }
}
