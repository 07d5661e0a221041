//! `ringbar import-waybar [FILE]`: reads a Waybar config (JSONC: comments and trailing
//! commas; one bar or an array of bars; `include`d files merged) and prints the ringbar
//! config that means the same on stdout. What does not carry over is listed on stderr, one
//! line each with the reason, and kept as a comment in the output; so are the selectors of
//! the `style.css` beside it that will match nothing in ringbar.

use std::path::PathBuf;
use std::process::ExitCode;

use super::waybar_loader::Loader;
use crate::app::paths;
use crate::config::import::{convert_noted, style_notes};
use crate::config::user_file::{read, MAX_CONFIG_BYTES};

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let Some(path) = file.or_else(default_config) else {
        eprintln!("ringbar: no Waybar config found: give its path (ringbar import-waybar FILE)");
        return ExitCode::FAILURE;
    };
    let mut loader = Loader::default();
    let config = match loader.load(&path, 0) {
        Ok(config) => config,
        Err(err) => {
            eprintln!("ringbar: {err}");
            return ExitCode::FAILURE;
        }
    };
    let import = convert_noted(&config, loader.notes);
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
