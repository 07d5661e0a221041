//! Waybar's `rewrite` rules: `{ "PATTERN": "REPLACEMENT" }`, applied to a whole label in
//! the order of the patterns' names, each one whose pattern matches the whole text (any
//! case) replacing it. The replacement is written as JavaScript's (`$1`, `$&`, `$$`),
//! which is how Waybar's C++ regex reads it.

use std::collections::BTreeMap;

use regex::{Regex, RegexBuilder};
use serde::de::{Deserializer, Error};
use serde::Deserialize;

/// Compiled rules, in the order they apply.
#[derive(Clone, Debug, Default)]
pub struct Rewrite {
    rules: Vec<(Regex, String)>,
}

impl Rewrite {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Compiles `rules`; names the pattern that is not a regular expression.
    pub fn new(rules: &BTreeMap<String, String>) -> Result<Rewrite, String> {
        let compiled = rules.iter().map(|(pattern, replacement)| {
            let whole = format!("^(?:{pattern})$");
            let regex = RegexBuilder::new(&whole)
                .case_insensitive(true)
                .build()
                .map_err(|e| format!("rewrite pattern {pattern:?}: {e}"))?;
            Ok((regex, javascript_expansion(replacement)))
        });
        Ok(Rewrite {
            rules: compiled.collect::<Result<_, String>>()?,
        })
    }

    /// `text` after every rule; `scratch` is reused between calls.
    pub fn apply(&self, text: &mut String, scratch: &mut String) {
        for (regex, replacement) in &self.rules {
            if let Some(captures) = regex.captures(text) {
                scratch.clear();
                captures.expand(replacement, scratch);
                std::mem::swap(text, scratch);
            }
        }
    }
}

/// A JavaScript replacement in the `regex` crate's syntax: `$1` and `$12` (groups by
/// number), `$&` (the whole match) and `$$` (a dollar); any other `$` is itself.
pub fn javascript_expansion(replacement: &str) -> String {
    let mut out = String::with_capacity(replacement.len() + 8);
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('&') => {
                chars.next();
                out.push_str("${0}");
            }
            Some(d) if d.is_ascii_digit() => {
                let mut group = String::new();
                while let Some(d) = chars
                    .peek()
                    .filter(|d| d.is_ascii_digit() && group.len() < 2)
                {
                    group.push(*d);
                    chars.next();
                }
                out.push_str(&format!("${{{group}}}"));
            }
            Some('$') => {
                chars.next();
                out.push_str("$$");
            }
            _ => out.push_str("$$"),
        }
    }
    out
}

/// Reads `rewrite` from a module's table: a table of patterns, each a valid expression.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Rewrite, D::Error> {
    let rules = BTreeMap::<String, String>::deserialize(d)?;
    Rewrite::new(&rules).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(rules: &[(&str, &str)], text: &str) -> String {
        let rules = rules
            .iter()
            .map(|(p, r)| (p.to_string(), r.to_string()))
            .collect();
        let mut text = text.to_owned();
        Rewrite::new(&rules)
            .expect("valid")
            .apply(&mut text, &mut String::new());
        text
    }

    #[test]
    fn a_rule_rewrites_a_whole_match_in_any_case() {
        let firefox = [("(.*) - Mozilla Firefox", "🌎 $1")];
        assert_eq!(rewrite(&firefox, "Docs - mozilla firefox"), "🌎 Docs");
        // Only a whole match counts.
        assert_eq!(
            rewrite(&firefox, "Docs - Mozilla Firefox (Private)"),
            "Docs - Mozilla Firefox (Private)"
        );
    }

    #[test]
    fn rules_apply_in_the_order_of_their_patterns_each_on_the_last_result() {
        let rules = [("b(.*)", "c$1"), ("a(.*)", "b$1")];
        assert_eq!(rewrite(&rules, "ax"), "cx", "a… first, then b…");
    }

    #[test]
    fn javascript_replacements() {
        let rules = [("(\\w+) (\\w+)", "$2a $& $$ $x $1")];
        assert_eq!(rewrite(&rules, "one two"), "twoa one two $ $x one");
    }

    #[test]
    fn a_bad_pattern_is_named() {
        let rules = BTreeMap::from([("(unclosed".to_owned(), "x".to_owned())]);
        let error = Rewrite::new(&rules).expect_err("invalid");
        assert!(
            error.starts_with("rewrite pattern \"(unclosed\""),
            "{error}"
        );
    }
}
