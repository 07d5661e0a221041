//! What the user chose with clicks, kept across restarts in
//! `$XDG_STATE_HOME/ringbar/state.toml`.

use std::io::{self, Write};
use std::path::PathBuf;

use serde::Deserialize;

use crate::model::controls::Controls;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    interval_ms: Option<u32>,
    kernel_threads: Option<bool>,
    /// What the config said when the choices were made: a config edited since wins.
    config_interval_ms: Option<u32>,
    config_kernel_threads: Option<bool>,
}

/// The state file, and the config's values the choices in it are weighed against.
#[derive(Clone, Debug)]
pub struct StateFile {
    pub path: PathBuf,
    /// The interval and kernel-thread setting of the config in use.
    pub config: Controls,
}

impl StateFile {
    /// The choices to use. A saved choice counts while the config says what it said when
    /// the choice was made (or the file does not say, as before this was recorded); once
    /// the config is edited, the config wins. A missing file is normal; a broken one is
    /// logged and ignored (it is rewritten at the next click).
    pub fn load(&self) -> Controls {
        let path = &self.path;
        let read = crate::config::user_file::read(path, crate::config::user_file::MAX_STATE_BYTES);
        let text = match read.and_then(|bytes| String::from_utf8(bytes).map_err(io::Error::other)) {
            Ok(text) => text,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return self.config,
            Err(err) => {
                tracing::warn!("ignoring {}: {err}", path.display());
                return self.config;
            }
        };
        let saved = match toml::from_str::<Saved>(&text) {
            Ok(saved) => saved,
            Err(err) => {
                tracing::warn!("ignoring {}: {}", path.display(), err.message());
                return self.config;
            }
        };
        let valid_interval = saved.interval_ms.filter(|ms| {
            (crate::config::MIN_INTERVAL_MS..=crate::config::MAX_INTERVAL_MS).contains(ms)
        });
        Controls {
            interval_ms: choose(
                "interval_ms",
                valid_interval,
                saved.config_interval_ms,
                self.config.interval_ms,
            ),
            kernel_threads: choose(
                "kernel_threads",
                saved.kernel_threads,
                saved.config_kernel_threads,
                self.config.kernel_threads,
            ),
        }
    }

    /// Writes the choices and the config's values atomically (a temporary file renamed
    /// over the old one).
    pub fn save(&self, chosen: Controls) -> io::Result<()> {
        let path = &self.path;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension("toml.tmp");
        let mut file = std::fs::File::create(&tmp)?;
        writeln!(file, "# Written by ringbar when you click the bar.")?;
        writeln!(file, "interval_ms = {}", chosen.interval_ms)?;
        writeln!(file, "kernel_threads = {}", chosen.kernel_threads)?;
        writeln!(
            file,
            "# What config.toml said then: once it says otherwise, it wins."
        )?;
        writeln!(file, "config_interval_ms = {}", self.config.interval_ms)?;
        writeln!(
            file,
            "config_kernel_threads = {}",
            self.config.kernel_threads
        )?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    }
}

/// A saved choice, unless the config changed since it was made; says which it is.
fn choose<T: Copy + PartialEq + std::fmt::Display>(
    name: &str,
    saved: Option<T>,
    saved_config: Option<T>,
    config: T,
) -> T {
    match saved {
        Some(chosen) if saved_config.is_none_or(|c| c == config) => {
            if chosen != config {
                tracing::info!(
                    "{name} = {chosen}, chosen with a click (config.toml says {config})"
                );
            }
            chosen
        }
        Some(chosen) => {
            tracing::info!(
                "{name} = {config} from config.toml, edited since a click chose {chosen}"
            );
            config
        }
        None => config,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULTS: Controls = Controls {
        interval_ms: 2000,
        kernel_threads: false,
    };

    fn state(dir: &std::path::Path, config: Controls) -> StateFile {
        StateFile {
            path: dir.join("ringbar/state.toml"),
            config,
        }
    }

    #[test]
    fn round_trips_and_survives_garbage() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = state(dir.path(), DEFAULTS);
        let path = &file.path;
        assert_eq!(file.load(), DEFAULTS);
        let chosen = Controls {
            interval_ms: 250,
            kernel_threads: true,
        };
        file.save(chosen).expect("save");
        assert_eq!(file.load(), chosen);

        std::fs::write(path, "interval_ms = \"soon\"").expect("write");
        assert_eq!(file.load(), DEFAULTS);
        std::fs::write(path, "interval_ms = 1\nkernel_threads = true").expect("write");
        assert_eq!(
            file.load(),
            Controls {
                interval_ms: 2000,
                kernel_threads: true
            }
        );
        std::fs::write(path, b"\xff\x00").expect("write");
        assert_eq!(file.load(), DEFAULTS);
    }

    #[test]
    fn an_edited_config_wins_over_an_older_click() {
        let dir = tempfile::tempdir().expect("tempdir");
        let clicked = Controls {
            interval_ms: 250,
            kernel_threads: true,
        };
        state(dir.path(), DEFAULTS).save(clicked).expect("save");
        // The config as it was: the click counts.
        assert_eq!(state(dir.path(), DEFAULTS).load(), clicked);
        // The interval edited in the config: it wins; the kernel threads stay clicked.
        let edited = Controls {
            interval_ms: 1000,
            ..DEFAULTS
        };
        assert_eq!(
            state(dir.path(), edited).load(),
            Controls {
                interval_ms: 1000,
                kernel_threads: true
            }
        );
        // A file from before the config's values were recorded keeps its click.
        std::fs::write(
            dir.path().join("ringbar/state.toml"),
            "interval_ms = 500\nkernel_threads = false\n",
        )
        .expect("write");
        assert_eq!(state(dir.path(), edited).load().interval_ms, 500);
    }
}
