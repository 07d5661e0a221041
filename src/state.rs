//! What the user chose with clicks, kept across restarts in
//! `$XDG_STATE_HOME/ringbar/state.toml`.

use std::io::Write;
use std::path::Path;

use serde::Deserialize;

use crate::model::controls::Controls;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    interval_ms: Option<u32>,
    kernel_threads: Option<bool>,
}

/// Applies the saved choices over `defaults`. A missing file is normal; a broken one is
/// logged and ignored (it is rewritten at the next click).
pub fn load(path: &Path, defaults: Controls) -> Controls {
    let read = crate::user_file::read(path, crate::user_file::MAX_STATE_BYTES);
    let text = match read.and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other))
    {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return defaults,
        Err(err) => {
            tracing::warn!("ignoring {}: {err}", path.display());
            return defaults;
        }
    };
    match toml::from_str::<Saved>(&text) {
        Ok(saved) => Controls {
            interval_ms: saved
                .interval_ms
                .filter(|ms| {
                    (crate::config::MIN_INTERVAL_MS..=crate::config::MAX_INTERVAL_MS).contains(ms)
                })
                .unwrap_or(defaults.interval_ms),
            kernel_threads: saved.kernel_threads.unwrap_or(defaults.kernel_threads),
        },
        Err(err) => {
            tracing::warn!("ignoring {}: {}", path.display(), err.message());
            defaults
        }
    }
}

/// Writes the choices atomically (a temporary file renamed over the old one).
pub fn save(path: &Path, controls: Controls) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("toml.tmp");
    let mut file = std::fs::File::create(&tmp)?;
    writeln!(file, "# Written by ringbar when you click the bar.")?;
    writeln!(file, "interval_ms = {}", controls.interval_ms)?;
    writeln!(file, "kernel_threads = {}", controls.kernel_threads)?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULTS: Controls = Controls {
        interval_ms: 2000,
        kernel_threads: false,
    };

    #[test]
    fn round_trips_and_survives_garbage() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("ringbar/state.toml");
        assert_eq!(load(&path, DEFAULTS), DEFAULTS);
        let chosen = Controls {
            interval_ms: 250,
            kernel_threads: true,
        };
        save(&path, chosen).expect("save");
        assert_eq!(load(&path, DEFAULTS), chosen);

        std::fs::write(&path, "interval_ms = \"soon\"").expect("write");
        assert_eq!(load(&path, DEFAULTS), DEFAULTS);
        std::fs::write(&path, "interval_ms = 1\nkernel_threads = true").expect("write");
        assert_eq!(
            load(&path, DEFAULTS),
            Controls {
                interval_ms: 2000,
                kernel_threads: true
            }
        );
        std::fs::write(&path, b"\xff\x00").expect("write");
        assert_eq!(load(&path, DEFAULTS), DEFAULTS);
    }
}
