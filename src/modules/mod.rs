//! Bar modules as data. A module has a name, its own config table (`[cpu]`), an update
//! source, a text, a tooltip, CSS classes and click actions. The bar, `--once`, `--json`
//! and `--waybar` all render the same modules from the same [`Sample`].
//!
//! Adding a module: one file in this folder, and one line in [`REGISTRY`].

pub mod audio;
pub mod backlight;
pub mod battery;
pub mod bluetooth;
mod clock;
mod cpu;
pub mod custom;
pub mod disk;
pub mod format;
mod gpu;
mod graph;
pub mod idle_inhibitor;
mod input;
mod instance;
pub mod language;
pub mod media;
mod memory;
pub mod mode;
pub mod network;
mod oom;
pub mod power_profile;
pub mod pressure;
pub mod privacy;
mod thresholds;
mod tray;
mod window;
mod workspaces;

pub use graph::{BarGraph, GraphSettings};
pub use input::{Date, FixedClock, Input, Scripts, WallClock, NO_COMPOSITOR, NO_SCRIPTS};
pub use tray::TraySettings;

use std::fmt;
use std::rc::Rc;

use toml::de::ValueDeserializer;

pub use crate::events::{Command, Events, Source, NO_EVENTS};
pub use crate::model::controls::Request;
use crate::render::report;
use crate::sample::readings::{Reader, Roots, WhileShown};
use crate::text::Sink;

/// A module's config table, if the file has one; spans point into the config text.
pub type Table<'a> = Option<ValueDeserializer<'a>>;

/// Makes a module from its table; the name is the one listed (`disk` or `disk#home`).
type Make = fn(&str, Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error>;

/// Every module ringbar has, by the name the config's module lists use.
const REGISTRY: &[(&str, Make)] = &[
    ("cpu", cpu::make),
    ("memory", memory::make),
    ("gpu", gpu::make),
    ("pressure", pressure::make),
    ("oom", oom::make),
    ("battery", battery::make),
    ("disk", disk::make),
    ("network", network::make),
    ("audio", audio::make),
    ("bluetooth", bluetooth::make),
    ("clock", clock::make),
    ("workspaces", workspaces::make),
    ("window", window::make),
    ("language", language::make),
    ("mode", mode::make),
    ("power_profile", power_profile::make),
    ("media", media::make),
    ("idle_inhibitor", idle_inhibitor::make),
    ("backlight", backlight::make),
    ("privacy", privacy::make),
    ("tray", tray::make),
    ("cpu_graph", graph::make_cpu),
    ("memory_graph", graph::make_memory),
];

/// Waybar's names of modules ringbar has under another: listed so, a module keeps the
/// name (its table, its CSS class), so that a Waybar user's config and style still apply.
const ALIASES: &[(&str, &str)] = &[
    ("pulseaudio", "audio"),
    ("wireplumber", "audio"),
    ("sway/language", "language"),
    ("hyprland/language", "language"),
    ("sway/mode", "mode"),
    ("hyprland/submap", "mode"),
    ("power-profiles-daemon", "power_profile"),
    ("mpris", "media"),
];

/// The names of all modules, for messages.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|(name, _)| *name)
}

/// Waybar's names that ringbar reads as its own modules' (`pulseaudio` → `audio`).
pub fn aliases() -> impl Iterator<Item = (&'static str, &'static str)> {
    ALIASES.iter().copied()
}

/// The kind of a listed name: `battery` for `battery#bat2`, `audio` for `pulseaudio`.
fn kind_of(name: &str) -> &str {
    let kind = instance::split(name).map_or(name, |(kind, _)| kind);
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == kind)
        .map_or(kind, |(_, of)| of)
}

/// Whether `name` is a module, an instance of one (`battery#bat2`), or a Waybar name of
/// one (`pulseaudio`).
pub fn is_module(name: &str) -> bool {
    let kind = kind_of(name);
    names().any(|n| n == kind)
}

/// Whether `name` is a script module, `custom/NAME`.
pub fn is_custom(name: &str) -> bool {
    name.strip_prefix("custom/").is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// Makes the module `name` (or the instance `KIND#ID` of one, or a module by its Waybar
/// name) from its table; `None` for a name no module has.
pub fn make(name: &str, table: Table<'_>) -> Option<Result<Rc<dyn Module>, toml::de::Error>> {
    let kind = kind_of(name);
    let (_, make) = REGISTRY.iter().find(|(n, _)| *n == kind)?;
    let instance = instance::split(name).is_some();
    Some(make(name, table).map(|module| match instance {
        false => module,
        true => instance::Instance::wrap(name, module),
    }))
}

/// The readers of `modules`, one per module name (the first wins); then, for each
/// module whose reading is a section of the monitor's report and that is not listed, its
/// reader, taken only while the report shows.
pub fn readers_of<'a>(
    modules: impl Iterator<Item = &'a Rc<dyn Module>>,
    roots: &Roots,
) -> Vec<Box<dyn Reader>> {
    let mut readers: Vec<Box<dyn Reader>> = Vec::new();
    for module in modules {
        if let Some(reader) = module.reader(roots) {
            if !readers.iter().any(|r| r.key() == reader.key()) {
                readers.push(reader);
            }
        }
    }
    for (kind, make) in REGISTRY {
        let listed = |key: &str| instance::split(key).map_or(key, |(k, _)| k) == *kind;
        if readers.iter().any(|r| listed(r.key())) {
            continue;
        }
        let Ok(module) = make(kind, None) else {
            continue;
        };
        if let (true, Some(reader)) = (module.reading_in_report(), module.reader(roots)) {
            readers.push(Box::new(WhileShown(reader)));
        }
    }
    readers
}

/// What makes a module change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// Every sample of the monitor (the interval the user clicks through).
    Sample,
    /// Its own timer, at the instants [`Module::next_update_ms`] names; never the sample
    /// tick.
    Timer,
    /// The compositor's events (workspaces, the focused window), never polled.
    Compositor,
    /// Its script's output (`custom/NAME`).
    Script,
    /// D-Bus events, drawn by the module's own widgets (the tray's items).
    Bus,
    /// An event source's changes ([`Source`]: rtnetlink, the sound server, BlueZ…).
    Event(Source),
}

/// One workspace button of the `workspaces` module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceButton {
    pub label: String,
    /// `focused`, `visible`, `urgent`, `empty` or `occupied`, `special`.
    pub classes: Vec<&'static str>,
    /// What a click switches to.
    pub workspace: crate::events::compositor::Workspace,
}

/// How alarming a value is; becomes the `.warning` or `.critical` CSS class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    #[default]
    Normal,
    Warning,
    Critical,
}

impl Level {
    pub fn of(percent: f64, warning: f64, critical: f64) -> Level {
        if percent >= critical {
            Level::Critical
        } else if percent >= warning {
            Level::Warning
        } else {
            Level::Normal
        }
    }

    pub fn css_class(self) -> Option<&'static str> {
        match self {
            Level::Normal => None,
            Level::Warning => Some("warning"),
            Level::Critical => Some("critical"),
        }
    }
}

/// A shown module's state besides its text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub level: Level,
    /// The share the module shows, 0–100, where it has one (Waybar's `percentage`).
    pub percentage: Option<f64>,
    /// A CSS class for the module's state besides its level (`charging`, `failed`).
    pub class: Option<&'static str>,
    /// Further classes: a script's own (`custom/NAME`, already checked to be CSS
    /// names), or the privacy module's second and third kinds.
    pub classes: Vec<String>,
    /// The text is Pango markup (checked safe), not plain text.
    pub markup: bool,
}

impl Status {
    /// The CSS classes of the module's state besides its level: the state (`charging`)
    /// and a script's own.
    pub fn state_classes(&self) -> impl Iterator<Item = &str> {
        let scripts = self.classes.iter().map(String::as_str);
        self.class.into_iter().chain(scripts)
    }

    /// Every CSS class the status adds to the module's own (`module`, its name): the
    /// level's (`warning`), then [`Status::state_classes`]. The one mapping every sink uses.
    pub fn css_classes(&self) -> impl Iterator<Item = &str> {
        self.level
            .css_class()
            .into_iter()
            .chain(self.state_classes())
    }

    /// The level of `percent` against the thresholds, with `percent` as the percentage.
    pub fn of(percent: Option<f64>, warning: f64, critical: f64) -> Status {
        Status {
            level: percent.map_or(Level::Normal, |p| Level::of(p, warning, critical)),
            percentage: percent,
            ..Status::default()
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Left,
    Middle,
    Right,
    ScrollUp,
    ScrollDown,
}

/// The command `button` runs among a module's `on-click`, `on-click-middle` and
/// `on-click-right` (for [`Module::command`]); the wheel runs none.
pub fn click_command(button: Button, [left, middle, right]: [&Option<String>; 3]) -> Option<&str> {
    match button {
        Button::Left => left.as_deref(),
        Button::Middle => middle.as_deref(),
        Button::Right => right.as_deref(),
        Button::ScrollUp | Button::ScrollDown => None,
    }
}

/// What a click on a module asks the bar to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A change to the monitor's settings.
    Monitor(Request),
    /// The module changed its own state (the clock's alternative format): draw it again.
    Redraw,
    /// Run the script module's command for this button (`on-click`…).
    Script(Button),
    /// Run the module's own command for this button ([`Module::command`]).
    Run(Button),
    /// A command for an event source (the sound server's volume, BlueZ's power…).
    Command(Command),
    /// Switch the keyboard to its next layout, through the compositor.
    NextLayout,
}

pub trait Module {
    /// The name in the config's module lists.
    fn name(&self) -> &str;

    /// The module's CSS class: its name, unless that is no CSS name (`custom/x`).
    fn css_class(&self) -> &str {
        self.name()
    }

    /// For an instance `KIND#ID`: `ID`, a CSS class besides [`Module::css_class`].
    fn instance_class(&self) -> Option<&str> {
        None
    }

    /// A script module's settings, for the runner that feeds it.
    fn script(&self) -> Option<&crate::events::script::ScriptConfig> {
        None
    }

    /// What changes the module: its update source, and the sample tick too for one that
    /// shows rates besides its events (`network`).
    fn follows(&self) -> &[Update] {
        &[Update::Sample]
    }

    /// The shell command a click runs (`on-click-right = "nm-connection-editor"`), for
    /// [`Action::Run`].
    fn command(&self, _button: Button) -> Option<&str> {
        None
    }

    /// For [`Update::Timer`] modules: milliseconds from `unix_ms` until the text changes.
    fn next_update_ms(&self, _unix_ms: u64) -> Option<u64> {
        None
    }

    /// Writes the module's text into `out` (empty on entry). `None` hides the module.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status>;

    /// Writes the tooltip; the monitor's whole report unless the module has its own.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        report::write(sink, input.sample);
    }

    /// A reading of its own, taken on the sampling thread each tick and found in the
    /// sample's `readings` under its name; none by default.
    fn reader(
        &self,
        _roots: &crate::sample::readings::Roots,
    ) -> Option<Box<dyn crate::sample::readings::Reader>> {
        None
    }

    /// Whether its reading is a section of the monitor's report (pressure, batteries):
    /// the sample then takes it, while a monitor tooltip shows, even when the module is
    /// not listed.
    fn reading_in_report(&self) -> bool {
        false
    }

    /// Whether its tooltip draws the history's graphs under the text: the monitor
    /// modules', whose tooltip is the report.
    fn history_graphs(&self) -> bool {
        self.follows() == [Update::Sample]
    }

    /// For a graph module (`cpu_graph`): what the bar draws in place of its text.
    fn bar_graph(&self) -> Option<&BarGraph> {
        None
    }

    /// Whether the module is a row of workspace buttons instead of one label.
    fn has_workspace_buttons(&self) -> bool {
        false
    }

    /// The tray's settings, for the module whose widgets are tray items.
    fn tray(&self) -> Option<&TraySettings> {
        None
    }

    /// For the network module: whether the monitor's list of processes on the network
    /// counts traffic to the machine itself (`include_loopback`).
    fn net_include_local(&self) -> Option<bool> {
        None
    }

    /// For a module with [`Module::has_workspace_buttons`]: its buttons for `input`.
    fn workspace_buttons(&self, _input: &Input<'_>, _out: &mut Vec<WorkspaceButton>) {}

    /// What a click does; the monitor modules share theirs.
    fn action(&self, button: Button) -> Option<Action> {
        match button {
            Button::Left => Some(Action::Monitor(Request::CycleInterval)),
            Button::Middle => Some(Action::Monitor(Request::ToggleKernelThreads)),
            Button::Right => Some(Action::Monitor(Request::ToggleGroupBy)),
            Button::ScrollUp | Button::ScrollDown => None,
        }
    }
}

impl fmt::Debug for dyn Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "module {}", self.name())
    }
}

/// The modules of a bar, in the config's order, left to right in each part.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub left: Vec<Rc<dyn Module>>,
    pub center: Vec<Rc<dyn Module>>,
    pub right: Vec<Rc<dyn Module>>,
}

impl Layout {
    pub fn all(&self) -> impl Iterator<Item = &Rc<dyn Module>> {
        self.left.iter().chain(&self.center).chain(&self.right)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sample::Sample;

    #[cfg(feature = "app")]
    #[test]
    fn report_sections_are_read_while_shown_when_their_module_is_not_listed() {
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

    /// The module's text and status for `sample`.
    pub fn text_of(name: &str, sample: &Sample) -> (String, Option<Status>) {
        let mut out = String::new();
        let status = default_module(name).text(&input(sample), &mut out);
        (out, status)
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
        assert_eq!(
            names().collect::<Vec<_>>(),
            [
                "cpu",
                "memory",
                "gpu",
                "pressure",
                "oom",
                "battery",
                "disk",
                "network",
                "audio",
                "bluetooth",
                "clock",
                "workspaces",
                "window",
                "language",
                "mode",
                "power_profile",
                "media",
                "idle_inhibitor",
                "backlight",
                "privacy",
                "tray",
                "cpu_graph",
                "memory_graph"
            ]
        );
    }
}
