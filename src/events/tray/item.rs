//! One StatusNotifierItem's properties as the bar shows them: status, icon, tooltip,
//! menu. The D-Bus edge fills an [`ItemState`] through its setters, which bound and
//! check every value.

use super::pixmap::Pixmap;

/// Texts longer than this are cut (titles, tooltips).
pub const MAX_TEXT: usize = 1024;
const MAX_ICON_NAME: usize = 255;
const MAX_THEME_PATH: usize = 4096;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Status {
    /// Hidden unless the config's `show_passive`, then with the `passive` class.
    Passive,
    #[default]
    Active,
    /// Shown with the `attention` class and the attention icon, if the item has one.
    NeedsAttention,
}

impl Status {
    /// The spec's names; anything else counts as `Active`.
    pub fn parse(text: &str) -> Status {
        match text {
            "Passive" => Status::Passive,
            "NeedsAttention" => Status::NeedsAttention,
            _ => Status::Active,
        }
    }

    pub fn css_class(self) -> Option<&'static str> {
        match self {
            Status::Passive => Some("passive"),
            Status::Active => None,
            Status::NeedsAttention => Some("attention"),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemState {
    pub id: String,
    pub title: String,
    pub status: Status,
    /// An icon theme name, checked by [`ItemState::set_icon_name`].
    pub icon_name: String,
    /// A folder to look for `icon_name` in besides the theme; absolute.
    pub icon_theme_path: String,
    pub icon_pixmap: Option<Pixmap>,
    pub attention_icon_name: String,
    pub attention_pixmap: Option<Pixmap>,
    pub tooltip_title: String,
    pub tooltip_text: String,
    /// The object path of the item's `com.canonical.dbusmenu` menu.
    pub menu: Option<String>,
    /// The item only has a menu: a left click opens it too.
    pub item_is_menu: bool,
}

/// What to draw for an item.
#[derive(Debug, PartialEq, Eq)]
pub enum Icon<'a> {
    Named {
        name: &'a str,
        theme_path: Option<&'a str>,
    },
    Pixmap(&'a Pixmap),
    Missing,
}

/// `text` cut to [`MAX_TEXT`] bytes (at a character boundary), control characters but
/// newlines turned into spaces.
pub fn clean_text(text: &str) -> String {
    let mut end = text.len().min(MAX_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end]
        .chars()
        .filter_map(|c| match c {
            '\n' => Some(c),
            c => crate::text::shown_char(c, ' '),
        })
        .collect()
}

fn is_icon_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_ICON_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
        && !name.starts_with('.')
}

fn is_theme_path(path: &str) -> bool {
    path.starts_with('/')
        && path.len() <= MAX_THEME_PATH
        && !path.split('/').any(|part| part == "..")
        && !path.chars().any(char::is_control)
}

impl ItemState {
    /// Sets the icon name; an invalid one (a path, junk) is dropped.
    pub fn set_icon_name(&mut self, name: &str) {
        self.icon_name = if is_icon_name(name) { name } else { "" }.to_owned();
    }

    pub fn set_attention_icon_name(&mut self, name: &str) {
        self.attention_icon_name = if is_icon_name(name) { name } else { "" }.to_owned();
    }

    pub fn set_icon_theme_path(&mut self, path: &str) {
        self.icon_theme_path = if is_theme_path(path) { path } else { "" }.to_owned();
    }

    /// The attention icon while the item needs attention and has one, else its icon;
    /// a name before a pixmap.
    pub fn icon(&self) -> Icon<'_> {
        let theme_path = Some(self.icon_theme_path.as_str()).filter(|p| !p.is_empty());
        if self.status == Status::NeedsAttention {
            if !self.attention_icon_name.is_empty() {
                return Icon::Named {
                    name: &self.attention_icon_name,
                    theme_path,
                };
            }
            if let Some(pixmap) = &self.attention_pixmap {
                return Icon::Pixmap(pixmap);
            }
        }
        if !self.icon_name.is_empty() {
            Icon::Named {
                name: &self.icon_name,
                theme_path,
            }
        } else if let Some(pixmap) = &self.icon_pixmap {
            Icon::Pixmap(pixmap)
        } else {
            Icon::Missing
        }
    }

    /// The tooltip: the item's tooltip title and text, else its title, else its id.
    pub fn tooltip(&self) -> String {
        let mut out = self.tooltip_title.clone();
        if !self.tooltip_text.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&self.tooltip_text);
        }
        if out.is_empty() {
            out.clone_from(if self.title.is_empty() {
                &self.id
            } else {
                &self.title
            });
        }
        out
    }

    /// Whether the bar shows the item.
    pub fn shown(&self, show_passive: bool) -> bool {
        show_passive || self.status != Status::Passive
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_and_classes() {
        assert_eq!(Status::parse("Passive").css_class(), Some("passive"));
        assert_eq!(
            Status::parse("NeedsAttention").css_class(),
            Some("attention")
        );
        assert_eq!(Status::parse("whatever"), Status::Active);
        let mut item = ItemState {
            status: Status::Passive,
            ..ItemState::default()
        };
        assert!(!item.shown(false));
        assert!(item.shown(true));
        item.status = Status::Active;
        assert!(item.shown(false));
    }

    #[test]
    fn icons_prefer_attention_then_names() {
        let pixmap = Pixmap::from_argb(1, 1, &[255, 1, 2, 3]).expect("valid");
        let mut item = ItemState::default();
        assert_eq!(item.icon(), Icon::Missing);
        item.icon_pixmap = Some(pixmap.clone());
        assert_eq!(item.icon(), Icon::Pixmap(&pixmap));
        item.set_icon_name("nm-signal-75");
        item.set_icon_theme_path("/opt/app/icons");
        let named = Icon::Named {
            name: "nm-signal-75",
            theme_path: Some("/opt/app/icons"),
        };
        assert_eq!(item.icon(), named);
        item.set_attention_icon_name("mail-unread");
        assert_eq!(item.icon(), named, "attention icon only while it needs it");
        item.status = Status::NeedsAttention;
        assert!(matches!(
            item.icon(),
            Icon::Named {
                name: "mail-unread",
                ..
            }
        ));
    }

    #[test]
    fn hostile_names_paths_and_texts_are_dropped_or_cut() {
        let mut item = ItemState::default();
        for bad in ["../../etc/passwd", "/abs/icon.png", "", ".hidden", "a b"] {
            item.set_icon_name(bad);
            assert_eq!(item.icon_name, "", "{bad}");
        }
        item.set_icon_name(&"x".repeat(300));
        assert_eq!(item.icon_name, "");
        for bad in ["relative/icons", "/opt/../etc", "/a\nb"] {
            item.set_icon_theme_path(bad);
            assert_eq!(item.icon_theme_path, "", "{bad}");
        }
        let long = "é".repeat(MAX_TEXT);
        let cut = clean_text(&long);
        assert!(cut.len() <= MAX_TEXT && cut.chars().all(|c| c == 'é'));
        assert_eq!(clean_text("a\u{1b}[31mb\nc"), "a [31mb\nc");
    }

    #[test]
    fn tooltips_fall_back_to_the_title_then_the_id() {
        let mut item = ItemState {
            id: "app".to_owned(),
            ..ItemState::default()
        };
        assert_eq!(item.tooltip(), "app");
        item.title = "App".to_owned();
        assert_eq!(item.tooltip(), "App");
        item.tooltip_title = "Sync".to_owned();
        item.tooltip_text = "3 files".to_owned();
        assert_eq!(item.tooltip(), "Sync\n3 files");
    }
}
