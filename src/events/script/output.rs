//! What one output line of a script says ([`parse_line`] into [`ScriptOutput`], JSON or
//! plain text) and what the module shows ([`ScriptState`]).

use serde_json::Value;

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
    crate::text::shown(text, ' ').collect()
}

/// The text with its line breaks and tabs kept, `\r` dropped, other controls as spaces.
fn multi_line(text: &str) -> String {
    text.chars()
        .filter(|&c| c != '\r')
        .filter_map(|c| match c {
            '\n' | '\t' => Some(c),
            c => crate::text::shown_char(c, ' '),
        })
        .collect()
}
