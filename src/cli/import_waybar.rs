//! `ringbar import-waybar [FILE] [-o PATH [--force]]`: reads a Waybar config (JSONC:
//! comments and trailing commas; one bar or an array of bars; `include`d files merged)
//! and prints the ringbar config that means the same on stdout, or writes it to PATH.
//! What does not carry over is listed on stderr, one line each with the reason, and kept
//! as a comment in the output; so is what of the `style.css` beside it will not apply.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::waybar_loader::Loader;
use crate::app::paths;
use crate::config::import::{convert_noted, convert_style};
use crate::config::user_file::{read, MAX_CONFIG_BYTES};

/// What the command line asked for.
#[derive(Debug, PartialEq, Eq)]
pub struct Args {
    /// The Waybar config; Waybar's own search finds it when `None`.
    pub file: Option<PathBuf>,
    /// A file, or a directory (existing, or written with a trailing `/`) for
    /// `config.toml` and `style.css`; stdout when `None`.
    pub output: Option<PathBuf>,
    /// Replace files that exist.
    pub force: bool,
}

impl Args {
    /// The words after `import-waybar`.
    pub fn parse(parser: &mut lexopt::Parser) -> Result<Args, lexopt::Error> {
        use lexopt::prelude::*;
        let mut args = Args {
            file: None,
            output: None,
            force: false,
        };
        while let Some(arg) = parser.next()? {
            match arg {
                Short('o') | Long("output") if args.output.is_none() => {
                    args.output = Some(PathBuf::from(parser.value()?));
                }
                Long("force") => args.force = true,
                Value(file) if args.file.is_none() => args.file = Some(PathBuf::from(file)),
                _ => return Err(arg.unexpected()),
            }
        }
        if args.force && args.output.is_none() {
            return Err("--force goes with -o".into());
        }
        Ok(args)
    }
}

pub fn run(args: Args) -> ExitCode {
    let Some(path) = args.file.or_else(default_config) else {
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
    let style_path = path.with_file_name("style.css");
    let style = read(&style_path, MAX_CONFIG_BYTES).ok().map(|css| {
        let (css, style_notes) = convert_style(&String::from_utf8_lossy(&css), &import.modules);
        let at = style_path.display();
        notes.extend(style_notes.into_iter().map(|note| format!("{at}: {note}")));
        css
    });
    for note in &notes {
        eprintln!("ringbar import-waybar: {note}");
    }
    let Some(output) = args.output else {
        print!("{}", import.toml);
        return ExitCode::SUCCESS;
    };
    let mut files = Vec::new();
    match output.is_dir() || output.as_os_str().to_string_lossy().ends_with('/') {
        true => {
            files.push((output.join("config.toml"), import.toml));
            if let Some(css) = style {
                files.push((output.join("style.css"), css));
            }
        }
        false => files.push((output, import.toml)),
    }
    match write_all(&files, args.force) {
        Ok(()) => {
            for (file, _) in &files {
                eprintln!("ringbar import-waybar: wrote {}", file.display());
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("ringbar import-waybar: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Writes each file whole or not at all: a temporary file beside it, linked in where
/// nothing may be replaced (so a file made meanwhile is kept too) or renamed over.
/// Nothing is written when a file exists and `force` is not given.
fn write_all(files: &[(PathBuf, String)], force: bool) -> Result<(), String> {
    if !force {
        if let Some((existing, _)) = files.iter().find(|(file, _)| file.exists()) {
            return Err(format!(
                "{} exists; nothing written (--force replaces it)",
                existing.display()
            ));
        }
    }
    for (file, text) in files {
        write_one(file, text, force).map_err(|err| format!("{}: {err}", file.display()))?;
    }
    Ok(())
}

fn write_one(file: &Path, text: &str, force: bool) -> std::io::Result<()> {
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    // As any file the user makes: 0666 less the umask (a temporary file is 0600).
    let mut temporary = tempfile::Builder::new()
        .prefix(".ringbar-import")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)?;
    temporary.write_all(text.as_bytes())?;
    temporary.as_file().sync_all()?;
    let written = match force {
        true => temporary.persist(file),
        false => temporary.persist_noclobber(file),
    };
    written.map(|_| ()).map_err(|err| err.error)
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
