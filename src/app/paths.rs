//! The XDG base directories ringbar uses.

use std::path::PathBuf;

/// `$XDG_<VAR>` if it is an absolute path, otherwise `$HOME/<fallback>`.
fn base_dir(var: &str, fallback: &str) -> Option<PathBuf> {
    let from_env = std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    from_env.or_else(|| {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .map(|home| home.join(fallback))
    })
}

/// `$XDG_CONFIG_HOME/ringbar/config.toml`; while the user has none, the first
/// `ringbar/config.toml` of `$XDG_CONFIG_DIRS` (`/etc/xdg` by default, where the package
/// puts the documented defaults) that exists.
pub fn config_file() -> Option<PathBuf> {
    let user = config_home().map(|d| d.join("ringbar/config.toml"));
    if user.as_ref().is_some_and(|path| path.exists()) {
        return user;
    }
    system_config_dirs()
        .map(|dir| dir.join("ringbar/config.toml"))
        .find(|path| path.exists())
        .or(user)
}

/// `$XDG_CONFIG_HOME`, else `~/.config`.
pub fn config_home() -> Option<PathBuf> {
    base_dir("XDG_CONFIG_HOME", ".config")
}

/// `$XDG_CONFIG_DIRS`, its absolute entries; `/etc/xdg` when unset or empty.
pub fn system_config_dirs() -> impl Iterator<Item = PathBuf> {
    let dirs = std::env::var("XDG_CONFIG_DIRS")
        .ok()
        .filter(|dirs| !dirs.is_empty())
        .unwrap_or_else(|| "/etc/xdg".to_owned());
    let dirs: Vec<PathBuf> = dirs
        .split(':')
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .collect();
    dirs.into_iter()
}

/// `$XDG_CONFIG_HOME/ringbar/style.css`.
pub fn style_file() -> Option<PathBuf> {
    config_home().map(|d| d.join("ringbar/style.css"))
}

/// `$XDG_STATE_HOME/ringbar/state.toml`.
pub fn state_file() -> Option<PathBuf> {
    base_dir("XDG_STATE_HOME", ".local/state").map(|d| d.join("ringbar/state.toml"))
}

/// `$XDG_RUNTIME_DIR`, where the single-instance lock lives; no fallback (it must be
/// private to the user and gone at logout).
pub fn runtime_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}
