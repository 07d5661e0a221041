//! `image`, as Waybar's single image (`multiple`: a row of them, `row.rs`): a picture file shown on the bar at `size` pixels
//! (its aspect kept), from `path`, or from the first line a script (`exec`) prints, its
//! second line the tooltip. The file is loaded again when it changes (checked at each
//! `interval`, or each time the script runs), off the main loop; one that is not a
//! regular file, or is missing, hides the module. The text `--once --json` gives is the
//! file's path.

mod row;

use std::cell::RefCell;
use std::rc::Rc;

use serde::Deserialize;

use super::import::Waybar;
use super::{Input, Module, ModuleKind, Status, Table, Update, Widget};
use crate::events::script::{realtime_offset, IntervalSetting, ScriptConfig, ScriptState};
use crate::text::{untrusted_lines, Sink};

/// The picture's size when none is set, in pixels.
const DEFAULT_SIZE: i32 = 16;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Settings {
    path: Option<String>,
    exec: Option<String>,
    #[serde(default = "default_size")]
    size: i32,
    interval: Option<IntervalSetting>,
    #[serde(default, deserialize_with = "realtime_offset")]
    signal: Option<u8>,
    #[serde(default = "shown")]
    tooltip: bool,
    /// Waybar's row of pictures, from `entries` or `exec`.
    #[serde(default)]
    multiple: bool,
    entries: Option<Vec<row::Entry>>,
}

fn default_size() -> i32 {
    DEFAULT_SIZE
}

fn shown() -> bool {
    true
}

/// The `image` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "image",
    make,
    waybar: Some(Waybar {
        settings: &[
            "path", "exec", "size", "interval", "signal", "tooltip", "multiple", "entries",
        ],
        ..Waybar::named(&["image"])
    }),
};

struct Image {
    /// `image`, or `image#ID`.
    name: String,
    size: i32,
    /// The file, where `path` is set (neither set: nothing to show).
    path: Option<String>,
    /// When it looks again: its script, where `exec` is set instead of `path`.
    refresh: Refresh,
    tooltip: bool,
}

/// When an image module looks again: each time its script (`exec`) runs, or every
/// `interval` for the files it names itself.
struct Refresh {
    script: Option<ScriptConfig>,
    interval_ms: Option<u64>,
}

impl Refresh {
    fn follows(&self) -> &'static [Update] {
        // A file is looked at when the bar draws it, and again at each interval.
        match &self.script {
            Some(_) => &[Update::Script],
            None => &[Update::Timer],
        }
    }

    fn next_update_ms(&self, unix_ms: u64) -> Option<u64> {
        let interval = self.interval_ms.filter(|_| self.script.is_none())?;
        // The next whole multiple of the interval, as the clock's seconds come.
        Some(interval - unix_ms % interval)
    }
}

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    use serde::de::Error;
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        // Nothing to show: hidden, as an image without a file is.
        None => Settings::deserialize(toml::Value::Table(toml::Table::new()))?,
    };
    if !(1..=1024).contains(&settings.size) {
        return Err(toml::de::Error::custom(format!(
            "size {} is not 1 to 1024 pixels",
            settings.size
        )));
    }
    let interval = settings.interval.and_then(IntervalSetting::duration);
    let interval_ms = interval.map(|i| i.as_millis().try_into().unwrap_or(u64::MAX));
    if settings.multiple {
        return multiple(name, settings, interval_ms);
    }
    if settings.entries.is_some() {
        return Err(Error::custom(
            "`entries` are the pictures of `multiple = true`",
        ));
    }
    let (path, script) = match (settings.path, settings.exec) {
        (Some(path), _) if !path.is_empty() => (Some(path), None),
        (_, Some(exec)) if !exec.is_empty() => {
            let script = ScriptConfig {
                // Without an interval the script runs once, as Waybar runs it; its
                // lines are the path and the tooltip, never markup.
                interval: Some(settings.interval.unwrap_or(IntervalSetting::Once)),
                signal: settings.signal,
                tooltip: Some(settings.tooltip),
                escape: Some(true),
                ..ScriptConfig::new(exec)
            };
            (None, Some(script))
        }
        _ => (None, None),
    };
    Ok(Rc::new(Image {
        name: name.to_owned(),
        size: settings.size,
        path,
        refresh: Refresh {
            script,
            interval_ms,
        },
        tooltip: settings.tooltip,
    }))
}

/// A row of pictures: `entries`, or a script's (run as the single image's is).
fn multiple(
    name: &str,
    settings: Settings,
    interval_ms: Option<u64>,
) -> Result<Rc<dyn Module>, toml::de::Error> {
    use serde::de::Error;
    if settings.path.is_some() {
        return Err(Error::custom(
            "`path` is the single picture's: with `multiple`, list `entries`",
        ));
    }
    let script = match (&settings.entries, settings.exec) {
        (None, Some(exec)) if !exec.is_empty() => Some(ScriptConfig {
            interval: Some(settings.interval.unwrap_or(IntervalSetting::Once)),
            signal: settings.signal,
            tooltip: Some(settings.tooltip),
            escape: Some(true),
            // A JSON array, printed on one line or over many.
            whole_output: true,
            ..ScriptConfig::new(exec)
        }),
        _ => None,
    };
    Ok(Rc::new(row::ImageRow {
        name: name.to_owned(),
        size: settings.size,
        entries: settings.entries.unwrap_or_default().into(),
        refresh: Refresh {
            script,
            interval_ms,
        },
        tooltip: settings.tooltip,
        printed: RefCell::new((String::new(), Rc::from([]))),
    }))
}

/// Whether `path` names a regular file: a missing file, a folder or a FIFO hides the
/// module (and a FIFO is never opened).
fn is_file(path: &str) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| meta.is_file())
}

impl Module for Image {
    fn name(&self) -> &str {
        &self.name
    }

    fn css_class(&self) -> &str {
        "image"
    }

    fn follows(&self) -> &[Update] {
        self.refresh.follows()
    }

    fn next_update_ms(&self, unix_ms: u64) -> Option<u64> {
        self.refresh.next_update_ms(unix_ms)
    }

    fn widget(&self) -> Widget<'_> {
        Widget::Image {
            size: self.size,
            script: self.refresh.script.as_ref(),
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let path = match (&self.path, &self.refresh.script) {
            (Some(path), _) => path.as_str(),
            (None, Some(_)) => match input.scripts.get(&self.name)? {
                ScriptState::Output(output) => output.text.trim(),
                _ => return None,
            },
            (None, None) => return None,
        };
        if path.is_empty() || !is_file(path) {
            return None;
        }
        out.push_str(path);
        Some(Status::default())
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if !self.tooltip || self.refresh.script.is_none() {
            return;
        }
        if let Some(ScriptState::Output(output)) = input.scripts.get(&self.name) {
            if let Some(tooltip) = &output.tooltip {
                untrusted_lines(sink, tooltip);
            }
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests;
