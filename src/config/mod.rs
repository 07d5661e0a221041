//! The user's configuration: `$XDG_CONFIG_HOME/ringbar/config.toml`.
//!
//! The bar's own keys sit at the top level; each module reads its settings from a table
//! of its name (`[cpu]`). A broken file never stops the bar: [`load`] returns the defaults
//! together with one precise message (file, line, the offending line, what is wrong) for
//! the bar to show.

mod bars;
#[cfg(test)]
#[path = "bars_tests.rs"]
mod bars_tests;
mod clicks;
mod error;
mod group_table;
pub mod import;
pub mod label_shape;
mod lists;
#[cfg(test)]
mod lists_tests;
mod parse;
mod parse_state;
mod rotate;
#[cfg(test)]
mod tests;
pub mod user_file;

use std::path::Path;

use serde::de;
use serde::Deserialize;

use crate::model::app::GroupBy;

use toml::Spanned;

pub use bars::{BarSpec, OutputMatch};
pub use error::ConfigError;
pub use parse::parse_all;
pub use rotate::Rotate;

use crate::modules::Layout;

/// Where the bar sits on its monitor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Position {
    #[default]
    Top,
    Bottom,
    Left,
    Right,
}

/// The layer-shell layer of the bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Background,
    Bottom,
    #[default]
    Top,
    Overlay,
}

/// A temperature sensor named by its hwmon driver name and, optionally, its label.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SensorName {
    pub hwmon: String,
    pub label: Option<String>,
}

/// Overrides for sensor discovery; by default everything is found automatically.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Sensors {
    /// `{ hwmon = "k10temp", label = "Tccd1" }`.
    pub cpu_temperature: Option<SensorName>,
    /// The GPU on the label: a card (`card1`) or PCI address (`0000:03:00.0`).
    pub gpu: Option<String>,
    /// No listed module shows a GPU: none is looked for or read, and NVML is not loaded.
    /// Not a key: the layout decides.
    #[serde(skip)]
    pub skip_gpus: bool,
}

pub const MIN_INTERVAL_MS: u32 = 50;
pub const MAX_INTERVAL_MS: u32 = 60_000;

/// The most modules `modules_left`, `modules_center` or `modules_right` may list: far
/// more than fit on a screen, and a bound on the work a hostile config can cause.
pub const MAX_MODULES_PER_GROUP: usize = 64;

/// Modules on the bar when the config names none: left, centre, right.
const DEFAULT_LEFT: [&str; 2] = ["workspaces", "window"];
const DEFAULT_CENTER: [&str; 1] = ["clock"];
/// `audio` and `network` hide where the machine has no sound server or rtnetlink.
const DEFAULT_RIGHT: [&str; 8] = [
    "audio", "network", "cpu", "memory", "gpu", "pressure", "oom", "battery",
];

#[derive(Clone, Debug)]
pub struct Config {
    /// The bars: the top level's on every output, or one per `[[bar]]` table.
    pub bars: Vec<BarSpec>,
    /// Every bar's modules, each once (a module two bars list is one module): what the
    /// event sources and readers serve, and what `--once` and `--json` show.
    pub modules: Layout,
    /// The sample interval at first start; clicks change it and the choice is remembered.
    pub interval_ms: u32,
    /// Whether kernel threads are counted at first start; middle click toggles it.
    pub kernel_threads: bool,
    /// `group_by`: rank apps or processes; `None` (unset): apps when the session has app
    /// scopes. Right click on a monitor module toggles it.
    pub group_by: Option<GroupBy>,
    /// `[network] include_loopback`: the network list counts traffic to the machine
    /// itself (loopback, its own address).
    pub net_include_local: bool,
    pub sensors: Sensors,
    /// Whether a listed module shows anything of the monitor's samples: the bar takes
    /// none while none does (a clock and workspaces).
    pub takes_samples: bool,
    /// `compositor`: the backend the workspace modules speak to ("sway", "hyprland",
    /// "niri"); `None`: the first the environment names.
    pub compositor: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        parse("", Path::new("")).unwrap_or_else(|err| unreachable!("bad defaults: {err}"))
    }
}

/// The bar-wide keys as written; module tables are taken out before these are read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    output: Option<bars::Outputs>,
    position: Position,
    layer: Layer,
    #[serde(deserialize_with = "height")]
    height: u32,
    #[serde(deserialize_with = "bars::size")]
    width: u32,
    margin_top: u32,
    margin_bottom: u32,
    margin_left: u32,
    margin_right: u32,
    spacing: u32,
    rotate: Rotate,
    modules_left: Vec<Spanned<String>>,
    modules_center: Vec<Spanned<String>>,
    modules_right: Vec<Spanned<String>>,
    #[serde(deserialize_with = "interval")]
    interval_ms: u32,
    kernel_threads: bool,
    group_by: Option<GroupBy>,
    sensors: Sensors,
    compositor: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            output: None,
            position: Position::Top,
            layer: Layer::Top,
            height: 26,
            width: 48,
            margin_top: 0,
            margin_bottom: 0,
            margin_left: 0,
            margin_right: 0,
            spacing: 14,
            rotate: Rotate::None,
            modules_left: spanned(&DEFAULT_LEFT),
            modules_center: spanned(&DEFAULT_CENTER),
            modules_right: spanned(&DEFAULT_RIGHT),
            interval_ms: 2000,
            kernel_threads: false,
            group_by: None,
            sensors: Sensors::default(),
            compositor: None,
        }
    }
}

fn spanned(names: &[&str]) -> Vec<Spanned<String>> {
    names
        .iter()
        .map(|name| Spanned::new(0..0, (*name).to_owned()))
        .collect()
}

/// Keys of earlier versions, and what to write instead.
const REPLACED: [(&str, &str); 2] = [
    (
        "labels",
        "`labels` is now `modules_left` (same names, same order); `modules_center` and \
         `modules_right` place modules in the middle and on the right",
    ),
    (
        "thresholds",
        "`[thresholds]` is gone: each module's table holds its own, e.g. `[cpu]` with \
         `warning = 70.0` and `critical = 90.0`; likewise `[memory]`, `[gpu]` and `[pressure]`",
    ),
];

fn height<'de, D: de::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let value = u32::deserialize(d)?;
    if (1..=500).contains(&value) {
        Ok(value)
    } else {
        Err(de::Error::custom(format!(
            "height {value} is not between 1 and 500 pixels"
        )))
    }
}

fn interval<'de, D: de::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let value = u32::deserialize(d)?;
    if (MIN_INTERVAL_MS..=MAX_INTERVAL_MS).contains(&value) {
        Ok(value)
    } else {
        Err(de::Error::custom(format!(
            "interval_ms {value} is not between {MIN_INTERVAL_MS} and {MAX_INTERVAL_MS}"
        )))
    }
}

/// Parses config text; `path` is only used in messages. The first problem, if any (see
/// [`parse_all`] for every one).
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    parse_all(text, path).map_err(|mut errors| errors.swap_remove(0))
}

/// Reads the config file (a regular file of at most 1 MiB). A missing file is not an error; anything else that is wrong
/// yields the defaults and the reason.
pub fn load(path: &Path) -> (Config, Option<ConfigError>) {
    match check(path) {
        Ok(config) => (config.unwrap_or_default(), None),
        Err(mut errors) => (Config::default(), Some(errors.swap_remove(0))),
    }
}

/// Reads and parses the config file with every problem found (`ringbar check`); `None`
/// when there is no file.
pub fn check(path: &Path) -> Result<Option<Config>, Vec<ConfigError>> {
    let bytes =
        match crate::config::user_file::read(path, crate::config::user_file::MAX_CONFIG_BYTES) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => {
                return Err(vec![ConfigError::whole_file(
                    path,
                    format!("cannot read: {err}"),
                )]);
            }
        };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let valid = err.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(err.as_bytes());
            let mut error = ConfigError::whole_file(path, "not UTF-8 text".to_owned());
            error.line = Some(lossy[..valid.min(lossy.len())].matches('\n').count() + 1);
            return Err(vec![error]);
        }
    };
    parse_all(&text, path).map(Some)
}
