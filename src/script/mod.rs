//! Waybar-compatible custom modules (`custom/NAME`): a user's script prints its state and
//! ringbar shows it. This is the pure part: the module's settings ([`ScriptConfig`], with
//! Waybar's keys), what one output line says ([`parse_line`]) and the label and tooltip made
//! of it ([`format()`], [`tooltip_markup`]). The `app` feature adds `runner`, which runs
//! the scripts on the glib main loop.
//!
//! # Markup
//!
//! As in Waybar, a script's `text`, `tooltip` and `alt` are Pango markup unless the module
//! sets `escape: true`, and so are `format` and `format-icons`. A script's bytes must never
//! break the bar, so markup from a script is read first ([`markup`]): only Pango's own tags
//! (`b`, `big`, `i`, `s`, `small`, `span`, `sub`, `sup`, `tt`, `u`) properly nested, `span`
//! attributes of its long-standing set, quoted values, well-formed entities, no control
//! characters (no line breaks in the label). Text that fails is escaped and shows literally,
//! as with `escape: true`, where Waybar would log an error and show nothing. The runner
//! also asks Pango itself, which knows the value syntax (colours, sizes); text Pango refuses
//! is escaped there in the same way. [`format()`] checks the whole label once more, so a broken
//! `format` string shows literally too. The output of [`format()`] and [`tooltip_markup`] is
//! therefore always markup for `gtk_label_set_markup`/`set_tooltip_markup`.
//!
//! Differences from Waybar: control characters in the text (a JSON `"\n"`) become spaces,
//! so a label stays one line; `max-length` counts visible characters, cuts markup without
//! breaking it and ends with `…`; classes that are not CSS identifiers are dropped.

pub mod lines;
pub mod markup;
#[cfg(feature = "app")]
pub mod runner;
#[cfg(feature = "app")]
mod signals;

use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::time::Duration;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::Value;

use crate::render::push_escaped;

/// A custom module's settings: Waybar's keys, hyphenated as in Waybar's config.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ScriptConfig {
    /// Run with `sh -c`.
    pub exec: String,
    /// Seconds between runs, or `"once"`; absent: the script runs continuously and every
    /// line it prints is an update.
    pub interval: Option<IntervalSetting>,
    /// `"json"`: one JSON object per line. Anything else or absent: plain text, the first
    /// line the text, the second the tooltip, the third a class (Waybar's i3blocks style).
    pub return_type: Option<String>,
    /// The label: `{}` (or `{text}`) is the text, `{percentage}`, `{icon}`, `{alt}`;
    /// `{{` and `}}` are braces. Default `{}`.
    pub format: Option<String>,
    /// Icons for `{icon}`: low to high by percentage, or such lists by `alt`.
    pub format_icons: Option<FormatIcons>,
    /// Run first; the module shows only while this exits with status 0.
    pub exec_if: Option<String>,
    /// SIGRTMIN+N sent to ringbar runs the script again.
    pub signal: Option<u8>,
    pub on_click: Option<String>,
    pub on_click_middle: Option<String>,
    pub on_click_right: Option<String>,
    pub on_scroll_up: Option<String>,
    pub on_scroll_down: Option<String>,
    /// Run the script again after an `on-*` command (default true; no effect while a
    /// continuous script runs).
    pub exec_on_event: Option<bool>,
    /// Continuous scripts: a script that exits with status 0 is started again after this
    /// many seconds, and keeps its last output meanwhile.
    pub restart_interval: Option<IntervalSetting>,
    /// The most characters the label shows; longer ones end with `…`.
    pub max_length: Option<usize>,
    /// Show a tooltip (default true).
    pub tooltip: Option<bool>,
    /// Show the script's text literally instead of as Pango markup (default false).
    pub escape: Option<bool>,
}

impl ScriptConfig {
    /// A continuous plain-text module running `exec`, everything else unset.
    pub fn new(exec: impl Into<String>) -> ScriptConfig {
        ScriptConfig {
            exec: exec.into(),
            interval: None,
            return_type: None,
            format: None,
            format_icons: None,
            exec_if: None,
            signal: None,
            on_click: None,
            on_click_middle: None,
            on_click_right: None,
            on_scroll_up: None,
            on_scroll_down: None,
            exec_on_event: None,
            restart_interval: None,
            max_length: None,
            tooltip: None,
            escape: None,
        }
    }

    pub fn is_json(&self) -> bool {
        self.return_type.as_deref() == Some("json")
    }

    pub fn escapes(&self) -> bool {
        self.escape == Some(true)
    }
}

/// `interval`: seconds, or `"once"`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntervalSetting {
    Seconds(f64),
    Once,
}

/// The shortest interval ringbar accepts.
pub const MIN_INTERVAL: Duration = Duration::from_millis(100);
/// The longest: a year; more is a typo.
pub const MAX_INTERVAL: Duration = Duration::from_secs(365 * 24 * 3600);

impl IntervalSetting {
    /// The interval, clamped to [`MIN_INTERVAL`]..=[`MAX_INTERVAL`]; `None` for `once`.
    pub fn duration(self) -> Option<Duration> {
        match self {
            IntervalSetting::Once => None,
            IntervalSetting::Seconds(s) if s.is_nan() => Some(MIN_INTERVAL),
            IntervalSetting::Seconds(s) => Some(Duration::from_secs_f64(
                s.clamp(MIN_INTERVAL.as_secs_f64(), MAX_INTERVAL.as_secs_f64()),
            )),
        }
    }
}

impl<'de> Deserialize<'de> for IntervalSetting {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Interval;

        impl Visitor<'_> for Interval {
            type Value = IntervalSetting;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of seconds (at least 0.1) or \"once\"")
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IntervalSetting, E> {
                let min = MIN_INTERVAL.as_secs_f64();
                if v.is_finite() && v >= min && v <= MAX_INTERVAL.as_secs_f64() {
                    Ok(IntervalSetting::Seconds(v))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(v), &self))
                }
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntervalSetting, E> {
                match v {
                    1.. => self.visit_f64(v as f64),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntervalSetting, E> {
                self.visit_f64(v as f64)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntervalSetting, E> {
                match v {
                    "once" => Ok(IntervalSetting::Once),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
        }

        deserializer.deserialize_any(Interval)
    }
}

/// `format-icons`: one icon set, or icon sets by the script's `alt` (with `default`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum FormatIcons {
    Icons(Icons),
    ByAlt(BTreeMap<String, Icons>),
}

/// One icon, or icons from low to high percentage.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Icons {
    One(String),
    Ladder(Vec<String>),
}

impl FormatIcons {
    /// Waybar's choice: the set for `alt` (else `default`), then the entry for the
    /// percentage, in steps of `100 / n` (the last one from there up); "" if none.
    pub fn icon(&self, percentage: Option<f64>, alt: Option<&str>) -> &str {
        let icons = match self {
            FormatIcons::Icons(icons) => Some(icons),
            FormatIcons::ByAlt(by_alt) => alt
                .filter(|alt| !alt.is_empty())
                .and_then(|alt| by_alt.get(alt))
                .or_else(|| by_alt.get("default")),
        };
        match icons {
            None => "",
            Some(Icons::One(icon)) => icon,
            Some(Icons::Ladder(ladder)) if ladder.is_empty() => "",
            Some(Icons::Ladder(ladder)) => {
                let step = (100 / ladder.len()).max(1);
                let index = percent_integer(percentage).max(0) as usize / step;
                &ladder[index.min(ladder.len() - 1)]
            }
        }
    }
}

/// The percentage as Waybar shows it: rounded, 0 when the script gave none.
fn percent_integer(percentage: Option<f64>) -> i64 {
    // `as` saturates, and NaN becomes 0.
    percentage.map_or(0, |p| p.round() as i64)
}

/// What one output line of the script says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptOutput {
    /// The text: one line, control characters replaced by spaces.
    pub text: String,
    /// May span lines; other control characters replaced by spaces.
    pub tooltip: Option<String>,
    /// Safe CSS class names only, at most [`MAX_CLASSES`], without duplicates.
    pub classes: Vec<String>,
    pub percentage: Option<f64>,
    pub alt: Option<String>,
}

/// How many classes a script may set.
pub const MAX_CLASSES: usize = 8;
/// The longest class name kept.
pub const MAX_CLASS_LEN: usize = 64;

/// What the module shows.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptState {
    /// Before the first output.
    Starting,
    Output(ScriptOutput),
    /// Crashed, exited (continuous), timed out, or printed what cannot be read.
    Failed {
        reason: String,
    },
    /// `exec-if` failed, the text is empty, or an interval run exited non-zero.
    Hidden,
}

/// Reads one line of output (no newline needed), or the whole output of an interval run:
/// for JSON the last non-blank line counts (or all of them, if together they are one
/// object); for plain text the first line is the text, the
/// second the tooltip and the third a class. Invalid UTF-8, invalid JSON and fields of the
/// wrong type are errors with a short reason. A blank line is an empty output.
pub fn parse_line(line: &[u8], json: bool) -> Result<ScriptOutput, String> {
    let text = std::str::from_utf8(line)
        .map_err(|err| format!("output is not UTF-8 (byte {})", err.valid_up_to()))?;
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    if json {
        let mut filled = |l: &&str| !l.trim().is_empty();
        let last = lines.rfind(&mut filled);
        // A pretty-printed object (`jq .`) is read whole.
        if last.is_some() && lines.any(|l| filled(&l)) {
            if let Ok(output) = parse_json(text) {
                return Ok(output);
            }
        }
        return last.map_or(Ok(ScriptOutput::default()), parse_json);
    }
    let mut output = ScriptOutput {
        text: one_line(lines.next().unwrap_or_default()),
        ..ScriptOutput::default()
    };
    output.tooltip = lines.next().filter(|t| !t.is_empty()).map(multi_line);
    output.classes = lines.next().into_iter().filter_map(safe_class).collect();
    Ok(output)
}

fn parse_json(line: &str) -> Result<ScriptOutput, String> {
    let value: Value = serde_json::from_str(line).map_err(|err| format!("invalid JSON: {err}"))?;
    let Value::Object(object) = value else {
        return Err("the JSON is not an object".to_owned());
    };
    let field = |key: &str| object.get(key).filter(|v| !v.is_null());
    let string = |key: &str| -> Result<Option<String>, String> {
        match field(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(_) => Err(format!("\"{key}\" is not a string")),
        }
    };
    let mut output = ScriptOutput {
        text: one_line(&string("text")?.unwrap_or_default()),
        tooltip: string("tooltip")?.map(|t| multi_line(&t)),
        alt: string("alt")?.map(|a| one_line(&a)),
        ..ScriptOutput::default()
    };
    output.percentage = match field("percentage") {
        None => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(p) if p.is_finite() => Some(p),
            _ => return Err("\"percentage\" is not a number".to_owned()),
        },
        Some(_) => return Err("\"percentage\" is not a number".to_owned()),
    };
    match field("class") {
        None => {}
        Some(Value::String(class)) => output.classes.extend(safe_class(class)),
        Some(Value::Array(classes)) => {
            for class in classes {
                let Value::String(class) = class else {
                    return Err("\"class\" holds something other than strings".to_owned());
                };
                if output.classes.len() < MAX_CLASSES && !output.classes.contains(class) {
                    output.classes.extend(safe_class(class));
                }
            }
        }
        Some(_) => return Err("\"class\" is not a string or a list of strings".to_owned()),
    }
    Ok(output)
}

/// `class` if it is a CSS identifier a stylesheet can name (`-?[A-Za-z_][A-Za-z0-9_-]*`,
/// ASCII, at most [`MAX_CLASS_LEN`] characters).
pub fn safe_class(class: &str) -> Option<String> {
    let bytes = class.as_bytes();
    let start = usize::from(bytes.first() == Some(&b'-'));
    let first_ok = bytes
        .get(start)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
    let rest_ok = bytes[start..]
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-');
    (first_ok && rest_ok && bytes.len() <= MAX_CLASS_LEN).then(|| class.to_owned())
}

/// The text with every control character as a space.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The text with its line breaks and tabs kept, `\r` dropped, other controls as spaces.
fn multi_line(text: &str) -> String {
    text.chars()
        .filter(|&c| c != '\r')
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// Appends `text` as markup: itself if it is markup ringbar accepts and `escape` is off,
/// else escaped so that it shows literally.
pub fn push_markup(out: &mut String, text: &str, escape: bool, multiline: bool) {
    if !escape && markup::check(text, multiline).is_ok() {
        out.push_str(text);
    } else {
        push_escaped(out, text);
    }
}

/// Writes the label: `config.format` with the output's fields, as Pango markup that is
/// always well-formed, at most `max-length` visible characters (the last one `…` when
/// cut). An empty text gives an empty label, whatever the format: the module is hidden then.
pub fn format(config: &ScriptConfig, output: &ScriptOutput, out: &mut String) {
    if output.text.is_empty() {
        return;
    }
    let mut label = String::new();
    format_full(config, output, &mut label);
    match config.max_length {
        Some(max) => markup::truncate(&label, max, out),
        None => out.push_str(&label),
    }
}

/// The label before `max-length`, always well-formed markup.
fn format_full(config: &ScriptConfig, output: &ScriptOutput, out: &mut String) {
    let start = out.len();
    let escape = config.escapes();
    let format = config.format.as_deref().unwrap_or("{}");
    let mut rest = format;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(after) = rest.strip_prefix("{{").or(rest.strip_prefix("}}")) {
            out.push_str(&rest[..1]);
            rest = after;
            continue;
        }
        let name_end = rest.find('}').filter(|_| rest.starts_with('{'));
        let field = name_end.map(|end| (&rest[1..end], &rest[end + 1..]));
        match field {
            Some(("" | "0" | "text", after)) => {
                push_markup(out, &output.text, escape, false);
                rest = after;
            }
            Some(("alt", after)) => {
                push_markup(out, output.alt.as_deref().unwrap_or(""), escape, false);
                rest = after;
            }
            Some(("percentage", after)) => {
                let _ = write!(out, "{}", percent_integer(output.percentage));
                rest = after;
            }
            Some(("icon", after)) => {
                if let Some(icons) = &config.format_icons {
                    out.push_str(icons.icon(output.percentage, output.alt.as_deref()));
                }
                rest = after;
            }
            // Anything else stays as it is.
            _ => {
                out.push_str(&rest[..1]);
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    // The format and icons come from the config: a mistake there shows literally too.
    if markup::check(&out[start..], false).is_err() {
        let label = out.split_off(start);
        push_escaped(out, &label);
    }
}

/// Writes the tooltip markup and says whether the module has one: the script's tooltip,
/// or else the whole label (before `max-length`); none with `tooltip: false` or when both
/// are empty.
pub fn tooltip_markup(config: &ScriptConfig, output: &ScriptOutput, out: &mut String) -> bool {
    if config.tooltip == Some(false) {
        return false;
    }
    let start = out.len();
    match output.tooltip.as_deref().filter(|t| !t.is_empty()) {
        Some(tooltip) => push_markup(out, tooltip, config.escapes(), true),
        None if !output.text.is_empty() => format_full(config, output, out),
        None => {}
    }
    out.len() > start
}

#[cfg(all(test, feature = "app"))]
mod pango_tests;
#[cfg(test)]
mod tests;
