//! Where the MPD server is, as libmpdclient finds it: the module's `server` (a host name,
//! a socket path, or `@name` for an abstract socket) and `port`; else `MPD_HOST`
//! (`password@host` too) and `MPD_PORT`; else the usual sockets,
//! `$XDG_RUNTIME_DIR/mpd/socket` and `/run/mpd/socket`, where one exists; else
//! `localhost:6600`.

use std::fmt;
use std::path::PathBuf;

pub const DEFAULT_PORT: u16 = 6600;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Address {
    Tcp {
        host: String,
        port: u16,
    },
    Unix(PathBuf),
    /// A Linux abstract socket, named without its leading `@`.
    Abstract(String),
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Address::Tcp { host, port } => write!(f, "{host}:{port}"),
            Address::Unix(path) => write!(f, "{}", path.display()),
            Address::Abstract(name) => write!(f, "@{name}"),
        }
    }
}

/// The address to connect to and the password to send, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    pub address: Address,
    pub password: Option<String>,
}

/// Where to connect: `server`, `port` and `password` from the config, `env` reads the
/// environment, and `exists` says whether a socket path is there.
pub fn find(
    server: Option<&str>,
    port: Option<u16>,
    password: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
    exists: impl Fn(&PathBuf) -> bool,
) -> Server {
    let env_host = env("MPD_HOST").filter(|h| !h.is_empty());
    let (host, env_password) = match (server, env_host.as_deref()) {
        (Some(server), _) => (Some(server.to_owned()), None),
        (None, Some(host)) => split_password(host),
        (None, None) => (None, None),
    };
    let password = password.map(str::to_owned).or(env_password);
    let port = port
        .or_else(|| env("MPD_PORT").and_then(|p| p.parse().ok()))
        .unwrap_or(DEFAULT_PORT);
    let address = match host {
        Some(host) => address_of(&host, port, env("HOME")),
        None => {
            let runtime = env("XDG_RUNTIME_DIR").map(|d| PathBuf::from(d).join("mpd/socket"));
            let system = PathBuf::from("/run/mpd/socket");
            match runtime.into_iter().chain([system]).find(|p| exists(p)) {
                Some(socket) => Address::Unix(socket),
                None => address_of("localhost", port, None),
            }
        }
    };
    Server { address, password }
}

/// `password@host` (a host that is not an abstract socket's `@name`).
fn split_password(host: &str) -> (Option<String>, Option<String>) {
    match host.rsplit_once('@') {
        Some((password, host)) if !password.is_empty() && !host.is_empty() => {
            (Some(host.to_owned()), Some(password.to_owned()))
        }
        _ => (Some(host.to_owned()), None),
    }
}

fn address_of(host: &str, port: u16, home: Option<String>) -> Address {
    if host.starts_with('/') {
        Address::Unix(PathBuf::from(host))
    } else if let Some(name) = host.strip_prefix('@') {
        Address::Abstract(name.to_owned())
    } else if let Some(path) = host.strip_prefix("~/") {
        Address::Unix(PathBuf::from(home.unwrap_or_default()).join(path))
    } else {
        Address::Tcp {
            host: host.to_owned(),
            port,
        }
    }
}
