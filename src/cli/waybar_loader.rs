//! Reading a Waybar config as Waybar reads it: JSONC (comments, trailing commas), the
//! first JSON value of the file (text after it ignored), and `include`d files merged in,
//! their paths expanded as wordexp(3) expands them (`~`, `$HOME`, `${VAR}`, wildcards).
//! What the reading skipped becomes a note, never a failure, except for the top file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use crate::config::user_file::{read, MAX_CONFIG_BYTES};

/// How deep `include`s may nest (Waybar's own limit is similar): a loop ends here.
const MAX_INCLUDE_DEPTH: usize = 8;
/// How many `include` entries one import follows in all: a chain of files that each
/// include the next many times grows exponentially without a cap.
const MAX_INCLUDES: usize = 256;

/// Reads an environment variable: the process's, or a test's.
type Env = fn(&str) -> Option<String>;

fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Reads a config and its includes, each file once however often it is included.
pub struct Loader {
    /// Each file read, by its canonical path, with its includes merged.
    loaded: HashMap<PathBuf, Json>,
    /// `include` entries followed so far.
    followed: usize,
    /// What was skipped, and why.
    pub notes: Vec<String>,
    env: Env,
}

impl Default for Loader {
    fn default() -> Self {
        Loader {
            loaded: HashMap::new(),
            followed: 0,
            notes: Vec::new(),
            env: process_env,
        }
    }
}

impl Loader {
    /// The config at `path` with its `include`s merged: a key of the including file wins.
    pub fn load(&mut self, path: &Path, depth: usize) -> Result<Json, String> {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if let Some(config) = self.loaded.get(&canonical) {
            return Ok(config.clone());
        }
        let bytes =
            read(path, MAX_CONFIG_BYTES).map_err(|err| format!("{}: {err}", path.display()))?;
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", path.display()))?;
        let mut config = self.first_value(&text, path)?;
        match &mut config {
            Json::Array(bars) => {
                for bar in bars {
                    self.merge_includes(bar, path, depth);
                }
            }
            bar => self.merge_includes(bar, path, depth),
        }
        self.loaded.insert(canonical, config.clone());
        Ok(config)
    }

    /// The file's first JSON value; text after it is ignored, as Waybar ignores it.
    fn first_value(&mut self, text: &str, path: &Path) -> Result<Json, String> {
        let options = jsonc_parser::ParseOptions::default();
        let whole = jsonc_parser::parse_to_serde_value(text, &options);
        let err = match whole {
            Ok(config) => return Ok(config),
            Err(err) => err,
        };
        let Some(end) = first_value_end(text) else {
            return Err(format!("{}: {err}", path.display()));
        };
        let config = jsonc_parser::parse_to_serde_value(&text[..end], &options)
            .map_err(|_| format!("{}: {err}", path.display()))?;
        let line = text[..end].lines().count();
        self.notes.push(format!(
            "{}: the text after the first JSON value (from line {line}) is ignored, as Waybar \
             ignores it",
            path.display()
        ));
        Ok(config)
    }

    fn merge_includes(&mut self, bar: &mut Json, path: &Path, depth: usize) {
        let Some(object) = bar.as_object_mut() else {
            return;
        };
        let includes = match object.remove("include") {
            Some(Json::String(one)) => vec![one],
            Some(Json::Array(many)) => many
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => return,
        };
        if depth >= MAX_INCLUDE_DEPTH {
            let why = format!("includes nest deeper than {MAX_INCLUDE_DEPTH}; not followed");
            self.notes.push(format!("{}: {why}", path.display()));
            return;
        }
        for include in includes {
            for included in expand(&include, path, self.env, &mut self.notes) {
                self.followed += 1;
                if self.followed > MAX_INCLUDES {
                    let why = format!("more than {MAX_INCLUDES} includes in all; not followed");
                    self.notes.push(format!("{}: {why}", path.display()));
                    return;
                }
                match self.load(&included, depth + 1) {
                    Ok(Json::Object(keys)) => merge(object, keys),
                    Ok(_) => {}
                    Err(err) => self.notes.push(format!("`include` skipped: {err}")),
                }
            }
        }
    }
}

/// `from`'s keys into `into` where it has none; objects both have are merged the same
/// way, key by key (the including file wins).
fn merge(into: &mut Map<String, Json>, from: Map<String, Json>) {
    for (key, value) in from {
        match (into.get_mut(&key), value) {
            (Some(Json::Object(mine)), Json::Object(theirs)) => merge(mine, theirs),
            (Some(_), _) => {}
            (None, value) => {
                into.insert(key, value);
            }
        }
    }
}

/// An `include` path as wordexp(3) expands it: `~`, `$VAR` and `${VAR}` (unset: empty;
/// `XDG_CONFIG_HOME` unset: `~/.config`, its default), then wildcards. A relative one is
/// looked for where Waybar looks: beside the including file, in the home folder (the
/// session's working folder), then in Waybar's config folders. The files it names, in
/// order; a note where none.
fn expand(include: &str, from: &Path, env: Env, notes: &mut Vec<String>) -> Vec<PathBuf> {
    let home = env("HOME").unwrap_or_default();
    let tilde = match include.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{home}{rest}"),
        _ => include.to_owned(),
    };
    let expanded = variables(&tilde, env);
    let path = PathBuf::from(&expanded);
    let path = match (path.is_absolute(), from.parent()) {
        (false, Some(dir)) => {
            let config = variables("$XDG_CONFIG_HOME", env);
            let dirs = [
                dir.to_path_buf(),
                PathBuf::from(&home),
                Path::new(&config).join("waybar"),
                Path::new(&home).join("waybar"),
                PathBuf::from("/etc/xdg/waybar"),
            ];
            let found = dirs.iter().map(|d| d.join(&path)).find(|p| p.exists());
            found.unwrap_or_else(|| dir.join(path))
        }
        _ => path,
    };
    let pattern = path.to_string_lossy().into_owned();
    if !pattern.contains(['*', '?', '[']) {
        if !path.exists() {
            let why = format!("`include` {include:?} ({}): no such file", path.display());
            notes.push(format!("{why}; skipped"));
            return Vec::new();
        }
        return vec![path];
    }
    let mut found: Vec<PathBuf> = glob::glob(&pattern)
        .map(|paths| paths.flatten().filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    found.sort();
    if found.is_empty() {
        notes.push(format!("`include` {include:?}: matches no file; skipped"));
    }
    found
}

/// `$VAR` and `${VAR}` replaced by the variable's value (empty when unset, but for
/// `XDG_CONFIG_HOME`: `~/.config`).
fn variables(text: &str, env: Env) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, next) = match after.strip_prefix('{') {
            Some(braced) => match braced.find('}') {
                Some(end) => (&braced[..end], &braced[end + 1..]),
                None => ("", after),
            },
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        if name.is_empty() {
            out.push('$');
        } else {
            let value = env(name).filter(|v| !v.is_empty());
            let value = match (value, name) {
                (Some(value), _) => value,
                (None, "XDG_CONFIG_HOME") => {
                    format!("{}/.config", env("HOME").unwrap_or_default())
                }
                (None, _) => String::new(),
            };
            out.push_str(&value);
        }
        rest = next;
    }
    out.push_str(rest);
    out
}

/// Where the first JSON value of `text` ends (comments and strings skipped); `None`
/// when it does not end.
fn first_value_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut at, mut started) = (0usize, 0usize, false);
    while at < bytes.len() {
        match bytes[at] {
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..].find('\n').map_or(bytes.len(), |n| at + n);
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..].find("*/").map(|n| at + 2 + n + 2)?;
                continue;
            }
            b'"' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'[' => {
                depth += 1;
                started = true;
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if started && depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
#[path = "waybar_loader_tests.rs"]
mod tests;
