//! Waybar's `window-rewrite`: the `{windows}` of a workspace's label, one piece of text
//! per window it holds, joined by `format-window-separator`.
//!
//! A window is written `class<APP_ID>`, or `class<APP_ID> title<TITLE>` once any rule
//! names `title`, and the first rule whose pattern is found in that (any case) gives its
//! text; rules naming both come first, then those naming the title, then the class,
//! then the rest, each group in the order of the patterns. No rule found: the text of
//! `window-rewrite-default`. The text may use the pattern's groups (`$1`, as Waybar's
//! C++ regex writes them) and `{class}`, `{title}` (Waybar's Sway name for it:
//! `{name}`). A window whose text is empty is left out, as is one without an app id
//! (and without a title, where the rules read titles). With a
//! `window-rewrite-group-threshold`, that many windows or more with the same text are
//! written once, by `window-rewrite-group-format` (`{icon}`, `{count}`).

use std::collections::BTreeMap;

use regex::{Regex, RegexBuilder};

use crate::events::compositor::WindowName;
use crate::modules::format;
use crate::text::rewrite::javascript_expansion;

#[derive(Debug, Default)]
pub struct WindowRewrite {
    /// Patterns and their texts (in the `regex` crate's syntax), in the order tried.
    rules: Vec<(Regex, String)>,
    /// Some rule names `title`: windows are matched with their titles.
    reads_titles: bool,
    default: String,
    separator: String,
    group_threshold: u32,
    group_format: String,
}

/// The settings it is made from, as the config writes them.
pub struct Rules<'a> {
    pub rules: &'a BTreeMap<String, String>,
    pub default: &'a str,
    pub separator: &'a str,
    pub group_threshold: u32,
    pub group_format: &'a str,
}

/// Waybar's order: rules naming the title and the class, then the title, then the class.
fn priority(pattern: &str) -> u8 {
    match (pattern.contains("title"), pattern.contains("class")) {
        (true, true) => 3,
        (true, false) => 2,
        (false, true) => 1,
        (false, false) => 0,
    }
}

impl WindowRewrite {
    /// Compiles the rules; names the pattern that is not a regular expression.
    pub fn new(settings: &Rules<'_>) -> Result<WindowRewrite, String> {
        let mut rules = Vec::with_capacity(settings.rules.len());
        for (pattern, text) in settings.rules {
            let regex = RegexBuilder::new(pattern)
                .case_insensitive(true)
                .build()
                .map_err(|e| format!("window-rewrite pattern {pattern:?}: {e}"))?;
            rules.push((priority(pattern), regex, javascript_expansion(text)));
        }
        // Stable: the patterns' order within each group stays.
        rules.sort_by_key(|(priority, _, _)| std::cmp::Reverse(*priority));
        Ok(WindowRewrite {
            reads_titles: rules.iter().any(|(priority, _, _)| *priority >= 2),
            rules: rules.into_iter().map(|(_, r, t)| (r, t)).collect(),
            default: settings.default.to_owned(),
            separator: settings.separator.to_owned(),
            group_threshold: settings.group_threshold,
            group_format: settings.group_format.to_owned(),
        })
    }

    /// One window's text; `None` when it is left out.
    fn text(&self, window: &WindowName) -> Option<String> {
        let app = window.app_id.as_deref().unwrap_or("");
        let title = window.title.as_str();
        if app.is_empty() && (!self.reads_titles || title.is_empty()) {
            return None;
        }
        let key = match self.reads_titles {
            true => format!("class<{app}> title<{title}>"),
            false => format!("class<{app}>"),
        };
        let mut chosen = String::new();
        match self.rules.iter().find_map(|(regex, text)| {
            let captures = regex.captures(&key)?;
            Some((captures, text))
        }) {
            Some((captures, text)) => captures.expand(text, &mut chosen),
            None => chosen.push_str(&self.default),
        }
        let mut out = String::with_capacity(chosen.len());
        format::fill(&chosen, &mut out, |field, out| {
            match field {
                "class" => out.push_str(app),
                "title" | "name" => out.push_str(title),
                _ => return false,
            }
            true
        });
        (!out.is_empty()).then_some(out)
    }

    /// The `{windows}` of a workspace holding `windows`, appended to `out`.
    pub fn write(&self, windows: &[WindowName], out: &mut String) {
        let texts = windows.iter().filter_map(|w| self.text(w));
        let mut first = true;
        let mut put = |out: &mut String, piece: &str| {
            if !std::mem::take(&mut first) {
                out.push_str(&self.separator);
            }
            out.push_str(piece);
        };
        if self.group_threshold == 0 {
            for text in texts {
                put(out, &text);
            }
            return;
        }
        // Each text once, in the order first seen, with how many windows gave it.
        let mut counted: Vec<(String, u32)> = Vec::new();
        for text in texts {
            match counted.iter_mut().find(|(seen, _)| *seen == text) {
                Some((_, count)) => *count += 1,
                None => counted.push((text, 1)),
            }
        }
        for (text, count) in counted {
            if count >= self.group_threshold {
                let mut group = String::new();
                format::fill(&self.group_format, &mut group, |field, out| {
                    match field {
                        "icon" => out.push_str(&text),
                        "count" => out.push_str(&count.to_string()),
                        _ => return false,
                    }
                    true
                });
                put(out, &group);
            } else {
                for _ in 0..count {
                    put(out, &text);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(app_id: &str, title: &str) -> WindowName {
        WindowName {
            title: title.to_owned(),
            app_id: (!app_id.is_empty()).then(|| app_id.to_owned()),
        }
    }

    fn written(rules: &[(&str, &str)], threshold: u32, windows: &[WindowName]) -> String {
        let rules: BTreeMap<String, String> = rules
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let rewrite = WindowRewrite::new(&Rules {
            rules: &rules,
            default: "?",
            separator: " ",
            group_threshold: threshold,
            group_format: "{icon}×{count}",
        })
        .expect("valid rules");
        let mut out = String::new();
        rewrite.write(windows, &mut out);
        out
    }

    #[test]
    fn the_class_picks_the_text_in_any_case_and_the_rest_get_the_default() {
        let rules = [("class<firefox>", "F"), ("class<foot>", "T")];
        let windows = [
            window("Firefox", "Mozilla Firefox"),
            window("foot", "~"),
            window("mpv", "film.mkv"),
        ];
        assert_eq!(written(&rules, 0, &windows), "F T ?");
    }

    #[test]
    fn title_rules_come_first_and_make_vague_rules_read_titles() {
        let windows = [window("firefox", "YouTube - Mozilla Firefox")];
        // Only class and vague rules: the title is not read.
        let rules = [("class<firefox>", "F"), ("youtube", "Y")];
        assert_eq!(written(&rules, 0, &windows), "F");
        // A title rule wins over a class rule, whatever the patterns' order.
        let rules = [("class<firefox>", "F"), ("title<.*youtube.*>", "Y")];
        assert_eq!(written(&rules, 0, &windows), "Y");
        // Both named wins over the title alone.
        let rules = [
            ("title<.*youtube.*>", "Y"),
            ("class<firefox> title<.*youtube.*>", "FY"),
        ];
        assert_eq!(written(&rules, 0, &windows), "FY");
        // With a title rule present, a vague rule finds the title too.
        let rules = [("youtube", "V"), ("title<nothing>", "N")];
        assert_eq!(written(&rules, 0, &windows), "V");
    }

    #[test]
    fn groups_class_and_title_fill_the_text() {
        let rules = [
            ("title<(.*) - VSCodium>", "codium $1"),
            ("class<foot>", "{class}: {title}"),
            ("class<kitty>", "{name}"),
        ];
        let windows = [
            window("codium", "main.rs - VSCodium"),
            window("foot", "vim"),
            window("kitty", "htop"),
        ];
        assert_eq!(
            written(&rules, 0, &windows),
            "codium main.rs foot: vim htop"
        );
    }

    #[test]
    fn empty_texts_and_windows_without_an_app_id_are_left_out() {
        let rules = [("class<steam>", "")];
        let windows = [
            window("steam", "Steam"),
            window("", "no app id"),
            window("foot", "~"),
        ];
        assert_eq!(written(&rules, 0, &windows), "?");
        // Where titles are read, a title alone is enough.
        let rules = [("title<no app id>", "N")];
        assert_eq!(written(&rules, 0, &windows[1..2]), "N");
    }

    #[test]
    fn windows_with_the_same_text_are_grouped_from_the_threshold() {
        let rules = [("class<foot>", "T"), ("class<firefox>", "F")];
        let windows = [
            window("foot", "1"),
            window("firefox", "a"),
            window("foot", "2"),
            window("foot", "3"),
        ];
        assert_eq!(written(&rules, 0, &windows), "T F T T");
        assert_eq!(written(&rules, 3, &windows), "T×3 F");
        assert_eq!(written(&rules, 4, &windows), "T T T F");
    }

    #[test]
    fn a_bad_pattern_is_named_and_hostile_titles_stay_text() {
        let rules = BTreeMap::from([("class<(unclosed>".to_owned(), "x".to_owned())]);
        let error = WindowRewrite::new(&Rules {
            rules: &rules,
            default: "?",
            separator: " ",
            group_threshold: 0,
            group_format: "",
        })
        .expect_err("invalid");
        assert!(error.contains("\"class<(unclosed>\""), "{error}");
        // A title full of braces, dollars and regex syntax is only data.
        let rules = [("class<foot>", "{title}")];
        let hostile = window("foot", "{class} $1 (.*) <b>\u{202e}");
        assert_eq!(
            written(&rules, 0, &[hostile]),
            "{class} $1 (.*) <b>\u{202e}"
        );
    }
}
