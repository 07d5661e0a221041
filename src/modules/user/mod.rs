//! `user`, as Waybar has it: the login name (in capitals, as Waybar writes it) and how long the system has been up
//! (`{user} {work_H}:{work_M}` by default), with the boot's date and time too. The name
//! and the boot instant come once from the bar's own account and clocks ([`Login`]); the
//! label moves on by the wall clock, at each new second, minute or day of the uptime its
//! format shows. With `icon`, the avatar (`avatar`, else `~/.face`) is drawn before the
//! label, scaled to fit `width`×`height` pixels. `open-on-click` opens the home folder
//! (or `open-path`) with `xdg-open`.

#[cfg(feature = "app")]
mod login;
#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

use super::format;
use super::import::Waybar;
use super::{
    Button, EventSource, Input, Module, ModuleKind, Picture, Status, Table, Update, Widget,
};
use crate::events::EventState;
use crate::text::{untrusted, Sink};

/// The bar's user and the system's boot, this module's event source.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Login {
    /// The login name (`alice`).
    pub user: String,
    /// The user's home folder.
    pub home: String,
    /// The boot instant, in ms since the Unix epoch.
    pub boot_unix_ms: u64,
    /// The boot's local date and time: year, month, day, hour, minute.
    pub boot_local: (i32, u32, u32, u32, u32),
}

impl EventState for Login {
    const KEY: &'static str = "Login";
    type Command = std::convert::Infallible;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = login::LoginWatch;
}

pub const KEYS: [&str; 10] = [
    "user", "work_d", "work_H", "work_M", "work_S", "up_H", "up_M", "up_d", "up_m", "up_Y",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    tooltip: bool,
    #[serde(rename = "open-on-click")]
    open_on_click: bool,
    #[serde(rename = "open-path")]
    open_path: String,
    /// Whether the avatar is drawn.
    icon: bool,
    avatar: String,
    #[serde(deserialize_with = "super::picture::deserialize_pixels")]
    width: i32,
    #[serde(deserialize_with = "super::picture::deserialize_pixels")]
    height: i32,
}

/// Waybar's avatar size, the space after it, and its file where `avatar` names none.
const AVATAR_SIDE: i32 = 20;
const AVATAR_SPACING: i32 = 8;
const DEFAULT_AVATAR: &str = "~/.face";

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{user} {work_H}:{work_M}".to_owned(),
            tooltip: true,
            open_on_click: false,
            open_path: String::new(),
            icon: false,
            avatar: String::new(),
            width: AVATAR_SIDE,
            height: AVATAR_SIDE,
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

/// The `user` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "user",
    make,
    waybar: Some(Waybar {
        settings: &[
            "format",
            "tooltip",
            "open-on-click",
            "open-path",
            "icon",
            "avatar",
            "width",
            "height",
        ],
        fields: &KEYS,
        ..Waybar::named(&["user"])
    }),
};

struct User {
    settings: Settings,
    /// The uptime unit the format shows last changes this often (ms).
    period_ms: u64,
    /// `xdg-open PATH` for a left click, where `open-on-click` is set.
    open: Option<String>,
    /// The boot instant last shown, which the uptime's steps count from.
    boot_unix_ms: Cell<Option<u64>>,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    let shows = |key: &str| settings.format.contains(&format!("{{{key}}}"));
    let period_ms = if shows("work_S") {
        1000
    } else if shows("work_M") {
        60_000
    } else if shows("work_H") {
        3_600_000
    } else {
        86_400_000
    };
    let open = settings
        .open_on_click
        .then(|| match settings.open_path.as_str() {
            "" => "xdg-open ~".to_owned(),
            path => format!("xdg-open {}", shell_quoted(path)),
        });
    Ok(Rc::new(User {
        settings,
        period_ms,
        open,
        boot_unix_ms: Cell::new(None),
    }))
}

/// `path` in single quotes for `sh -c`, a leading `~/` left outside them.
fn shell_quoted(path: &str) -> String {
    let (home, rest) = match path.strip_prefix("~/") {
        Some(rest) => ("~/", rest),
        None => ("", path),
    };
    format!("{home}'{}'", rest.replace('\'', r"'\''"))
}

impl User {
    fn fill(&self, format: &str, login: &Login, unix_ms: u64, out: &mut String) {
        let up_s = unix_ms.saturating_sub(login.boot_unix_ms) / 1000;
        let (year, month, day, hour, minute) = login.boot_local;
        format::fill(format, out, |key, out| {
            let _ = match key {
                // In capitals, as Waybar writes it.
                "user" => {
                    out.extend(login.user.chars().map(|c| c.to_ascii_uppercase()));
                    Ok(())
                }
                "work_d" => write!(out, "{}", up_s / 86_400),
                "work_H" => write!(out, "{:02}", up_s / 3600 % 24),
                "work_M" => write!(out, "{:02}", up_s / 60 % 60),
                "work_S" => write!(out, "{:02}", up_s % 60),
                "up_H" => write!(out, "{hour:02}"),
                "up_M" => write!(out, "{minute:02}"),
                "up_d" => write!(out, "{day:02}"),
                "up_m" => write!(out, "{month:02}"),
                "up_Y" => write!(out, "{year}"),
                _ => return false,
            };
            true
        });
    }
}

impl Module for User {
    fn name(&self) -> &str {
        "user"
    }

    fn widget(&self) -> Widget<'_> {
        if !self.settings.icon {
            return Widget::Label;
        }
        let picture = match self.settings.avatar.as_str() {
            "" => DEFAULT_AVATAR,
            path => path,
        };
        Widget::PictureAndLabel(Picture {
            source: picture,
            width: self.settings.width,
            height: self.settings.height,
            spacing: AVATAR_SPACING,
        })
    }

    fn follows(&self) -> &[Update] {
        const { &[Update::Timer, Update::Event(EventSource::of::<Login>())] }
    }

    /// At the next step of the uptime the format shows, counted from the boot (not from
    /// the wall clock's minute); in a second while the boot is not known yet.
    fn next_update_ms(&self, unix_ms: u64) -> Option<u64> {
        let Some(boot) = self.boot_unix_ms.get() else {
            return Some(1000);
        };
        let up = unix_ms.saturating_sub(boot);
        Some(self.period_ms - up % self.period_ms + 5)
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let login = input.events.get::<Login>()?;
        self.boot_unix_ms.set(Some(login.boot_unix_ms));
        self.fill(&self.settings.format, login, input.clock.unix_ms(), out);
        Some(Status::default())
    }

    /// `alice`, up since the boot's date and time, and for how long.
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(login) = input
            .events
            .get::<Login>()
            .filter(|_| self.settings.tooltip)
        else {
            return;
        };
        let mut text = String::new();
        let format =
            "{user}\nup since {up_Y}-{up_m}-{up_d} {up_H}:{up_M}, {work_d} d {work_H}:{work_M}";
        self.fill(format, login, input.clock.unix_ms(), &mut text);
        for line in text.lines() {
            untrusted(sink, line);
            sink.out().push('\n');
        }
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn command(&self, button: Button) -> Option<&str> {
        (button == Button::Left)
            .then_some(self.open.as_deref())
            .flatten()
    }

    fn action(&self, button: Button) -> Option<super::Action> {
        self.command(button).map(|_| super::Action::Run(button))
    }
}
