//! `ringbar import-waybar [FILE]`: reads a Waybar config (JSONC: comments and trailing
//! commas; one bar or an array of bars; `include`d files merged) and prints the ringbar
//! config that means the same on stdout. What does not carry over is listed on stderr, one
//! line each with the reason, and kept as a comment in the output; so are the selectors of
//! the `style.css` beside it that will match nothing in ringbar.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value as Json;

use crate::app::paths;
use crate::config::import::{convert, style_notes};
use crate::config::user_file::{read, MAX_CONFIG_BYTES};

/// How deep `include`s may nest (Waybar's own limit is similar): a loop ends here.
const MAX_INCLUDE_DEPTH: usize = 8;
/// How many `include` entries one import follows in all: a chain of files that each
/// include the next many times grows exponentially without a cap.
const MAX_INCLUDES: usize = 256;

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let Some(path) = file.or_else(default_config) else {
        eprintln!("ringbar: no Waybar config found: give its path (ringbar import-waybar FILE)");
        return ExitCode::FAILURE;
    };
    let config = match Loader::default().load(&path, 0) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("ringbar: {err}");
            return ExitCode::FAILURE;
        }
    };
    let import = convert(&config);
    let mut notes = import.notes;
    let style = path.with_file_name("style.css");
    if let Ok(css) = read(&style, MAX_CONFIG_BYTES) {
        let css = String::from_utf8_lossy(&css);
        notes.extend(
            style_notes(&css, &import.modules)
                .into_iter()
                .map(|note| format!("{}: {note}", style.display())),
        );
    }
    for note in &notes {
        eprintln!("ringbar import-waybar: {note}");
    }
    print!("{}", import.toml);
    ExitCode::SUCCESS
}

/// Waybar's own search: `$XDG_CONFIG_HOME/waybar/config` or `config.jsonc`, then the same
/// under each of `$XDG_CONFIG_DIRS` (`/etc/xdg`).
fn default_config() -> Option<PathBuf> {
    let dirs = paths::config_home()
        .into_iter()
        .chain(paths::system_config_dirs());
    dirs.flat_map(|dir| ["config", "config.jsonc"].map(|name| dir.join("waybar").join(name)))
        .find(|path| path.is_file())
}

/// Reads a config and its includes, each file once however often it is included.
#[derive(Default)]
struct Loader {
    /// Each file read, by its canonical path, with its includes merged.
    loaded: HashMap<PathBuf, Json>,
    /// `include` entries followed so far.
    followed: usize,
}

impl Loader {
    /// The config at `path` with its `include`s merged: a key of the including file wins.
    fn load(&mut self, path: &Path, depth: usize) -> Result<Json, String> {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if let Some(config) = self.loaded.get(&canonical) {
            return Ok(config.clone());
        }
        let bytes =
            read(path, MAX_CONFIG_BYTES).map_err(|err| format!("{}: {err}", path.display()))?;
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", path.display()))?;
        let options = jsonc_parser::ParseOptions::default();
        let mut config: Json = jsonc_parser::parse_to_serde_value(&text, &options)
            .map_err(|err| format!("{}: {err}", path.display()))?;
        match &mut config {
            Json::Array(bars) => {
                for bar in bars {
                    self.merge_includes(bar, path, depth)?;
                }
            }
            bar => self.merge_includes(bar, path, depth)?,
        }
        self.loaded.insert(canonical, config.clone());
        Ok(config)
    }

    fn merge_includes(&mut self, bar: &mut Json, path: &Path, depth: usize) -> Result<(), String> {
        let Some(object) = bar.as_object_mut() else {
            return Ok(());
        };
        let includes = match object.remove("include") {
            Some(Json::String(one)) => vec![one],
            Some(Json::Array(many)) => many
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => return Ok(()),
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return Err(format!(
                "{}: includes nest deeper than {MAX_INCLUDE_DEPTH}",
                path.display()
            ));
        }
        for include in includes {
            self.followed += 1;
            if self.followed > MAX_INCLUDES {
                return Err(format!(
                    "{}: more than {MAX_INCLUDES} includes in all",
                    path.display()
                ));
            }
            let included = expand(&include, path);
            let Json::Object(keys) = self.load(&included, depth + 1)? else {
                continue;
            };
            for (key, value) in keys {
                object.entry(key).or_insert(value);
            }
        }
        Ok(())
    }
}

/// `~/x` from the home directory, a relative path from the including file's directory.
fn expand(include: &str, from: &Path) -> PathBuf {
    if let (Some(rest), Some(home)) = (include.strip_prefix("~/"), std::env::var_os("HOME")) {
        return PathBuf::from(home).join(rest);
    }
    let path = PathBuf::from(include);
    match (path.is_absolute(), from.parent()) {
        (false, Some(dir)) => dir.join(path),
        _ => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` files, each including the next `fan_out` times; the last one has a module.
    fn chain(dir: &Path, count: usize, fan_out: usize) -> PathBuf {
        for i in 0..count {
            let body = if i + 1 == count {
                r#"{"clock": {"format": "{:%H:%M}"}}"#.to_owned()
            } else {
                let next = format!("\"{}.jsonc\"", i + 1);
                format!(
                    r#"{{"include": [{}], "layer": "top"}}"#,
                    vec![next; fan_out].join(",")
                )
            };
            std::fs::write(dir.join(format!("{i}.jsonc")), body).expect("write");
        }
        dir.join("0.jsonc")
    }

    #[test]
    fn each_included_file_is_read_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = chain(dir.path(), 8, 8);
        let mut loader = Loader::default();
        let config = loader.load(&first, 0).expect("loads");
        assert_eq!(loader.loaded.len(), 8, "8 files, each read once");
        assert_eq!(config["clock"]["format"], "{:%H:%M}");
        assert_eq!(config["layer"], "top");
    }

    #[test]
    fn the_includes_followed_in_all_are_capped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = chain(dir.path(), 8, 40);
        let err = Loader::default().load(&first, 0).expect_err("too many");
        assert!(err.contains("more than 256 includes in all"), "{err}");
        let loop_file = dir.path().join("loop.jsonc");
        std::fs::write(&loop_file, r#"{"include": "loop.jsonc"}"#).expect("write");
        let err = Loader::default().load(&loop_file, 0).expect_err("a loop");
        assert!(err.contains("nest deeper than 8"), "{err}");
    }
}
