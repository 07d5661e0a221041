//! `ringbar check [FILE]`: reads a config as the bar would, without starting one, and
//! names every problem with its file, line and key. Exit 0 when it is fine (or there is
//! none: the bar then runs on its defaults), 1 on problems.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::app::paths;
use crate::config;

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let given = file.is_some();
    let Some(path) = file.or_else(paths::config_file) else {
        eprintln!("ringbar: no config file to check: neither XDG_CONFIG_HOME nor HOME is set");
        return ExitCode::FAILURE;
    };
    match config::check(&path) {
        Ok(Some(_)) => {
            println!("{}: fine", path.display());
            ExitCode::SUCCESS
        }
        Ok(None) if given => {
            eprintln!("ringbar: {}: no such file", path.display());
            ExitCode::FAILURE
        }
        Ok(None) => {
            println!("{}: none; ringbar runs on its defaults", path.display());
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for error in &errors {
                println!("{}", error.problem());
            }
            let count = errors.len();
            eprintln!(
                "ringbar: {count} problem{} in {}",
                if count == 1 { "" } else { "s" },
                path.display()
            );
            ExitCode::FAILURE
        }
    }
}
