//! Apps, not processes: a task's app is the cgroup v2 scope or service its session manager
//! launched it in (`app-firefox@12.scope`, `app-flatpak-org.gnome.Maps-4.scope`,
//! `pipewire.service`). Here the pure part: names parsed from cgroup paths, the label a row
//! shows, and the lookup the model asks ([`AppNames`]); `src/cgroup.rs` walks the real tree.

/// Bytes of an app's name at most; longer names are cut (they are untrusted).
pub const LABEL_LEN: usize = 32;

/// A name of at most [`LABEL_LEN`] bytes, NUL-padded, copied without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Label([u8; LABEL_LEN]);

impl Label {
    pub const EMPTY: Label = Label([0; LABEL_LEN]);

    /// The name cut at [`LABEL_LEN`] bytes, on a UTF-8 boundary where it is UTF-8; NULs end it.
    pub fn new(name: &[u8]) -> Label {
        let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
        let mut len = name.len().min(LABEL_LEN);
        while len > 0 && len < name.len() && (name[len] & 0xC0) == 0x80 {
            len -= 1; // never split a UTF-8 sequence
        }
        let mut bytes = [0; LABEL_LEN];
        bytes[..len].copy_from_slice(&name[..len]);
        Label(bytes)
    }

    pub fn as_bytes(&self) -> &[u8] {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(LABEL_LEN);
        &self.0[..len]
    }

    pub fn is_empty(&self) -> bool {
        self.0[0] == 0
    }
}

/// What the lists rank: apps, or single processes (`group_by = "app" | "process"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GroupBy {
    #[default]
    Process,
    App,
}

impl GroupBy {
    pub fn name(self) -> &'static str {
        match self {
            GroupBy::Process => "process",
            GroupBy::App => "app",
        }
    }

    pub fn toggled(self) -> GroupBy {
        match self {
            GroupBy::Process => GroupBy::App,
            GroupBy::App => GroupBy::Process,
        }
    }
}

/// An app: the cgroup that makes it one (its directory's inode number) and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct App {
    pub id: u64,
    pub label: Label,
}

/// Cgroup ids to apps, for the model. Implementations cache: [`AppNames::app`] is called
/// for every listed process on every sample and must not allocate for an id it knows.
pub trait AppNames: std::fmt::Debug {
    /// The app a task in this cgroup belongs to; `None` outside any app (or unknown).
    fn app(&mut self, cgroup_id: u64) -> Option<App>;
    /// Called once per sample, before the lookups: ids unused for a while leave the cache.
    fn next_sample(&mut self);
    /// Whether the session has app scopes at all (the default of `group_by`).
    fn has_apps(&self) -> bool;
}

/// The app name of one cgroup directory name, if it is an app's:
/// - `app[-<launcher>]-<id>[@<random>].service` and `app[-<launcher>]-<id>-<random>.scope`
///   (systemd's desktop-app convention: uwsm, GNOME, KDE, flatpak), where `<id>` has its
///   dashes escaped as `\x2d`; a reverse-DNS id (`org.mozilla.firefox`) gives its last part;
/// - `<name>.service` (`user@UID.service`, the user's manager, is not an app).
pub fn app_name(dir: &str) -> Option<Label> {
    if let Some(rest) = dir.strip_prefix("app-") {
        let (stem, scope) = if let Some(stem) = rest.strip_suffix(".scope") {
            (stem, true)
        } else {
            (rest.strip_suffix(".service")?, false)
        };
        let stem = match stem.split_once('@') {
            Some((before, _)) => before,
            // A scope's random part follows the last dash.
            None if scope => stem.rsplit_once('-').map_or(stem, |(before, _)| before),
            None => stem,
        };
        // What precedes the id's first (unescaped) dash is the launcher.
        let id = stem.split_once('-').map_or(stem, |(_, id)| id);
        return unescaped(last_dns_part(id));
    }
    let name = dir.strip_suffix(".service")?;
    if name.starts_with("user@") || name.is_empty() {
        return None;
    }
    unescaped(name)
}

/// `org.mozilla.firefox` → `firefox`; a name with fewer than two dots stays whole.
fn last_dns_part(id: &str) -> &str {
    if id.matches('.').count() >= 2 {
        id.rsplit('.').next().unwrap_or(id)
    } else {
        id
    }
}

/// systemd's `\x2d` escapes undone (`\xNN` of any byte), cut to a label; `None` if empty.
fn unescaped(name: &str) -> Option<Label> {
    let mut out = [0u8; LABEL_LEN * 2];
    let (mut len, bytes) = (0, name.as_bytes());
    let mut i = 0;
    while i < bytes.len() && len < out.len() {
        let hex = bytes
            .get(i + 2..i + 4)
            .and_then(|h| std::str::from_utf8(h).ok());
        let escaped = (bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'x'))
            .then(|| hex.and_then(|h| u8::from_str_radix(h, 16).ok()))
            .flatten();
        match escaped {
            Some(byte) if byte != 0 => {
                out[len] = byte;
                i += 4;
            }
            _ => {
                out[len] = bytes[i];
                i += 1;
            }
        }
        len += 1;
    }
    (len > 0).then(|| Label::new(&out[..len]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(dir: &str) -> Option<String> {
        app_name(dir).map(|l| String::from_utf8_lossy(l.as_bytes()).into_owned())
    }

    #[test]
    fn desktop_app_scopes_and_services() {
        assert_eq!(name("app-firefox@2b3c.scope").as_deref(), Some("firefox"));
        assert_eq!(name("app-foot@1.service").as_deref(), Some("foot"));
        assert_eq!(
            name("app-Hyprland-kitty-1234.scope").as_deref(),
            Some("kitty")
        );
        assert_eq!(
            name("app-Hyprland-kitty@a1b2.service").as_deref(),
            Some("kitty")
        );
        assert_eq!(
            name("app-gnome-org.gnome.Terminal-5120.scope").as_deref(),
            Some("Terminal")
        );
        assert_eq!(
            name("app-flatpak-org.mozilla.firefox-31337.scope").as_deref(),
            Some("firefox")
        );
        assert_eq!(
            name("app-sway-my\\x2dtool-77.scope").as_deref(),
            Some("my-tool")
        );
    }

    #[test]
    fn services_and_what_is_not_an_app() {
        assert_eq!(name("pipewire.service").as_deref(), Some("pipewire"));
        assert_eq!(name("getty@tty1.service").as_deref(), Some("getty@tty1"));
        assert_eq!(name("user@1000.service"), None);
        assert_eq!(name("session-2.scope"), None);
        assert_eq!(name("init.scope"), None);
        assert_eq!(name("app.slice"), None);
        assert_eq!(name("user-1000.slice"), None);
        assert_eq!(name(".service"), None);
        assert_eq!(name("app-.scope"), None);
    }

    #[test]
    fn labels_are_capped_on_a_character_boundary() {
        let long = "é".repeat(40);
        let label = Label::new(long.as_bytes());
        assert_eq!(label.as_bytes().len(), LABEL_LEN);
        assert!(std::str::from_utf8(label.as_bytes()).is_ok());
        assert_eq!(Label::new(b"a\0b").as_bytes(), b"a");
        assert!(Label::default().is_empty());
        let name = name(&format!("{}.service", "x".repeat(100))).expect("a name");
        assert_eq!(name.len(), LABEL_LEN);
    }

    #[test]
    fn group_by_toggles() {
        assert_eq!(GroupBy::Process.toggled(), GroupBy::App);
        assert_eq!(GroupBy::App.toggled().name(), "process");
    }
}
