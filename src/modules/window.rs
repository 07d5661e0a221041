//! `window`: the focused window's title (`{title}`, or `{app_id}` or both through
//! `format`), cut to `max_length` characters with `…`. Titles come from any program: the
//! text is data, escaped by every markup output, and any bytes are safe. Hidden while no
//! window has the focus. Waybar's `rewrite` rules turn the whole label (before the cut)
//! into another (`text::rewrite`).

use std::cell::RefCell;
use std::rc::Rc;

use serde::Deserialize;

use super::import::{Carried, Waybar};
use super::ModuleKind;
use super::{Action, Button, Input, Module, Status, Table, Update};
use crate::text::rewrite::{self, Rewrite};
use crate::text::{untrusted, Sink};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    format: String,
    max_length: usize,
    #[serde(deserialize_with = "rewrite::deserialize")]
    rewrite: Rewrite,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{title}".to_owned(),
            max_length: 60,
            rewrite: Rewrite::default(),
        }
    }
}

struct Window {
    settings: Settings,
    /// With `rewrite`: the last label before and after the rules, and a scratch buffer
    /// (the rules run again only when the label changes).
    rewritten: RefCell<[String; 3]>,
}

/// The `window` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "window",
    make,
    waybar: Some(Waybar {
        convert: from_waybar,
        ..Waybar::named(&["sway/window", "hyprland/window", "niri/window"])
    }),
};

/// Waybar's title is `{}` or `{title}`; Hyprland's `{class}` is the app id.
fn from_waybar(key: &str, value: &serde_json::Value) -> Carried {
    match key {
        "format" => Carried::one(value.as_str().map(|format| {
            let format = format
                .replace("{}", "{title}")
                .replace("{class}", "{app_id}");
            ("format".to_owned(), toml::Value::String(format))
        })),
        "max-length" => Carried::renamed("max_length", value),
        "rewrite" => Carried::renamed("rewrite", value),
        _ => Carried::No,
    }
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Window {
        settings,
        rewritten: RefCell::default(),
    }))
}

/// Appends `text` with control characters as spaces and no deceptive ones, at most `room` characters of it
/// (the last one `…` when it was cut); returns the room left.
fn push_capped(out: &mut String, text: &str, room: usize) -> usize {
    let mut left = room;
    let mut chars = crate::text::shown(text, ' ').peekable();
    while let Some(c) = chars.next() {
        if left == 0 {
            break;
        }
        if left == 1 && chars.peek().is_some() {
            out.push('…');
            return 0;
        }
        out.push(c);
        left -= 1;
    }
    left
}

impl Window {
    /// The label from `format`, at most `room` characters of it.
    fn fill(&self, title: &str, app_id: &str, mut room: usize, out: &mut String) {
        let mut rest = self.settings.format.as_str();
        while !rest.is_empty() && room > 0 {
            let (literal, field, after) = match rest.find('{') {
                Some(at) => match rest[at..].find('}') {
                    Some(end) => (&rest[..at], &rest[at..=at + end], &rest[at + end + 1..]),
                    None => (rest, "", ""),
                },
                None => (rest, "", ""),
            };
            room = push_capped(out, literal, room);
            room = match field {
                "{title}" => push_capped(out, title, room),
                "{app_id}" => push_capped(out, app_id, room),
                other => push_capped(out, other, room),
            };
            rest = after;
        }
    }
}

impl Module for Window {
    fn name(&self) -> &str {
        "window"
    }

    fn follows(&self) -> &[Update] {
        &[Update::Compositor]
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let title = input.compositor.window_title.as_deref()?;
        let app_id = input.compositor.window_app_id.as_deref().unwrap_or("");
        let max_length = self.settings.max_length.max(1);
        if self.settings.rewrite.is_empty() {
            self.fill(title, app_id, max_length, out);
            return Some(Status::default());
        }
        let mut guard = self.rewritten.borrow_mut();
        let [before, after, scratch] = &mut *guard;
        scratch.clear();
        self.fill(title, app_id, usize::MAX, scratch);
        if scratch != before {
            std::mem::swap(before, scratch);
            after.clone_from(before);
            self.settings.rewrite.apply(after, scratch);
        }
        push_capped(out, after, max_length);
        Some(Status::default())
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if let Some(title) = &input.compositor.window_title {
            untrusted(sink, title);
        }
        if let Some(app_id) = &input.compositor.window_app_id {
            sink.out().push('\n');
            untrusted(sink, app_id);
        }
    }

    fn action(&self, _button: Button) -> Option<Action> {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::config;
    use crate::events::compositor::CompositorState;
    use crate::modules::tests::CLOCK;
    use crate::modules::Input;
    use crate::sample::Sample;
    use crate::text::Markup;

    fn text(config_text: &str, title: Option<&str>) -> Option<String> {
        let config = config::parse(config_text, "c.toml".as_ref()).expect("valid");
        text_of(&config.modules.left[0], title)
    }

    fn text_of(
        module: &std::rc::Rc<dyn crate::modules::Module>,
        title: Option<&str>,
    ) -> Option<String> {
        let state = CompositorState {
            window_title: title.map(str::to_owned),
            window_app_id: Some("org.gnome.Weather".to_owned()),
            ..CompositorState::default()
        };
        let sample = Sample::default();
        let input = Input {
            sample: &sample,
            clock: &CLOCK,
            compositor: &state,
            output: "",
            scripts: &crate::modules::NO_SCRIPTS,
            events: &crate::modules::NO_EVENTS,
        };
        let mut out = String::new();
        module.text(&input, &mut out).map(|_| out)
    }

    #[test]
    fn rewrite_rules_turn_the_whole_label_before_the_cut() {
        let rules = "modules_left = [\"window\"]\n[window]\nmax_length = 8\n\
                     rewrite = { \"(.*) - Mozilla Firefox\" = \"FF $1\", \"x\" = \"y\" }\n";
        let config = config::parse(rules, "c.toml".as_ref()).expect("valid");
        let module = &config.modules.left[0];
        for (title, shown) in [
            ("Docs - Mozilla Firefox", "FF Docs"),
            ("A long page - mozilla firefox", "FF A lo…"),
            ("A long page - mozilla firefox", "FF A lo…"),
            ("X", "y"),
            ("Flower", "Flower"),
        ] {
            assert_eq!(
                text_of(module, Some(title)).as_deref(),
                Some(shown),
                "{title}"
            );
        }
        let bad = config::parse(
            "[window]\nrewrite = { \"(x\" = \"y\" }\n",
            "c.toml".as_ref(),
        );
        let Err(error) = bad else {
            panic!("a bad pattern is an error")
        };
        let error = error.to_string();
        assert!(error.contains("rewrite pattern \"(x\""), "{error}");
    }

    #[test]
    fn titles_are_capped_and_any_bytes_are_safe() {
        let plain = "modules_left = [\"window\"]\n";
        assert_eq!(text(plain, None), None, "hidden without a focused window");
        assert_eq!(text(plain, Some("Flower")), Some("Flower".to_owned()));
        let long = "x".repeat(100);
        assert_eq!(
            text(plain, Some(&long)),
            Some(format!("{}…", "x".repeat(59))),
            "60 characters, the last one …"
        );
        assert_eq!(
            text(plain, Some("tab\there\nnew <b>&")),
            Some("tab here new <b>&".to_owned()),
            "control characters become spaces; markup is escaped where it is shown"
        );
        assert_eq!(
            text(
                plain,
                Some("\u{202E}EVIL\u{202C} pay\u{200B}pal \u{2067}x\u{2069}")
            ),
            Some("EVIL paypal x".to_owned()),
            "a title cannot reorder itself or hide characters"
        );
        let both = "modules_left = [\"window\"]\n[window]\nformat = \"{app_id}: {title}\"\nmax_length = 12\n";
        assert_eq!(text(both, Some("Flower")), Some("org.gnome.W…".to_owned()));
        let unknown = "modules_left = [\"window\"]\n[window]\nformat = \"[{nope}] {title}\"\n";
        assert_eq!(text(unknown, Some("a")), Some("[{nope}] a".to_owned()));
        let mut markup = String::new();
        let state = CompositorState {
            window_title: Some("<i>&".to_owned()),
            ..CompositorState::default()
        };
        let sample = Sample::default();
        let input = Input {
            sample: &sample,
            clock: &CLOCK,
            compositor: &state,
            output: "",
            scripts: &crate::modules::NO_SCRIPTS,
            events: &crate::modules::NO_EVENTS,
        };
        crate::modules::tests::default_module("window").tooltip(&mut Markup(&mut markup), &input);
        assert_eq!(markup, "&lt;i&gt;&amp;");
    }
}
