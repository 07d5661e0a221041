//! What a module is to the bar: the [`Module`] trait, what changes it ([`Update`]), what
//! it shows besides its text ([`Status`]) and what a click on it asks ([`Action`]).

use std::fmt;
use std::rc::Rc;

use toml::de::ValueDeserializer;

use super::alt_format::AltFormat;
use super::graph::BarGraph;
use super::input::Input;
use super::row::{ButtonRow, LabelRow};
use super::tray::TraySettings;
use crate::events::script::ScriptConfig;
use crate::events::{EventSource, SourceCommand, SourceSettings};
use crate::model::controls::Request;
use crate::render::report;
use crate::text::Sink;

/// A module's config table, if the file has one; spans point into the config text.
pub type Table<'a> = Option<ValueDeserializer<'a>>;

/// An event source the listed modules follow, with the settings the first of them that
/// gives any gives it.
pub type FollowedSource = (EventSource, Option<SourceSettings>);

/// The event sources `modules` follow, each once, in the order they are first named.
pub fn event_sources<'a>(modules: impl Iterator<Item = &'a Rc<dyn Module>>) -> Vec<FollowedSource> {
    let mut sources: Vec<FollowedSource> = Vec::new();
    for module in modules {
        let settings = module.source_settings();
        for update in module.follows() {
            let Update::Event(source) = *update else {
                continue;
            };
            let given = settings.as_ref().filter(|s| s.source() == source);
            match sources.iter_mut().find(|(s, _)| *s == source) {
                Some((_, known @ None)) => *known = given.cloned(),
                Some(_) => {}
                None => sources.push((source, given.cloned())),
            }
        }
    }
    sources
}

/// What the bar draws for a module.
#[derive(Clone, Copy)]
pub enum Widget<'a> {
    /// A label with the module's text.
    Label,
    /// A label fed by a script, cut to its `max-length` (`custom/NAME`).
    Script(&'a ScriptConfig),
    /// A row of buttons (`workspaces`, `taskbar`).
    Buttons(&'a dyn ButtonRow),
    /// A row of labels with classes of their own (`keyboard-state`).
    Labels(&'a dyn LabelRow),
    /// A graph of the monitor's history in place of the text (`cpu_graph`).
    Graph(&'a BarGraph),
    /// The tray's items.
    Tray(&'a TraySettings),
    /// A picture, `size` pixels high and wide at most, from the file the text names
    /// (`image`); the file's name comes from `script` where it has one.
    Image {
        size: i32,
        script: Option<&'a ScriptConfig>,
    },
    /// The label with a picture before it (the `user` module's avatar, gamemode's icon).
    PictureAndLabel(super::picture::Picture<'a>),
}

impl<'a> Widget<'a> {
    /// The script that feeds the widget, if one does (`custom/NAME`, an `image`'s `exec`).
    pub fn script(self) -> Option<&'a ScriptConfig> {
        match self {
            Widget::Script(script) => Some(script),
            Widget::Image { script, .. } => script,
            Widget::Buttons(row) => row.script(),
            _ => None,
        }
    }
}

/// What a module asks of the monitor's sampling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sampling {
    /// Whether the list of processes on the network counts traffic to the machine
    /// itself (the network module's `include_loopback`); `None`: it does not say.
    pub net_include_local: Option<bool>,
    /// Whether it shows the GPUs, though its tooltip is not the monitor's report (where
    /// they always are). Without such a module the GPUs are not read, nor NVML loaded.
    pub gpus: bool,
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
    /// An event source's changes ([`EventSource`]: rtnetlink, the sound server, BlueZ…).
    Event(EventSource),
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
    /// The state `states` names (`good`), a CSS class; shared, so a tick allocates
    /// nothing for it.
    pub state: Option<std::rc::Rc<str>>,
    /// The theme's icon to draw before the label now, for a module whose picture
    /// follows its state (upower's device icon); shared as `state`.
    pub icon: Option<std::sync::Arc<str>>,
}

impl Status {
    /// The CSS classes of the module's state besides its level: the state (`charging`)
    /// and a script's own.
    pub fn state_classes(&self) -> impl Iterator<Item = &str> {
        let scripts = self.classes.iter().map(String::as_str);
        let state = self.state.as_deref();
        self.class.into_iter().chain(state).chain(scripts)
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

/// A pointer button, or a wheel step. A module's `action` names the buttons it acts on
/// and leaves the rest to `_`, so a new button is added here, in the config's keys
/// ([`super::Clicks`]) and in the bar's mapping of GDK's buttons, and in no module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Left,
    Middle,
    Right,
    ScrollUp,
    ScrollDown,
    /// The mouse's back side button (8; Waybar's `backward`).
    Back,
    /// The mouse's forward side button (9).
    Forward,
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
    /// Run this shell command, detached (a picture's own `on-click`).
    Spawn(String),
    /// Pop up this menu (and run the button's command too, if one is set, as Waybar does).
    Menu(std::rc::Rc<super::menu::Menu>),
    /// A command for an event source (the sound server's volume, BlueZ's power…).
    Command(SourceCommand),
    /// Switch the keyboard to its next layout, through the compositor.
    NextLayout,
    /// Show this workspace, through the compositor.
    FocusWorkspace(crate::events::compositor::Workspace),
    /// Show the next workspace of the focused output (`true`) or the previous one.
    StepWorkspace {
        forward: bool,
        /// Sway may warp the pointer to it (Waybar's `warp-on-scroll`).
        warp: bool,
    },
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

    /// What the bar draws for it: a label with its text unless it says otherwise.
    fn widget(&self) -> Widget<'_> {
        Widget::Label
    }

    /// What changes the module: its update source, and the sample tick too for one that
    /// shows rates besides its events (`network`).
    fn follows(&self) -> &[Update] {
        &[Update::Sample]
    }

    /// What its config tells the event source it follows (the MPD server to ask); the
    /// first listed module that says sets them.
    fn source_settings(&self) -> Option<SourceSettings> {
        None
    }

    /// The shell command a click runs (`on-click-right = "nm-connection-editor"`), for
    /// [`Action::Run`].
    fn command(&self, _button: Button) -> Option<&str> {
        None
    }

    /// The shell command a new text of its label runs (`on-update`).
    fn on_update(&self) -> Option<&str> {
        None
    }

    /// Its `format-alt` switch, for a module that has one (`format-alt-click` picks the
    /// button).
    fn alt_format(&self) -> Option<&AltFormat> {
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

    /// What it asks of the monitor's sampling, if anything.
    fn sampling(&self) -> Option<Sampling> {
        None
    }

    /// What a click does; the monitor modules share theirs.
    fn action(&self, button: Button) -> Option<Action> {
        monitor_action(button)
    }
}

/// Whether `module` shows the GPUs: in its own text, or in the report its tooltip is.
pub fn shows_gpus(module: &dyn Module) -> bool {
    module.history_graphs() || module.sampling().is_some_and(|s| s.gpus)
}

/// Whether `module` shows anything of the monitor's samples: it follows them, or its
/// tooltip is the report. A layout with none takes no sample.
pub fn uses_samples(module: &dyn Module) -> bool {
    module.follows().contains(&Update::Sample) || module.history_graphs()
}

/// The monitor modules' clicks: the interval, kernel threads, grouping.
pub fn monitor_action(button: Button) -> Option<Action> {
    match button {
        Button::Left => Some(Action::Monitor(Request::CycleInterval)),
        Button::Middle => Some(Action::Monitor(Request::ToggleKernelThreads)),
        Button::Right => Some(Action::Monitor(Request::ToggleGroupBy)),
        _ => None,
    }
}

impl fmt::Debug for dyn Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "module {}", self.name())
    }
}

/// The modules of a bar, in the config's order, left to right in each part (the
/// members of groups in their place), and how each part arranges them in groups.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub left: Vec<Rc<dyn Module>>,
    pub center: Vec<Rc<dyn Module>>,
    pub right: Vec<Rc<dyn Module>>,
    /// Left, centre and right as entries: a module (its index in its part) or a group.
    /// Empty for a part without groups: its modules side by side.
    pub arranged: [Vec<super::group::Node>; 3],
}

impl Layout {
    pub fn all(&self) -> impl Iterator<Item = &Rc<dyn Module>> {
        self.left.iter().chain(&self.center).chain(&self.right)
    }
}
