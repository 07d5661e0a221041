//! The label and tooltip made of a script's output: `format` with its fields filled in,
//! as Pango markup that is always well-formed.

use std::fmt::Write;

use super::{markup, ScriptConfig, ScriptOutput};
use crate::text::icons::percent_integer;
use crate::text::push_escaped;

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
pub fn format(config: &ScriptConfig, output: &ScriptOutput, alternative: bool, out: &mut String) {
    if output.text.is_empty() {
        return;
    }
    let mut label = String::new();
    format_full(config, output, alternative, &mut label);
    match config.max_length {
        Some(max) => markup::truncate(&label, max, out),
        None => out.push_str(&label),
    }
}

/// The label of a module without a script: its `format` with empty fields, at most
/// `max-length` visible characters.
pub fn static_label(config: &ScriptConfig, alternative: bool, out: &mut String) {
    let mut label = String::new();
    format_full(config, &ScriptOutput::default(), alternative, &mut label);
    match config.max_length {
        Some(max) => markup::truncate(&label, max, out),
        None => out.push_str(&label),
    }
}

/// The label before `max-length`, always well-formed markup: by `format-alt` when
/// `alternative` and it is set.
fn format_full(config: &ScriptConfig, output: &ScriptOutput, alternative: bool, out: &mut String) {
    let own = config.format.as_deref().unwrap_or("{}");
    let format = match &config.format_alt {
        Some(alt) if alternative => alt,
        _ => own,
    };
    fill(config, format, output, false, out);
}

/// `format` with the output's fields (`{tooltip}` too, for `tooltip-format`), always
/// well-formed markup.
fn fill(
    config: &ScriptConfig,
    format: &str,
    output: &ScriptOutput,
    multiline: bool,
    out: &mut String,
) {
    let start = out.len();
    let escape = config.escapes();
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
            Some(("tooltip", after)) if multiline => {
                push_markup(out, output.tooltip.as_deref().unwrap_or(""), escape, true);
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
    if markup::check(&out[start..], multiline).is_err() {
        let label = out.split_off(start);
        push_escaped(out, &label);
    }
}

/// Writes the tooltip markup and says whether the module has one: `tooltip-format` with
/// the output's fields, else the script's tooltip, or else the whole label (before
/// `max-length`); none with `tooltip: false` or when that is empty.
pub fn tooltip_markup(config: &ScriptConfig, output: &ScriptOutput, out: &mut String) -> bool {
    if config.tooltip == Some(false) {
        return false;
    }
    let start = out.len();
    if let Some(format) = &config.tooltip_format {
        fill(config, format, output, true, out);
        return out.len() > start;
    }
    match output.tooltip.as_deref().filter(|t| !t.is_empty()) {
        Some(tooltip) => push_markup(out, tooltip, config.escapes(), true),
        None if !output.text.is_empty() => format_full(config, output, false, out),
        None => {}
    }
    out.len() > start
}
