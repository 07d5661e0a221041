//! A module's `format`: text with `{key}` fields the module fills in (`DISK
//! {percentage_used}%`). Keys are checked when the config is read, so a typo is a config
//! error, not a silent `{typo}` on the bar.

use super::number_spec::{self, NumberSpec};

/// Appends `format` to `out` with each `{key}` replaced by what `value` writes for it;
/// `value` returns `false` for a key it does not know, which is then kept as written.
/// Allocates nothing.
pub fn fill(format: &str, out: &mut String, mut value: impl FnMut(&str, &mut String) -> bool) {
    let mut rest = format;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return;
        };
        let key = &after[..close];
        if !value(key, out) {
            out.push('{');
            out.push_str(key);
            out.push('}');
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
}

/// [`fill`] for Pango markup: the format's own text as it is (checked markup), each
/// field's value escaped but those of `markup_keys`, which are markup already. Allocates
/// nothing once `out` is warm.
pub fn fill_escaped(
    format: &str,
    out: &mut String,
    markup_keys: &[&str],
    mut value: impl FnMut(&str, &mut String) -> bool,
) {
    fill(format, out, |key, out| {
        let start = out.len();
        if !value(key, out) {
            return false;
        }
        // Escape what was just written, in place, only where it needs it.
        if !markup_keys.contains(&key) && out[start..].contains(['&', '<', '>', '\'', '"']) {
            let written = out.split_off(start);
            crate::text::push_escaped(out, &written);
        }
        true
    });
}

/// Reads a format from the config, refusing one with a `{key}` not in `known`: the body
/// of a module's `deserialize_with` function for its formats.
pub fn deserialize_checked<'de, D: serde::Deserializer<'de>>(
    d: D,
    known: &[&str],
) -> Result<String, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(d)?;
    check(&text, known).map_err(serde::de::Error::custom)?;
    Ok(text)
}

/// A tooltip's format from the config: its `{key}`s among `known` and the whole of it
/// Pango markup (lines allowed).
pub fn deserialize_markup<'de, D: serde::Deserializer<'de>>(
    d: D,
    known: &[&str],
) -> Result<Option<String>, D::Error> {
    let text = deserialize_checked(d, known)?;
    crate::text::markup::check(&text, true).map_err(serde::de::Error::custom)?;
    Ok(Some(text))
}

/// Checks that every `{key}` in `format` is one of `known`: the config error otherwise.
pub fn check(format: &str, known: &[&str]) -> Result<(), String> {
    let mut unknown = None;
    fill(format, &mut String::new(), |key, _| {
        if unknown.is_none() && !known.contains(&key) {
            unknown = Some(key.to_owned());
        }
        true
    });
    match unknown {
        None => Ok(()),
        Some(key) => {
            let known: Vec<String> = known.iter().map(|k| format!("{{{k}}}")).collect();
            Err(format!(
                "no {{{key}}} in a format here; it takes {}",
                known.join(", ")
            ))
        }
    }
}

/// [`fill`] where a field may carry fmt's number spec (`{used:.1f}`): `value` gets the
/// field's name and its spec.
pub fn fill_numbers(
    format: &str,
    out: &mut String,
    mut value: impl FnMut(&str, Option<NumberSpec>, &mut String) -> bool,
) {
    fill(format, out, |key, out| match number_spec::split(key) {
        Some((name, spec)) => value(name, spec, out),
        None => false,
    });
}

/// Whether the field `name` is one of `known`, where a known name ending in `N` stands
/// for its stem and a number (`usageN`: `{usage0}`, `{usage15}`, one per core).
pub fn is_known(name: &str, known: &[&str]) -> bool {
    known.iter().any(|known| match known.strip_suffix('N') {
        Some(stem) => name
            .strip_prefix(stem)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())),
        None => *known == name,
    })
}

/// The number of a field that [`is_known`] as `stem` + `N` (`usage7` → 7).
pub fn numbered(name: &str, stem: &str) -> Option<usize> {
    let n = name.strip_prefix(stem)?;
    n.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| n.parse().ok())?
}

/// [`check`] for a format filled by [`fill_numbers`]: each field one of `known` (see
/// [`is_known`]), with a number's spec or none.
pub fn check_numbers(format: &str, known: &[&str]) -> Result<(), String> {
    let mut wrong = None;
    fill(format, &mut String::new(), |key, _| {
        let fits = number_spec::split(key).is_some_and(|(name, _)| is_known(name, known));
        if wrong.is_none() && !fits {
            wrong = Some(key.to_owned());
        }
        true
    });
    match wrong {
        None => Ok(()),
        Some(key) => {
            let known: Vec<String> = known.iter().map(|k| format!("{{{k}}}")).collect();
            Err(format!(
                "no {{{key}}} in a format here; it takes {} (with a number's spec such as \
                 {{{}:.1f}} where fmt takes one)",
                known.join(", "),
                known.first().map_or("x", |k| k.trim_matches(['{', '}']))
            ))
        }
    }
}

/// The format for `level`: its own where the config sets one, else `normal` (Waybar's
/// `format-warning` and `format-critical`).
pub fn for_level<'a>(
    level: super::Level,
    normal: &'a str,
    warning: Option<&'a String>,
    critical: Option<&'a String>,
) -> &'a str {
    let own = match level {
        super::Level::Critical => critical,
        super::Level::Warning => warning,
        super::Level::Normal => None,
    };
    own.map_or(normal, String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_filled_and_strangers_kept() {
        let mut out = String::new();
        fill("A {x}% {y} {unclosed", &mut out, |key, out| match key {
            "x" => {
                out.push_str("42");
                true
            }
            _ => false,
        });
        assert_eq!(out, "A 42% {y} {unclosed");
        assert_eq!(check("{x} and {x}", &["x"]), Ok(()));
        assert_eq!(
            check("{x} {percent}", &["x", "y"]),
            Err("no {percent} in a format here; it takes {x}, {y}".to_owned())
        );
    }
}
