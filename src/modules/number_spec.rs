//! fmt's format specs on a field's number, as Waybar's formats write them: `{used:.1f}`,
//! `{percentage:3}`, `{usage:>3}`, `{load:0.2f}`, `{percentage:02}`. The subset Waybar
//! configs use on numbers: an optional fill and alignment (`<`, `>`, `^`), a zero flag,
//! a width, a precision, and the type `f`, `d` or `g`.

use std::fmt::Write;

/// One spec, parsed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NumberSpec {
    fill: Option<char>,
    align: Option<char>,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

/// The field's name and its spec: `used:.1f` is `used` and `.1f`; `None` for a spec
/// that is not one of a number.
pub fn split(key: &str) -> Option<(&str, Option<NumberSpec>)> {
    match key.split_once(':') {
        None => Some((key, None)),
        Some((name, spec)) => Some((name, Some(parse(spec)?))),
    }
}

fn parse(spec: &str) -> Option<NumberSpec> {
    let mut parsed = NumberSpec::default();
    let mut rest = spec;
    let mut chars = rest.chars();
    let (first, second) = (chars.next(), chars.next());
    let is_align = |c: Option<char>| matches!(c, Some('<' | '>' | '^'));
    if is_align(second) {
        parsed.fill = first;
        parsed.align = second;
        rest = &rest[first.map_or(0, char::len_utf8) + 1..];
    } else if is_align(first) {
        parsed.align = first;
        rest = &rest[1..];
    }
    if let Some(after) = rest.strip_prefix('0') {
        parsed.zero = true;
        rest = after;
    }
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits > 0 {
        parsed.width = rest[..digits].parse().ok().filter(|w| *w <= 64)?;
    }
    rest = &rest[digits..];
    if let Some(after) = rest.strip_prefix('.') {
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        parsed.precision = Some(after[..digits].parse().ok().filter(|p| *p <= 9)?);
        rest = &after[digits..];
    }
    matches!(rest, "" | "f" | "d" | "g").then_some(parsed)
}

/// Writes `value` as the spec says; without one, as fmt prints the number (`5.67`,
/// `6`). Numbers align right by default. Allocates nothing beyond `out`'s growth.
pub fn write_number(out: &mut String, value: f64, spec: Option<NumberSpec>) {
    let spec = spec.unwrap_or_default();
    // A value rounded from just below zero is -0, which fmt prints as 0.
    let value = value + 0.0;
    let start = out.len();
    let _ = match spec.precision {
        Some(precision) => write!(out, "{value:.precision$}"),
        None => write!(out, "{value}"),
    };
    let pad = spec.width.saturating_sub(out[start..].chars().count());
    if pad == 0 {
        return;
    }
    if spec.zero && spec.align.is_none() {
        let digits = start + usize::from(out[start..].starts_with('-'));
        (0..pad).for_each(|_| out.insert(digits, '0'));
        return;
    }
    let fill = spec.fill.unwrap_or(' ');
    let (before, after) = match spec.align {
        Some('<') => (0, pad),
        Some('^') => (pad / 2, pad - pad / 2),
        _ => (pad, 0),
    };
    (0..before).for_each(|_| out.insert(start, fill));
    out.extend(std::iter::repeat_n(fill, after));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(key: &str, value: f64) -> String {
        let (_, spec) = split(key).expect("a number spec");
        let mut out = String::new();
        write_number(&mut out, value, spec);
        out
    }

    #[test]
    fn fmt_specs_on_numbers_as_waybar_configs_write_them() {
        assert_eq!(written("used", 5.67), "5.67");
        assert_eq!(written("used", 6.0), "6");
        assert_eq!(written("used:.1f", 5.67), "5.7");
        assert_eq!(written("used:0.1f", 5.67), "5.7");
        assert_eq!(written("percentage:3", 7.0), "  7");
        assert_eq!(written("percentage:02", 7.0), "07");
        assert_eq!(written("usage:>3", 42.0), " 42");
        assert_eq!(written("usage:<4", 42.0), "42  ");
        assert_eq!(written("usage:*^6", 42.0), "**42**");
        assert_eq!(written("load:.2f", 0.5), "0.50");
        assert_eq!(written("x:06.2f", -1.5), "-01.50");
        assert_eq!(split("used"), Some(("used", None)));
        for wrong in ["used:x", "used:.1s", "used:999", "used:.99f"] {
            assert!(split(wrong).is_none(), "{wrong}: {:?}", split(wrong));
        }
    }
}
