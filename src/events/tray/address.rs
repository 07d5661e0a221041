//! Where the session bus is, and where an item lives on it.
//!
//! The installed bar has file capabilities, so it runs in secure-execution mode, where
//! GLib ignores `DBUS_SESSION_BUS_ADDRESS`. The tray connects explicitly: to the
//! variable's address when it only names sockets (no transport that runs a program),
//! else to `$XDG_RUNTIME_DIR/bus`, where systemd and dbus-broker put the session bus.

/// The session bus address to connect to, from the two variables' values.
pub fn session_bus_address(from_env: Option<&str>, runtime_dir: Option<&str>) -> Option<String> {
    if let Some(address) = from_env.filter(|a| only_sockets(a)) {
        // The checked entries alone: empty ones between `;` are dropped.
        let entries: Vec<&str> = address.split(';').filter(|a| !a.is_empty()).collect();
        return Some(entries.join(";"));
    }
    let dir = runtime_dir.filter(|d| d.starts_with('/'))?;
    Some(format!(
        "unix:path={}/bus",
        escape(dir.trim_end_matches('/'))
    ))
}

/// Whether every `;`-separated address is `unix:path=` or `unix:abstract=` (never
/// `unixexec:`, `autolaunch:` or TCP).
fn only_sockets(address: &str) -> bool {
    let mut addresses = address.split(';').filter(|a| !a.is_empty()).peekable();
    addresses.peek().is_some()
        && addresses.all(|a| {
            a.strip_prefix("unix:").is_some_and(|keys| {
                keys.split(',')
                    .any(|kv| kv.starts_with("path=") || kv.starts_with("abstract="))
                    && keys.split(',').all(|kv| {
                        ["path=", "abstract=", "guid="]
                            .iter()
                            .any(|key| kv.starts_with(key))
                    })
            })
        })
}

/// D-Bus address escaping: bytes outside `[-0-9A-Za-z_/.\*]` become `%XX`.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_/.\\*".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02x}"));
        }
    }
    out
}

/// Where one item is: its bus name and object path, from the watcher's item string
/// (`org.example.App`, `:1.42/org/ayatana/NotificationItem/x`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemAddress {
    pub bus_name: String,
    pub path: String,
}

/// The longest bus name D-Bus allows.
const MAX_NAME: usize = 255;
/// Object paths have no limit in D-Bus; an item's is short.
const MAX_PATH: usize = 1024;

impl ItemAddress {
    /// Parses and checks an item string; `None` for anything that is no bus name and
    /// object path.
    pub fn parse(item: &str) -> Option<ItemAddress> {
        let (bus_name, path) = match item.find('/') {
            Some(at) => (&item[..at], &item[at..]),
            None => (item, "/StatusNotifierItem"),
        };
        (is_bus_name(bus_name) && is_object_path(path)).then(|| ItemAddress {
            bus_name: bus_name.to_owned(),
            path: path.to_owned(),
        })
    }

    /// The item string the watcher lists: `BUS_NAME/PATH`.
    pub fn to_item_string(&self) -> String {
        format!("{}{}", self.bus_name, self.path)
    }
}

fn is_bus_name(name: &str) -> bool {
    let unique = name.starts_with(':');
    let body = name.strip_prefix(':').unwrap_or(name);
    name.len() <= MAX_NAME
        && body.contains('.')
        && body.split('.').all(|element| {
            !element.is_empty()
                && (unique || !element.starts_with(|c: char| c.is_ascii_digit()))
                && element
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
}

fn is_object_path(path: &str) -> bool {
    path == "/"
        || (path.len() <= MAX_PATH
            && path.starts_with('/')
            && path[1..].split('/').all(|element| {
                !element.is_empty()
                    && element
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_')
            }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_only_when_it_names_sockets() {
        let run = Some("/run/user/1000");
        assert_eq!(
            session_bus_address(Some("unix:path=/tmp/b,guid=1234"), run).as_deref(),
            Some("unix:path=/tmp/b,guid=1234")
        );
        for refused in [
            "unixexec:path=/bin/sh,argv1=-c",
            "autolaunch:",
            "tcp:host=evil,port=1",
            "unix:path=/tmp/b;unixexec:path=/bin/sh",
            "unix:tmpdir=/tmp",
            "",
            ";;",
        ] {
            assert_eq!(
                session_bus_address(Some(refused), run).as_deref(),
                Some("unix:path=/run/user/1000/bus"),
                "{refused}"
            );
        }
        assert_eq!(
            session_bus_address(None, Some("/run/a b/")).as_deref(),
            Some("unix:path=/run/a%20b/bus")
        );
        assert_eq!(session_bus_address(None, Some("relative")), None);
        assert_eq!(session_bus_address(None, None), None);
    }

    /// Found by the `tray` fuzz target: empty entries before the socket were passed on,
    /// so the address did not start with its transport.
    #[test]
    fn fuzz_regression_empty_entries_are_dropped() {
        let run = Some("/run/user/1000");
        assert_eq!(
            session_bus_address(Some(";;;;unix:path=/tmp/b;;unix:abstract=x;"), run).as_deref(),
            Some("unix:path=/tmp/b;unix:abstract=x")
        );
    }

    #[test]
    fn item_strings() {
        let ayatana = ItemAddress::parse(":1.42/org/ayatana/NotificationItem/x").expect("ok");
        assert_eq!(ayatana.bus_name, ":1.42");
        assert_eq!(ayatana.path, "/org/ayatana/NotificationItem/x");
        assert_eq!(
            ayatana.to_item_string(),
            ":1.42/org/ayatana/NotificationItem/x"
        );
        let named = ItemAddress::parse("org.kde.StatusNotifierItem-7-1").expect("ok");
        assert_eq!(named.path, "/StatusNotifierItem");
        for bad in [
            "",
            "/only/a/path",
            "noDots",
            "a..b/x",
            "org.x/bad path",
            "org.x/trailing/",
            "org.x//double",
            "org.1digit",
            &format!("org.{}", "x".repeat(300)),
        ] {
            assert_eq!(ItemAddress::parse(bad), None, "{bad}");
        }
    }
}
