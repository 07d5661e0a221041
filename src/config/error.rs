//! Why a config file was not used, located to its line.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based line of the problem, when it has one.
    pub line: Option<usize>,
    /// The offending line of the file, trimmed.
    pub source_line: String,
    pub message: String,
}

impl ConfigError {
    /// A TOML or value error, at the place its span points to in `text`.
    pub fn located(path: &Path, text: &str, err: toml::de::Error) -> ConfigError {
        let message = err.message().trim().to_owned();
        match err.span() {
            Some(span) => ConfigError::at(path, text, span, message),
            None => ConfigError::whole_file(path, message),
        }
    }

    /// A problem at `span` of `text`.
    pub fn at(path: &Path, text: &str, span: Range<usize>, message: String) -> ConfigError {
        let (line, source_line) = locate(text, span.start);
        ConfigError {
            path: path.to_owned(),
            line: Some(line),
            source_line,
            message,
        }
    }

    /// A problem with the file as a whole.
    pub fn whole_file(path: &Path, message: String) -> ConfigError {
        ConfigError {
            path: path.to_owned(),
            line: None,
            source_line: String::new(),
            message,
        }
    }
}

/// The 1-based line containing byte `offset`, and that line's text, trimmed and capped.
fn locate(text: &str, offset: usize) -> (usize, String) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let number = text[..line_start].matches('\n').count() + 1;
    let mut source_line: String = text[line_start..line_end].trim().to_owned();
    if source_line.chars().count() > 80 {
        source_line = source_line.chars().take(77).collect::<String>() + "...";
    }
    (number, source_line)
}

impl ConfigError {
    /// `file:line: `line`: what is wrong`, without what the bar does about it.
    pub fn problem(&self) -> String {
        let mut out = self.path.display().to_string();
        if let Some(line) = self.line {
            out.push_str(&format!(":{line}"));
        }
        if !self.source_line.is_empty() {
            out.push_str(&format!(": `{}`", self.source_line));
        }
        out.push_str(": ");
        out.push_str(&self.message);
        out
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (using the defaults)", self.problem())
    }
}

impl std::error::Error for ConfigError {}
