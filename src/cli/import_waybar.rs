//! `ringbar import-waybar [FILE]`: reads a Waybar config (JSONC: comments and trailing
//! commas; one bar or an array of bars; `include`d files merged) and prints the ringbar
//! config that means the same on stdout. What does not carry over is listed on stderr, one
//! line each with the reason, and kept as a comment in the output; so are the selectors of
//! the `style.css` beside it that will match nothing in ringbar.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value as Json;

use crate::app::paths;
use crate::config::import::{convert, style_notes};
use crate::config::user_file::{read, MAX_CONFIG_BYTES};

/// How deep `include`s may nest (Waybar's own limit is similar): a loop ends here.
const MAX_INCLUDE_DEPTH: usize = 8;

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let Some(path) = file.or_else(default_config) else {
        eprintln!("ringbar: no Waybar config found: give its path (ringbar import-waybar FILE)");
        return ExitCode::FAILURE;
    };
    let config = match load(&path, 0) {
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

/// The config at `path` with its `include`s merged: a key of the including file wins.
fn load(path: &Path, depth: usize) -> Result<Json, String> {
    let bytes = read(path, MAX_CONFIG_BYTES).map_err(|err| format!("{}: {err}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", path.display()))?;
    let options = jsonc_parser::ParseOptions::default();
    let mut config: Json = jsonc_parser::parse_to_serde_value(&text, &options)
        .map_err(|err| format!("{}: {err}", path.display()))?;
    match &mut config {
        Json::Array(bars) => {
            for bar in bars {
                merge_includes(bar, path, depth)?;
            }
        }
        bar => merge_includes(bar, path, depth)?,
    }
    Ok(config)
}

fn merge_includes(bar: &mut Json, path: &Path, depth: usize) -> Result<(), String> {
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
        let included = expand(&include, path);
        let Json::Object(keys) = load(&included, depth + 1)? else {
            continue;
        };
        for (key, value) in keys {
            object.entry(key).or_insert(value);
        }
    }
    Ok(())
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
